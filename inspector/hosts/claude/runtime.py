"""Claude Code's runtime: its hooks are commands, run by its chain (in parallel, answers merged
by its rules), so a session is the shared command runtime over Claude Code's chain."""

from __future__ import annotations

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.claude import NAME
from inspector.hosts.claude.chain import ClaudeHooks
from inspector.hosts.claude.permission_layer import PermissionLayer
from inspector.hosts.command_runtime import CommandRuntime
from inspector.journal.journal import Journal
from inspector.pipeline.gate import Gate


def claude_runtime(
    config: Config, journal: Journal, approvals: Approvals, gate: Gate
) -> CommandRuntime:
    def chain(config: Config, gate: Gate | None) -> ClaudeHooks:
        return ClaudeHooks(
            config.command_hooks,
            journal,
            approvals,
            project_dir=str(config.workdir) if config.workdir else ".",
            ask_timeout_ms=config.defaults.approval_timeout_ms,
            gate=gate,
            permissions=PermissionLayer(config.files, config.workdir or "."),
        )

    return CommandRuntime(NAME, config, journal, gate, chain)
