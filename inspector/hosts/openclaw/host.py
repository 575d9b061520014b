"""OpenClaw as a host: a plugin folder whose in-process hooks run in a Node harness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.host import ABSENT, HookOutput, Relayed, RelayedTurns
from inspector.hosts.openclaw import LABEL, NAME
from inspector.hosts.openclaw.chain import DEFAULT_TIMEOUT_MS, handler_answer, run_failed
from inspector.hosts.openclaw.config import MANIFEST, is_plugin_folder, read_plugin
from inspector.hosts.openclaw.events import HOOK_NAMES
from inspector.hosts.openclaw.findings import finding
from inspector.hosts.openclaw.install import INSTALLER
from inspector.hosts.openclaw.relay_answer import relay_output
from inspector.hosts.openclaw.runtime import OpenClawRuntime
from inspector.hosts.relayed_turns import NamedTurns, text_at
from inspector.hosts.runtime import Runtime
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Finding
from inspector.pipeline.gate import Gate


class OpenClawHost:
    name = NAME
    label = LABEL
    runs_commands = False
    bridge_plugin = True
    posts_hooks = False
    event_field = ""
    counts_skips = False
    default_timeout_ms = DEFAULT_TIMEOUT_MS
    env_prefixes: tuple[str, ...] = ()  # its hooks are functions in its own process
    installer = INSTALLER
    events: tuple[str, ...] = HOOK_NAMES

    def recognises(self, path: Path) -> bool:
        return is_plugin_folder(path) or path.name == MANIFEST

    def load(self, path: Path) -> Config:
        folder = path if path.is_dir() else path.parent
        plugin = read_plugin(folder)
        return Config((), path=folder, host=NAME, files=plugin.files, plugin=plugin)

    def runtime(
        self,
        config: Config,
        journal: Journal,
        approvals: Approvals,
        gate: Gate,
        *,
        restart_crashed: bool = True,
    ) -> OpenClawRuntime:
        return OpenClawRuntime(config, journal, approvals, gate)

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def answer_of(self, exchange: Exchange) -> dict[str, Any]:
        return handler_answer(exchange)

    async def answer_relayed(self, runtime: Runtime | None, relayed: Relayed) -> HookOutput:
        plugin = runtime.plugin if isinstance(runtime, OpenClawRuntime) else None
        return await relay_output(plugin, relayed)

    def unanswered(self, relayed: Relayed, reason: str) -> HookOutput:
        return ABSENT

    def relayed_turns(self) -> RelayedTurns:
        # an agent run's hooks name the run in ctx.runId (agent_end in its event's runId)
        return NamedTurns(
            lambda call: text_at(call, "ctx", "runId") or text_at(call, "event", "runId")
        )

    def finding(self, code: str, message: str) -> Finding:
        return finding(code, message)


HOST = OpenClawHost()
