"""PicoClaw's Clone of each stage's object and its before_llm guard (pkg/agent/hooks.go,
turn_context.go), on typed values. Cloning is not neutral: it turns some empty slices and maps
into nil and some nil maps into empty ones, and the next hook and the guard see the result."""

from __future__ import annotations

import copy
from typing import Any

from inspector.hosts.picoclaw.gojson.types import deep_equal


def clone(stage: str, value: dict[str, Any]) -> dict[str, Any]:
    """`value.Clone()` for the stage's params type, made on `value` itself: the caller hands
    over a value it has just decoded, which nothing else holds (a deep copy cost more than the
    decode)."""
    cloned = value
    _clone_context(cloned.get("context"))
    if stage == "before_llm":
        cloned["messages"] = cloned["messages"] or None
        cloned["tools"] = clone_tool_definitions(cloned["tools"])
        cloned["options"] = cloned["options"] or {}
    elif stage == "after_llm":
        response = cloned["response"]
        if response is not None:
            response["tool_calls"] = response["tool_calls"] or None
    else:
        cloned["arguments"] = cloned["arguments"] or {}
    return cloned


def _clone_context(context: dict[str, Any] | None) -> None:
    if context is None:
        return
    inbound = context["inbound"]
    if inbound is not None:
        inbound["reply_handles"] = inbound["reply_handles"] or None
        inbound["raw"] = inbound["raw"] or None
    route = context["route"]
    if route is not None:
        policy = route["SessionPolicy"]
        policy["Dimensions"] = policy["Dimensions"] or None
        links = policy["IdentityLinks"] or None
        policy["IdentityLinks"] = links and {key: ids or [] for key, ids in links.items()}


def clone_tool_definitions(tools: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """cloneToolDefinitions: no tools is nil, and each tool's parameters become a non-nil map."""
    if not tools:
        return None
    cloned = copy.deepcopy(tools)
    for tool in cloned:
        tool["function"]["parameters"] = tool["function"]["parameters"] or {}
    return cloned


def system_messages_unchanged(before: list[Any] | None, after: list[Any] | None) -> bool:
    """llmHookSystemMessagesUnchanged: every system message, with its index, deeply equal."""
    return deep_equal(_system_fingerprints(before), _system_fingerprints(after))


def _system_fingerprints(messages: list[Any] | None) -> list[list[Any]]:
    return [[index, m] for index, m in enumerate(messages or []) if m["role"] == "system"]


def tool_definitions_unchanged(before: list[Any] | None, after: list[Any] | None) -> bool:
    return deep_equal(clone_tool_definitions(before), clone_tool_definitions(after))


def guard_before_llm(current: dict[str, Any], proposed: dict[str, Any]) -> tuple[dict, bool, bool]:
    """applyBeforeLLMControls: the request PicoClaw goes on with, and whether it restored the
    messages (a system message changed) and the tools (a definition changed)."""
    guarded = dict(proposed)
    messages_restored = not system_messages_unchanged(current["messages"], proposed["messages"])
    if messages_restored:
        guarded["messages"] = copy.deepcopy(current["messages"]) or None
    tools_restored = not tool_definitions_unchanged(current["tools"], proposed["tools"])
    if tools_restored:
        guarded["tools"] = clone_tool_definitions(current["tools"])
    return guarded, messages_restored, tools_restored
