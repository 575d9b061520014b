"""One believable event and ctx for each OpenClaw hook, in the shapes OpenClaw 2026.9.6 sends
(../reference/real-hosts.md §3), for `check` to call a plugin's handlers with."""

from __future__ import annotations

from typing import Any

JSONObject = dict[str, Any]

_PROMPT = "List the files."
_REPLY = "There is a README."
_CTX: JSONObject = {
    "agentId": "main",
    "sessionKey": "agent:main:check",
    "sessionId": "check",
    "runId": "run-check",
}
_TOOL: JSONObject = {
    "toolName": "exec",
    "params": {"command": "ls"},
    "runId": "run-check",
    "toolCallId": "call_check",
}
_CALL: JSONObject = {"runId": "run-check", "sessionId": "check", "provider": "openai"}
_MESSAGES = [{"role": "user", "content": _PROMPT}, {"role": "assistant", "content": _REPLY}]
_EVENTS: dict[str, JSONObject] = {
    "before_tool_call": _TOOL,
    "after_tool_call": _TOOL
    | {"result": {"content": [{"type": "text", "text": "README.md"}], "details": {}}}
    | {"durationMs": 0},
    "before_model_resolve": {"prompt": _PROMPT},
    "before_prompt_build": {"prompt": _PROMPT, "messages": _MESSAGES[:1]},
    "llm_input": _CALL
    | {"model": "gpt-4o", "systemPrompt": "", "prompt": _PROMPT, "historyMessages": _MESSAGES[:1]},
    "llm_output": _CALL
    | {"model": "gpt-4o", "assistantTexts": [_REPLY], "lastAssistant": _MESSAGES[1]},
    "agent_end": {"runId": "run-check", "messages": _MESSAGES, "success": True, "durationMs": 0},
    "message_sending": {"to": "check", "content": _REPLY, "metadata": {}},
    "message_received": {"from": "check", "content": _PROMPT, "metadata": {}},
}


def sample(hook_name: str) -> tuple[JSONObject, JSONObject]:
    """The event and ctx to call `hook_name`'s handlers with (an empty event for a hook whose
    shape the inspector does not know)."""
    ctx = _CTX | ({"toolName": "exec", "toolCallId": "call_check"} if "tool" in hook_name else {})
    return dict(_EVENTS.get(hook_name, {})), ctx
