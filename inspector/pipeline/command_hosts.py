"""Command hooks belong to a host whose rules decide what their runs mean: j-cli's chain or
Claude Code's parallel hooks. Both fire an event with a context and journal every run."""

from __future__ import annotations

from typing import Any

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hooks.command_hook import CommandHook
from inspector.journal.journal import Journal
from inspector.pipeline.claude_hooks import ClaudeHooks
from inspector.pipeline.jcli_chain import JcliChain

CommandHost = JcliChain | ClaudeHooks


def command_host(config: Config, journal: Journal, approvals: Approvals) -> CommandHost | None:
    """The host that runs `config`'s command hooks, or None when it has none."""
    workdir = str(config.workdir) if config.workdir else None
    if config.format == "jcli":
        return JcliChain(config.command_hooks, journal, cwd=workdir, warnings=config.warnings)
    if config.format == "claude":
        return ClaudeHooks(
            config.command_hooks,
            journal,
            approvals,
            project_dir=workdir or ".",
            ask_timeout_ms=config.defaults.approval_timeout_ms,
        )
    return None


def command_hooks(host: CommandHost | None) -> list[CommandHook]:
    if isinstance(host, JcliChain):
        return [hook for hooks in host.hooks.values() for hook in hooks]
    if isinstance(host, ClaudeHooks):
        return list(host.hooks)
    return []


def events(host: CommandHost | None) -> list[str]:
    """The events this host's hooks listen to: what the composer offers as methods."""
    return sorted({hook.spec.event for hook in command_hooks(host)})


def context_template(host: CommandHost | None, event: str) -> dict[str, Any]:
    """A believable stdin context for one event, for the composer to start from."""
    if isinstance(host, ClaudeHooks):
        context: dict[str, Any] = {
            "session_id": "composer",
            "transcript_path": "",
            "cwd": host.project_dir,
            "permission_mode": "default",
            "hook_event_name": event,
        }
        if "ToolUse" in event:
            context |= {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"}
        if event == "UserPromptSubmit":
            context["prompt"] = "What does this project do?"
        return context
    cwd = host.cwd if isinstance(host, JcliChain) else "."
    context = {"event": event, "session_id": "composer", "cwd": cwd}
    if "tool" in event:
        context |= {"tool_name": "Bash", "tool_arguments": '{"command":"ls"}'}
    if event in ("pre_send_message", "post_send_message"):
        context["user_input"] = "What does this project do?"
    return context
