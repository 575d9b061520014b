"""PicoClaw as a host: its config.json, its JSON-RPC methods, and long-lived process hooks that
the engine starts and its pipeline calls (so no command chain)."""

from __future__ import annotations

from pathlib import Path

from inspector.config.files import read_config_text
from inspector.config.model import Config
from inspector.config.parse import parse_json
from inspector.hooks.approvals import Approvals
from inspector.host_names import LABELS, PICOCLAW
from inspector.hosts.host import ABSENT, CommandChain, HookOutput, Relayed
from inspector.hosts.picoclaw.config import read_picoclaw
from inspector.hosts.picoclaw.install import NOT_INSTALLED
from inspector.journal.journal import Journal
from inspector.pipeline.gate import Gate
from inspector.protocol.catalogue import METHODS
from inspector.protocol.stages import STAGES


class PicoClawHost:
    name = PICOCLAW
    label = LABELS[PICOCLAW]
    runs_commands = False
    counts_skips = False
    installer = NOT_INSTALLED  # its config names the relay as a process hook
    # a decision names its stage bare (before_tool), an exchange its method (hook.before_tool)
    events: tuple[str, ...] = (*METHODS, *STAGES)

    def recognises(self, path: Path) -> bool:
        return path.suffix.lower() == ".json" and not path.is_dir()

    def load(self, path: Path) -> Config:
        file = str(path)
        return read_picoclaw(parse_json(file, read_config_text(path, file)), path)

    def command_chain(
        self, config: Config, journal: Journal, approvals: Approvals, gate: Gate | None = None
    ) -> CommandChain | None:
        return None

    async def answer_relayed(self, chain: CommandChain | None, relayed: Relayed) -> HookOutput:
        return ABSENT  # its hooks are not commands: no command relay speaks for it


HOST = PicoClawHost()
