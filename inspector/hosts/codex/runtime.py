"""Codex's runtime: its hooks are commands, run by its chain (in parallel, answers combined by its
rules), so a session is the shared command runtime over Codex's chain."""

from __future__ import annotations

from inspector.config.model import Config
from inspector.hosts.codex import NAME
from inspector.hosts.codex.chain import CodexHooks
from inspector.hosts.command_runtime import CommandRuntime
from inspector.journal.journal import Journal
from inspector.pipeline.gate import Gate


def codex_runtime(config: Config, journal: Journal, gate: Gate) -> CommandRuntime:
    def chain(config: Config, gate: Gate | None) -> CodexHooks:
        project_dir = str(config.workdir) if config.workdir else "."
        return CodexHooks(config.command_hooks, journal, project_dir=project_dir, gate=gate)

    return CommandRuntime(NAME, config, journal, gate, chain)
