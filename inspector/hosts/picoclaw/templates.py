"""Builders for the params PicoClaw's host really sends (reference §4 and §7).

Every builder returns a fresh dict whose keys follow Go's struct declaration order; `omitempty`
fields are left out when empty, exactly as encoding/json would. Go sorts the keys of maps
(arguments, options, tool parameters), so those are sorted here too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from inspector.jsonrpc import stages
from inspector.jsonrpc.event_kinds import LEGACY_EVENT_ALIASES, agent_event_severity

JSONObject = dict[str, Any]

AGENT_ID = "main"
SESSION_KEY = "agent:main:main"
EXAMPLE_TIME = "2026-06-13T09:30:00.123456789Z"

# HookMeta.TracePath of the main pipeline (Source "runTurn") for each stage.
TRACE_PATH = {
    "before_llm": "turn.llm.request",
    "after_llm": "turn.llm.response",
    "before_tool": "turn.tool.before",
    "approve_tool": "turn.tool.approve",
    "after_tool": "turn.tool.after",
}

# The legacy agent EventKind was a uint8 enum declared in the same order as the legacy names.
LEGACY_KIND_NUMBER = {name: number for number, name in enumerate(LEGACY_EVENT_ALIASES)}


def _empty(value: Any) -> bool:
    return value is None or value is False or value in ("", 0, [], {})


def _omit_empty(obj: JSONObject, *optional: str) -> JSONObject:
    """Drop the `omitempty` keys whose value Go would not write."""
    return {key: value for key, value in obj.items() if key not in optional or not _empty(value)}


def _go_map(value: Any) -> Any:
    """A map[string]any as Go writes it: keys sorted at every level."""
    if isinstance(value, dict):
        return {key: _go_map(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_go_map(item) for item in value]
    return value


def _with_context(head: JSONObject, context: JSONObject | None, tail: JSONObject) -> JSONObject:
    """`context` is a pointer with omitempty: absent only when nil."""
    middle = {} if context is None else {"context": context}
    return {**head, **middle, **tail}


def meta(
    trace_path: str,
    *,
    agent_id: str = AGENT_ID,
    turn_id: str = "turn-1",
    session_key: str = SESSION_KEY,
    iteration: int = 1,
    source: str = "runTurn",
) -> JSONObject:
    """HookMeta: no JSON tags, so PascalCase keys, all always present."""
    return {
        "AgentID": agent_id,
        "TurnID": turn_id,
        "ParentTurnID": "",  # eventMeta never sets it
        "SessionKey": session_key,
        "Iteration": iteration,
        "TracePath": trace_path,
        "Source": source,
    }


def turn_context(
    channel: str = "cli",
    chat_id: str = "direct",
    sender_id: str = "cli-user",
    *,
    account: str = "",
    chat_type: str = "",
    message_id: str = "",
    agent_id: str = AGENT_ID,
) -> JSONObject:
    """TurnContext: snake_case inbound, PascalCase route (no tags), snake_case scope."""
    inbound = _omit_empty(
        {
            "channel": channel,
            "account": account,
            "chat_id": chat_id,
            "chat_type": chat_type,
            "sender_id": sender_id,
            "message_id": message_id,
        },
        "account",
        "chat_type",
        "message_id",
    )
    account_id = account or "default"
    route = {
        "AgentID": agent_id,
        "Channel": channel,
        "AccountID": account_id,
        "SessionPolicy": {"Dimensions": ["chat"], "IdentityLinks": None},
        "MatchedBy": "default",
    }
    scope = {
        "version": 1,
        "agent_id": agent_id,
        "channel": channel,
        "account": account_id,
        "dimensions": ["chat"],
        "values": {"chat": chat_id},
    }
    return {"inbound": inbound, "route": route, "scope": scope}


def message(
    role: str,
    content: str,
    *,
    tool_calls: list[JSONObject] | None = None,
    tool_call_id: str = "",
) -> JSONObject:
    """A providers Message: role and content always, the rest omitempty."""
    return _omit_empty(
        {"role": role, "content": content, "tool_calls": tool_calls, "tool_call_id": tool_call_id},
        "tool_calls",
        "tool_call_id",
    )


def tool_definition(name: str, description: str, parameters: JSONObject) -> JSONObject:
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": _go_map(parameters)},
    }


def tool_call(id: str, name: str, arguments: JSONObject) -> JSONObject:
    """An LLM ToolCall as JSON: name and arguments live only under `function`, args as a string."""
    encoded = json.dumps(arguments, separators=(",", ":"), ensure_ascii=False)
    return {"id": id, "type": "function", "function": {"name": name, "arguments": encoded}}


def token_usage(prompt_tokens: int, completion_tokens: int) -> JSONObject:
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def llm_response(
    content: str,
    *,
    tool_calls: list[JSONObject] | None = None,
    finish_reason: str = "stop",
    usage: JSONObject | None = None,
    reasoning_content: str = "",
) -> JSONObject:
    """LLMResponse: no `role`; `reasoning` and `reasoning_details` have no omitempty."""
    return _omit_empty(
        {
            "content": content,
            "reasoning_content": reasoning_content,
            "tool_calls": tool_calls,
            "finish_reason": finish_reason,
            "usage": usage,
            "reasoning": "",
            "reasoning_details": None,
        },
        "reasoning_content",
        "tool_calls",
        "usage",
    )


def llm_request(
    meta: JSONObject,
    context: JSONObject | None,
    model: str,
    messages: list[JSONObject] | None,
    tools: list[JSONObject] | None,
    options: JSONObject | None,
) -> JSONObject:
    """before_llm params (LLMHookRequest); graceful_terminal is omitted while false."""
    tail = {"model": model, "messages": messages, "tools": tools, "options": _go_map(options)}
    return _with_context({"meta": meta}, context, _omit_empty(tail, "messages", "tools", "options"))


def llm_response_envelope(
    meta: JSONObject, context: JSONObject | None, model: str, response: JSONObject | None
) -> JSONObject:
    """after_llm params (LLMHookResponse), also the shape a hook must return under `response`."""
    tail = _omit_empty({"model": model, "response": response}, "response")
    return _with_context({"meta": meta}, context, tail)


def tool_call_request(
    meta: JSONObject, context: JSONObject | None, tool: str, arguments: JSONObject | None
) -> JSONObject:
    """before_tool params (ToolCallHookRequest); channel/chat_id are never filled by the host."""
    tail = _omit_empty({"tool": tool, "arguments": _go_map(arguments)}, "arguments")
    return _with_context({"meta": meta}, context, tail)


def approval_request(
    meta: JSONObject, context: JSONObject | None, tool: str, arguments: JSONObject | None
) -> JSONObject:
    """approve_tool params (ToolApprovalRequest): the tool and arguments after before_tool."""
    tail = _omit_empty({"tool": tool, "arguments": _go_map(arguments)}, "arguments")
    return _with_context({"meta": meta}, context, tail)


def tool_result(
    for_llm: str,
    for_user: str | None = None,
    is_error: bool = False,
    silent: bool = False,
    async_: bool = False,
) -> JSONObject:
    """ToolResult: for_llm, silent, is_error and async always present; for_user omitempty."""
    return _omit_empty(
        {
            "for_llm": for_llm,
            "for_user": for_user,
            "silent": silent,
            "is_error": is_error,
            "async": async_,
        },
        "for_user",
    )


def tool_result_envelope(
    meta: JSONObject,
    context: JSONObject | None,
    tool: str,
    arguments: JSONObject | None,
    result: JSONObject | None,
    duration_ns: int,
) -> JSONObject:
    """after_tool params (ToolResultHookResponse), also the shape a hook returns under `result`."""
    tail = _omit_empty(
        {"tool": tool, "arguments": _go_map(arguments), "result": result, "duration": duration_ns},
        "arguments",
        "result",
    )
    return _with_context({"meta": meta}, context, tail)


def hello_params(name: str, modes: Iterable[str]) -> JSONObject:
    return _omit_empty({"name": name, "version": 1, "modes": list(modes)}, "modes")


def runtime_event(
    kind: str,
    payload: JSONObject,
    *,
    event_id: str = "evt-1",
    time: str = EXAMPLE_TIME,
    agent_id: str = AGENT_ID,
    session_key: str = SESSION_KEY,
    turn_id: str = "turn-1",
    channel: str = "cli",
    chat_id: str = "direct",
    trace_id: str = "",
    agent_source: str = "runTurn",
    iteration: int = 1,
) -> JSONObject:
    """The events.Event envelope of an agent event, the params of hook.runtime_event.

    `scope` and `correlation` are structs, so they are always written, possibly as {}.
    `correlation.trace_id` carries the TracePath, not a unique id.
    """
    scope = {
        "agent_id": agent_id,
        "session_key": session_key,
        "turn_id": turn_id,
        "channel": channel,
        "chat_id": chat_id,
    }
    event = {
        "id": event_id,
        "kind": kind,
        "time": time,
        "source": {"component": "agent", "name": agent_id},
        "scope": _omit_empty(scope, *scope),
        "correlation": _omit_empty({"trace_id": trace_id}, "trace_id"),
        "severity": agent_event_severity(kind, payload),
        "payload": payload,
        "attrs": _omit_empty(
            {"agent_source": agent_source, "iteration": iteration}, "agent_source", "iteration"
        ),
    }
    return _omit_empty(event, "attrs")


def legacy_event(kind: str, payload: JSONObject, meta: JSONObject, *, time: str) -> JSONObject:
    """The removed hook.event params: the legacy agent Event with Kind as a number."""
    return {"Kind": LEGACY_KIND_NUMBER[kind], "Time": time, "Meta": meta, "Payload": payload}


# A believable coding-agent turn, shared by the examples below.
_MODEL = "claude-sonnet-4-5"
_COMMAND = {"command": "pytest tests/test_checkout.py -q"}
_SYSTEM = (
    "You are PicoClaw, a coding assistant working in /home/dev/shop-api. "
    "Use the tools to inspect and change files, and run the tests before you claim a fix."
)
_USER = "The checkout tests started failing this morning. Find out why."
_TEST_OUTPUT = (
    "F.\n"
    "FAILED tests/test_checkout.py::test_total_applies_discount - assert 10.0 == 9.5\n"
    "1 failed, 1 passed in 0.42s"
)


def _context() -> JSONObject:
    return turn_context(message_id="msg-42")


def _tools() -> list[JSONObject]:
    return [
        tool_definition(
            "exec",
            "Run a shell command in the workspace and return its output.",
            {
                "type": "object",
                "properties": {
                    "command": {"type": "string", "description": "The command line to run"},
                    "working_dir": {
                        "type": "string",
                        "description": "Directory to run in, relative to the workspace",
                    },
                },
                "required": ["command"],
            },
        ),
        tool_definition(
            "read_file",
            "Read a text file from the workspace.",
            {
                "type": "object",
                "properties": {"path": {"type": "string", "description": "Path to the file"}},
                "required": ["path"],
            },
        ),
    ]


def _hello() -> JSONObject:
    return hello_params("review-gate", ["observe", "llm", "tool", "approve"])


def _before_llm() -> JSONObject:
    messages = [message("system", _SYSTEM), message("user", _USER)]
    options = {"max_tokens": 8192, "temperature": 0.7, "prompt_cache_key": SESSION_KEY}
    return llm_request(
        meta(TRACE_PATH["before_llm"]), _context(), _MODEL, messages, _tools(), options
    )


def _after_llm() -> JSONObject:
    response = llm_response(
        "I'll run the checkout tests first.",
        tool_calls=[tool_call("call_01", "exec", _COMMAND)],
        finish_reason="tool_calls",
        usage=token_usage(1843, 41),
    )
    return llm_response_envelope(meta(TRACE_PATH["after_llm"]), _context(), _MODEL, response)


def _before_tool() -> JSONObject:
    return tool_call_request(meta(TRACE_PATH["before_tool"]), _context(), "exec", dict(_COMMAND))


def _approve_tool() -> JSONObject:
    return approval_request(meta(TRACE_PATH["approve_tool"]), _context(), "exec", dict(_COMMAND))


def _after_tool() -> JSONObject:
    return tool_result_envelope(
        meta(TRACE_PATH["after_tool"]),
        _context(),
        "exec",
        dict(_COMMAND),
        tool_result(_TEST_OUTPUT),
        1_284_000_000,
    )


def _runtime_event() -> JSONObject:
    payload = {"Tool": "exec", "Arguments": dict(_COMMAND)}
    return runtime_event(
        "agent.tool.exec_start", payload, event_id="evt-7", trace_id="turn.tool.start"
    )


def _legacy_event() -> JSONObject:
    payload = {"Tool": "exec", "Arguments": dict(_COMMAND)}
    return legacy_event("tool_exec_start", payload, meta("turn.tool.start"), time=EXAMPLE_TIME)


_EXAMPLES: dict[str, Callable[[], JSONObject]] = {
    stages.HELLO: _hello,
    stages.METHOD_FOR_STAGE["before_llm"]: _before_llm,
    stages.METHOD_FOR_STAGE["after_llm"]: _after_llm,
    stages.METHOD_FOR_STAGE["before_tool"]: _before_tool,
    stages.METHOD_FOR_STAGE["approve_tool"]: _approve_tool,
    stages.METHOD_FOR_STAGE["after_tool"]: _after_tool,
    stages.RUNTIME_EVENT: _runtime_event,
    stages.LEGACY_EVENT: _legacy_event,
}


def template(method: str) -> JSONObject:
    """A complete, realistic params object for `method`, fresh on every call."""
    try:
        build = _EXAMPLES[method]
    except KeyError:
        raise ValueError(f"no template for method {method!r}") from None
    return build()
