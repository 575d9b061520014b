"""Claude Code as a host: its settings files, its events, and its hooks run in parallel."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.claude import LABEL, NAME
from inspector.hosts.claude.chain import ClaudeHooks, run_failed
from inspector.hosts.claude.config import CLAUDE_DIR, read_claude
from inspector.hosts.claude.events import EVENTS
from inspector.hosts.claude.findings import finding
from inspector.hosts.claude.handlers import DEFAULT_TIMEOUT_S
from inspector.hosts.claude.install import INSTALLER
from inspector.hosts.claude.outcome import EventOutcome
from inspector.hosts.claude.relay_answer import EDITED_ON, claude_output
from inspector.hosts.claude.runtime import claude_runtime
from inspector.hosts.command_relay_answer import answer_relayed
from inspector.hosts.command_runtime import CommandRuntime
from inspector.hosts.host import ABSENT, HookOutput, Relayed, RelayedTurns
from inspector.hosts.recorded_answer import recorded_answer
from inspector.hosts.relayed_turns import NamedTurns, text_at
from inspector.hosts.runtime import Runtime
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Finding
from inspector.pipeline.gate import Gate


class ClaudeHost:
    name = NAME
    label = LABEL
    runs_commands = True
    bridge_plugin = False
    posts_hooks = True
    event_field = "hook_event_name"
    counts_skips = False
    default_timeout_ms = DEFAULT_TIMEOUT_S * 1000
    env_prefixes: tuple[str, ...] = ("CLAUDE",)  # CLAUDE_PROJECT_DIR, CLAUDECODE, CLAUDE_CODE_*...
    installer = INSTALLER
    events: tuple[str, ...] = EVENTS

    def recognises(self, path: Path) -> bool:
        if path.is_dir():
            return path.name == CLAUDE_DIR or (path / CLAUDE_DIR).is_dir()
        return path.parent.name == CLAUDE_DIR and path.suffix == ".json"

    def load(self, path: Path) -> Config:
        claude = read_claude(path)
        return replace(
            claude.config, warnings=claude.warnings, files=claude.files, workdir=claude.project_dir
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
        return claude_runtime(config, journal, approvals, gate)

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def answer_of(self, exchange: Exchange) -> dict[str, Any]:
        return recorded_answer(exchange, shows_stderr=True)

    async def answer_relayed(self, runtime: Runtime | None, relayed: Relayed) -> HookOutput:
        return await answer_relayed(
            runtime,
            relayed,
            chain_type=ClaudeHooks,
            undecided=EventOutcome,
            output=claude_output,
            edits_on=EDITED_ON,
        )

    def unanswered(self, relayed: Relayed, reason: str) -> HookOutput:
        return ABSENT

    def relayed_turns(self) -> RelayedTurns:
        # every event after the first prompt names the prompt (prompt_id, a UUID)
        return NamedTurns(lambda payload: text_at(payload, "prompt_id"))

    def finding(self, code: str, message: str) -> Finding:
        return finding(code, message)


HOST = ClaudeHost()
