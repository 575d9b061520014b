"""j-cli's hook events and HookContext fields, as its code (j-agent, G4) defines them."""

from __future__ import annotations

from inspector.config.model import CommandHookSpec

EVENTS = (
    "session_start",
    "session_end",
    "pre_send_message",
    "post_send_message",
    "pre_llm_request",
    "post_llm_response",
    "pre_tool_execution",
    "post_tool_execution",
    "post_tool_execution_failure",
    "stop",
    "pre_micro_compact",
    "post_micro_compact",
    "pre_auto_compact",
    "post_auto_compact",
)

# HookContext in struct order, which is the order serde writes the keys in.
CONTEXT_FIELDS = (
    "event",
    "messages",
    "system_prompt",
    "model",
    "user_input",
    "assistant_output",
    "tool_name",
    "tool_arguments",
    "tool_result",
    "tool_error",
    "session_id",
    "cwd",
)

LEVELS = ("builtin", "user", "project", "session")  # the order collect_hooks_for_event runs them in

# The events whose call sites fill `tool_name` / `model` (TUI or one-shot): a filter on a field
# its event never carries can never match.
TOOL_EVENTS = frozenset(
    {"pre_tool_execution", "post_tool_execution", "post_tool_execution_failure"}
)
MODEL_EVENTS = frozenset(
    {
        "session_start",  # one-shot only
        "pre_llm_request",
        "post_llm_response",
        "stop",
        "pre_micro_compact",
        "pre_auto_compact",
    }
)


def filter_never_matches(spec: CommandHookSpec) -> str | None:
    """Why the hook's filter cannot match on its event, or None when it can."""
    if (spec.tool_name is not None or spec.tool_matcher is not None) and (
        spec.event not in TOOL_EVENTS
    ):
        key = "tool_name" if spec.tool_name is not None else "tool_matcher"
        return f"filter.{key} on {spec.event}, which carries no tool_name"
    if spec.model_prefix is not None and spec.event not in MODEL_EVENTS:
        return f"filter.model_prefix on {spec.event}, which carries no model"
    return None
