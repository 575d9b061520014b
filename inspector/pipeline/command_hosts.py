"""Command hooks belong to a host whose rules decide what their runs mean: j-cli's chain or
Claude Code's parallel hooks. Both fire an event with a context and journal every run."""

from __future__ import annotations

from typing import Any

from inspector.config.jcli_events import MODEL_EVENTS, TOOL_EVENTS
from inspector.config.model import Config
from inspector.drivers.claude_session import example_payload
from inspector.hooks.approvals import Approvals
from inspector.hooks.command_hook import CommandHook
from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_OK, Exchange
from inspector.pipeline.claude_answer import ERROR as CLAUDE_ERROR
from inspector.pipeline.claude_hooks import ClaudeHooks
from inspector.pipeline.gate import Gate
from inspector.pipeline.jcli_chain import JcliChain

CommandHost = JcliChain | ClaudeHooks


def command_host(
    config: Config, journal: Journal, approvals: Approvals, gate: Gate | None = None
) -> CommandHost | None:
    """The host that runs `config`'s command hooks, or None when it has none. Its runs wait
    at `gate` when the intercept holds them."""
    workdir = str(config.workdir) if config.workdir else None
    if config.format == "jcli":
        return JcliChain(
            config.command_hooks, journal, cwd=workdir, warnings=config.warnings, gate=gate
        )
    if config.format == "claude":
        return ClaudeHooks(
            config.command_hooks,
            journal,
            approvals,
            project_dir=workdir or ".",
            ask_timeout_ms=config.defaults.approval_timeout_ms,
            gate=gate,
        )
    return None


def command_hooks(host: CommandHost | None) -> list[CommandHook]:
    if isinstance(host, JcliChain):
        return [hook for hooks in host.hooks.values() for hook in hooks]
    if isinstance(host, ClaudeHooks):
        return list(host.hooks)
    return []


def run_failed(host: CommandHost | None, exchange: Exchange) -> bool:
    """Whether `host` counts this run as a failure: for j-cli any run it read no HookResult
    from; for Claude Code a non-blocking error (an exit 2 it reads as a block is an answer)."""
    if isinstance(host, ClaudeHooks):
        return exchange.action == CLAUDE_ERROR
    return exchange.status != STATUS_OK


def events(host: CommandHost | None) -> list[str]:
    """The events this host's hooks listen to: what the composer offers as methods."""
    return sorted({hook.spec.event for hook in command_hooks(host)})


def context_template(host: CommandHost | None, event: str) -> dict[str, Any]:
    """A believable stdin context for one event, for the composer to start from."""
    if isinstance(host, ClaudeHooks):
        return example_payload(event, host.project_dir)
    cwd = host.cwd if isinstance(host, JcliChain) else "."
    context: dict[str, Any] = {"event": event, "session_id": "composer", "cwd": cwd}
    if "tool" in event:
        context |= {"tool_name": "Bash", "tool_arguments": '{"command":"ls"}'}
    if event in ("pre_send_message", "post_send_message"):
        context["user_input"] = _PROMPT
    if event not in TOOL_EVENTS:
        context["messages"] = [{"role": "user", "content": _PROMPT}]
    if event in MODEL_EVENTS:
        context["model"] = "gpt-4o"
    return context | _JCLI_EVENT_FIELDS.get(event, {})


# What each j-cli event's call site adds (the turn runner fills the same fields).
_PROMPT = "What does this project do?"
_REPLY = "It inspects agent hooks."
_SYSTEM = "You are a helpful assistant."
_CLAUDE_EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "UserPromptSubmit": {"prompt": _PROMPT},
    "PostToolUse": {
        "tool_response": {
            "stdout": "README.md",
            "stderr": "",
            "interrupted": False,
            "isImage": False,
        }
    },
    "PostToolUseFailure": {"error": "Exit code 1\nls: cannot access", "is_interrupt": False},
    "Stop": {"stop_hook_active": False, "last_assistant_message": _REPLY},
    "SubagentStop": {"stop_hook_active": False, "last_assistant_message": _REPLY},
    "SessionStart": {"source": "startup"},
    "SessionEnd": {"reason": "other"},
}
_JCLI_EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "pre_llm_request": {"system_prompt": _SYSTEM},
    "pre_auto_compact": {"system_prompt": _SYSTEM},
    "stop": {"system_prompt": _SYSTEM, "user_input": _REPLY},  # j-cli sends the reply there
    "post_llm_response": {"assistant_output": _REPLY},
    "post_tool_execution": {"tool_result": "README.md"},
    "post_tool_execution_failure": {"tool_error": "ls: cannot access"},
}
