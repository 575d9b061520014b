"""Gemini CLI's runtime: its hooks are commands, run by its chain (answers merged per event by
its rules), so a session is the shared command runtime over Gemini CLI's chain."""

from __future__ import annotations

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.command_runtime import CommandRuntime
from inspector.hosts.gemini import NAME
from inspector.hosts.gemini.chain import GeminiHooks
from inspector.journal.journal import Journal
from inspector.pipeline.gate import Gate


def gemini_runtime(
    config: Config, journal: Journal, approvals: Approvals, gate: Gate
) -> CommandRuntime:
    def chain(config: Config, gate: Gate | None) -> GeminiHooks:
        return GeminiHooks(
            config.command_hooks,
            journal,
            approvals,
            project_dir=str(config.workdir) if config.workdir else ".",
            gate=gate,
            ask_timeout_ms=config.defaults.approval_timeout_ms,
        )

    return CommandRuntime(NAME, config, journal, gate, chain)
