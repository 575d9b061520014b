"""OpenClaw as a host: a plugin folder whose in-process hooks run in a Node harness."""

from __future__ import annotations

from pathlib import Path

from inspector.config.model import Config
from inspector.config.openclaw_plugin import MANIFEST, is_plugin_folder, read_plugin
from inspector.hooks.approvals import Approvals
from inspector.host_names import LABELS, OPENCLAW
from inspector.hosts.host import ABSENT, CommandChain, HookOutput, Relayed
from inspector.hosts.openclaw.hook_names import HOOK_NAMES
from inspector.hosts.openclaw.install import INSTALLER
from inspector.journal.journal import Journal
from inspector.pipeline.gate import Gate


class OpenClawHost:
    name = OPENCLAW
    label = LABELS[OPENCLAW]
    runs_commands = False
    counts_skips = False
    installer = INSTALLER
    events: tuple[str, ...] = HOOK_NAMES

    def recognises(self, path: Path) -> bool:
        return is_plugin_folder(path) or path.name == MANIFEST

    def load(self, path: Path) -> Config:
        folder = path if path.is_dir() else path.parent
        plugin = read_plugin(folder)
        return Config((), path=folder, host=OPENCLAW, files=plugin.files, plugin=plugin)

    def command_chain(
        self, config: Config, journal: Journal, approvals: Approvals, gate: Gate | None = None
    ) -> None:
        return None

    async def answer_relayed(self, chain: CommandChain | None, relayed: Relayed) -> HookOutput:
        return ABSENT  # its hooks are not commands: no command relay speaks for it


HOST = OpenClawHost()
