"""PicoClaw as a host: its config.json, its JSON-RPC methods, long-lived process hooks that its
runtime starts and its pipeline calls, and the answers a live PicoClaw gets through the relay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.config.files import read_config_text
from inspector.config.model import Config, Defaults
from inspector.config.parse import parse_json
from inspector.hooks.approvals import Approvals
from inspector.hosts.host import HookOutput, Relayed, RelayedTurns
from inspector.hosts.picoclaw import LABEL, NAME
from inspector.hosts.picoclaw.codes import finding
from inspector.hosts.picoclaw.config import read_picoclaw
from inspector.hosts.picoclaw.events import EVENTS
from inspector.hosts.picoclaw.install import NOT_INSTALLED
from inspector.hosts.picoclaw.relay_answer import relay_output, unanswered
from inspector.hosts.picoclaw.runtime import PicoClawRuntime
from inspector.hosts.recorded_answer import recorded_answer
from inspector.hosts.relayed_turns import NamedTurns, text_at
from inspector.hosts.runtime import Runtime
from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_OK, Exchange, Finding
from inspector.pipeline.gate import Gate


class PicoClawHost:
    name = NAME
    label = LABEL
    runs_commands = False
    bridge_plugin = False
    posts_hooks = False
    event_field = ""
    counts_skips = False
    default_timeout_ms = Defaults.interceptor_timeout_ms
    env_prefixes: tuple[str, ...] = ()  # its hooks are long-lived processes it starts once
    installer = NOT_INSTALLED  # its config names the relay as a process hook
    events: tuple[str, ...] = EVENTS

    def recognises(self, path: Path) -> bool:
        return path.suffix.lower() == ".json" and not path.is_dir()

    def load(self, path: Path) -> Config:
        file = str(path)
        return read_picoclaw(parse_json(file, read_config_text(path, file)), path)

    def runtime(
        self,
        config: Config,
        journal: Journal,
        approvals: Approvals,
        gate: Gate,
        *,
        restart_crashed: bool = True,
    ) -> PicoClawRuntime:
        return PicoClawRuntime(config, journal, approvals, gate, restart_crashed=restart_crashed)

    def run_failed(self, exchange: Exchange) -> bool:
        return exchange.status != STATUS_OK

    def answer_of(self, exchange: Exchange) -> dict[str, Any]:
        return recorded_answer(exchange, shows_stderr=False)

    async def answer_relayed(self, runtime: Runtime | None, relayed: Relayed) -> HookOutput:
        if not isinstance(runtime, PicoClawRuntime):
            return unanswered(relayed, "hook-inspector runs no PicoClaw hooks")
        return await relay_output(runtime, relayed)

    def unanswered(self, relayed: Relayed, reason: str) -> HookOutput:
        return unanswered(relayed, reason)

    def relayed_turns(self) -> RelayedTurns:
        # every hook request's meta names its turn (TurnID; empty for a /btw side question)
        return NamedTurns(lambda request: text_at(request, "params", "meta", "TurnID"))

    def finding(self, code: str, message: str) -> Finding:
        return finding(code, message)


HOST = PicoClawHost()
