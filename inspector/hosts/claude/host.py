"""Claude Code as a host: its settings files, its events, and its hooks run in parallel."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.host_names import CLAUDE, LABELS
from inspector.hosts.claude.config import CLAUDE_DIR, read_claude
from inspector.hosts.claude.events import EVENTS
from inspector.hosts.claude.hooks import ClaudeHooks
from inspector.hosts.claude.install import INSTALLER
from inspector.hosts.claude.outcome import EventOutcome
from inspector.hosts.claude.relay_answer import claude_output
from inspector.hosts.host import CommandChain, HookOutput, Relayed
from inspector.journal.journal import Journal
from inspector.pipeline.gate import Gate


class ClaudeHost:
    name = CLAUDE
    label = LABELS[CLAUDE]
    runs_commands = True
    counts_skips = False
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

    def command_chain(
        self, config: Config, journal: Journal, approvals: Approvals, gate: Gate | None = None
    ) -> ClaudeHooks:
        return ClaudeHooks(
            config.command_hooks,
            journal,
            approvals,
            project_dir=str(config.workdir) if config.workdir else ".",
            ask_timeout_ms=config.defaults.approval_timeout_ms,
            gate=gate,
        )

    async def answer_relayed(self, chain: CommandChain | None, relayed: Relayed) -> HookOutput:
        if not isinstance(chain, ClaudeHooks):
            return claude_output(EventOutcome(relayed.event, relayed.payload), relayed.edited_input)
        fired = await chain.fire(
            relayed.event,
            relayed.payload,
            source=relayed.source,
            ask_by=relayed.ask_by,
            env=relayed.env,
            live=True,
            cwd=relayed.cwd,
        )
        return claude_output(fired, relayed.edited_input)


HOST = ClaudeHost()
