"""Stages, methods and actions of the JSON-RPC process-hook protocol (PicoClaw's)."""

from __future__ import annotations

HELLO = "hook.hello"
RUNTIME_EVENT = "hook.runtime_event"
LEGACY_EVENT = "hook.event"  # removed from PicoClaw on 2026-04-26; never sent by a faithful host

STAGES = ("before_llm", "after_llm", "before_tool", "approve_tool", "after_tool")
METHOD_FOR_STAGE = {stage: f"hook.{stage}" for stage in STAGES}
STAGE_FOR_METHOD = {method: stage for stage, method in METHOD_FOR_STAGE.items()}

CONTINUE = "continue"
MODIFY = "modify"
RESPOND = "respond"
DENY_TOOL = "deny_tool"
ABORT_TURN = "abort_turn"
HARD_ABORT = "hard_abort"
ACTIONS = (CONTINUE, MODIFY, RESPOND, DENY_TOOL, ABORT_TURN, HARD_ABORT)

# What each interceptor stage accepts (hooks.go); anything else is discarded with a warning.
ALLOWED_ACTIONS: dict[str, frozenset[str]] = {
    "before_llm": frozenset({CONTINUE, MODIFY, ABORT_TURN, HARD_ABORT}),
    "after_llm": frozenset({CONTINUE, MODIFY, ABORT_TURN, HARD_ABORT}),
    "before_tool": frozenset(ACTIONS),
    "after_tool": frozenset({CONTINUE, MODIFY, ABORT_TURN, HARD_ABORT}),
}

# The key of the result that carries the stage's replacement object.
RESULT_KEY = {
    "before_llm": "request",
    "after_llm": "response",
    "before_tool": "call",
    "after_tool": "result",
}


def normalize_action(raw: object) -> str:
    """An empty or missing action means continue; actions are case-sensitive."""
    if raw is None or raw == "":
        return CONTINUE
    return raw if isinstance(raw, str) else repr(raw)
