"""Codex's runtime: its hooks are commands, run by its chain (in parallel, answers combined by its
rules), so a session is the shared command runtime over Codex's chain."""

from __future__ import annotations

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.codex import NAME
from inspector.hosts.codex.chain import CodexHooks
from inspector.hosts.command_runtime import CommandRuntime
from inspector.journal.journal import Journal
from inspector.pipeline.gate import Gate


def codex_runtime(
    config: Config, journal: Journal, approvals: Approvals, gate: Gate
) -> CommandRuntime:
    def chain(config: Config, gate: Gate | None) -> CodexHooks:
        return CodexHooks(
            config.command_hooks,
            journal,
            project_dir=str(config.workdir) if config.workdir else ".",
            gate=gate,
            approvals=approvals,
            ask_timeout_ms=config.defaults.approval_timeout_ms,
        )

    return CommandRuntime(NAME, config, journal, gate, chain)
