"""What the composer starts a j-cli event from: a HookContext as j-cli's call sites fill it."""

from __future__ import annotations

from typing import Any

from inspector.hosts.jcli.events import MODEL_EVENTS, TOOL_EVENTS

PROMPT = "What does this project do?"
REPLY = "It inspects agent hooks."
SYSTEM = "You are a helpful assistant."


def context_template(event: str, cwd: str) -> dict[str, Any]:
    """A believable stdin context for one event, run from `cwd`."""
    context: dict[str, Any] = {"event": event, "session_id": "composer", "cwd": cwd}
    if "tool" in event:
        context |= {"tool_name": "Bash", "tool_arguments": '{"command":"ls"}'}
    if event in ("pre_send_message", "post_send_message"):
        context["user_input"] = PROMPT
    if event not in TOOL_EVENTS:
        context["messages"] = [{"role": "user", "content": PROMPT}]
    if event in MODEL_EVENTS:
        context["model"] = "gpt-4o"
    return context | _EVENT_FIELDS.get(event, {})


# What each event's call site adds (the turn runner fills the same fields).
_EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "pre_llm_request": {"system_prompt": SYSTEM},
    "pre_auto_compact": {"system_prompt": SYSTEM},
    "stop": {"system_prompt": SYSTEM, "user_input": REPLY},  # j-cli sends the reply there
    "post_llm_response": {"assistant_output": REPLY},
    "post_tool_execution": {"tool_result": "README.md"},
    "post_tool_execution_failure": {"tool_error": "ls: cannot access"},
}
