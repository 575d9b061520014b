"""Gemini CLI as a host: its settings files, its events, and its hooks' answers merged per
event by its rules."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.command_relay_answer import answer_relayed
from inspector.hosts.command_runtime import CommandRuntime
from inspector.hosts.gemini import LABEL, NAME
from inspector.hosts.gemini.chain import GeminiHooks, run_failed
from inspector.hosts.gemini.config import DEFAULT_TIMEOUT_MS, GEMINI_DIR, read_gemini
from inspector.hosts.gemini.events import BEFORE_AGENT, EVENTS
from inspector.hosts.gemini.findings import finding
from inspector.hosts.gemini.install import INSTALLER
from inspector.hosts.gemini.outcome import EventOutcome
from inspector.hosts.gemini.relay_answer import EDITED_ON, gemini_output
from inspector.hosts.gemini.runtime import gemini_runtime
from inspector.hosts.host import ABSENT, HookOutput, Relayed, RelayedTurns
from inspector.hosts.recorded_answer import recorded_answer
from inspector.hosts.relayed_turns import PromptTurns
from inspector.hosts.runtime import Runtime
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Finding
from inspector.pipeline.gate import Gate


class GeminiHost:
    name = NAME
    label = LABEL
    runs_commands = True
    bridge_plugin = False
    posts_hooks = False
    event_field = "hook_event_name"
    counts_skips = False
    default_timeout_ms = DEFAULT_TIMEOUT_MS
    env_prefixes: tuple[str, ...] = ("GEMINI_",)  # GEMINI_PROJECT_DIR, GEMINI_SESSION_ID...
    installer = INSTALLER
    events: tuple[str, ...] = EVENTS

    def recognises(self, path: Path) -> bool:
        if path.is_dir():
            return path.name == GEMINI_DIR or (path / GEMINI_DIR / "settings.json").is_file()
        return path.parent.name == GEMINI_DIR and path.suffix == ".json"

    def load(self, path: Path) -> Config:
        gemini = read_gemini(path)
        return replace(
            gemini.config, warnings=gemini.warnings, files=gemini.files, workdir=gemini.project_dir
        )

    def runtime(
        self,
        config: Config,
        journal: Journal,
        approvals: Approvals,
        gate: Gate,
        *,
        restart_crashed: bool = True,
    ) -> CommandRuntime:
        return gemini_runtime(config, journal, approvals, gate)

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def answer_of(self, exchange: Exchange) -> dict[str, Any]:
        return recorded_answer(exchange, shows_stderr=True)

    async def answer_relayed(self, runtime: Runtime | None, relayed: Relayed) -> HookOutput:
        return await answer_relayed(
            runtime,
            relayed,
            chain_type=GeminiHooks,
            undecided=EventOutcome,
            output=gemini_output,
            edits_on=EDITED_ON,
        )

    def unanswered(self, relayed: Relayed, reason: str) -> HookOutput:
        return ABSENT

    def relayed_turns(self) -> RelayedTurns:
        # no event names its prompt: a turn runs from one BeforeAgent to the next
        field = self.event_field
        return PromptTurns(lambda payload: payload.get(field) == BEFORE_AGENT)

    def finding(self, code: str, message: str) -> Finding:
        return finding(code, message)


HOST = GeminiHost()
