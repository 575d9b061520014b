"""Claude Code's hook events, and how a hook's `matcher` picks the occurrences it runs for."""

from __future__ import annotations

import re

PRE_TOOL_USE = "PreToolUse"
POST_TOOL_USE = "PostToolUse"
POST_TOOL_USE_FAILURE = "PostToolUseFailure"
PERMISSION_REQUEST = "PermissionRequest"
USER_PROMPT_SUBMIT = "UserPromptSubmit"
STOP = "Stop"
SUBAGENT_STOP = "SubagentStop"
SESSION_START = "SessionStart"

# Every event Claude Code's hook reference lists. Config files may name any of them; the turn
# runner fires UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure and Stop.
EVENTS = (
    "SessionStart",
    "Setup",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "Stop",
    "StopFailure",
    "TeammateIdle",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "Elicitation",
    "ElicitationResult",
    "WorktreeCreate",
    "WorktreeRemove",
    "ConfigChange",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
)

TOOL_EVENTS = frozenset(
    {PRE_TOOL_USE, PERMISSION_REQUEST, "PermissionDenied", POST_TOOL_USE, POST_TOOL_USE_FAILURE}
)

# The stdin field a matcher is tested against. Tool events match the tool name; the others listed
# match what the reference names for them. Any other event runs all its hooks whatever the matcher.
MATCH_FIELDS: dict[str, str] = {
    **dict.fromkeys(TOOL_EVENTS, "tool_name"),
    SESSION_START: "source",
    "SessionEnd": "reason",
    "PreCompact": "trigger",
    "PostCompact": "trigger",
    "Notification": "notification_type",
    "SubagentStart": "agent_type",
    SUBAGENT_STOP: "agent_type",
}

# Plain (non-JSON) stdout on exit 0 is added to Claude's context only for these.
STDOUT_IS_CONTEXT = frozenset({USER_PROMPT_SUBMIT, SESSION_START})

# Exit 2 sends stderr to Claude for these (blocking the action where there is one to block); for
# any other event it only shows stderr to the user.
EXIT_2_REACHES_CLAUDE = frozenset(
    {
        PRE_TOOL_USE,
        PERMISSION_REQUEST,
        USER_PROMPT_SUBMIT,
        STOP,
        SUBAGENT_STOP,
        POST_TOOL_USE,
        POST_TOOL_USE_FAILURE,
    }
)

# Events whose top-level `decision: "block"` + `reason` means something.
DECISION_BLOCK_EVENTS = frozenset({USER_PROMPT_SUBMIT, POST_TOOL_USE, STOP, SUBAGENT_STOP})

PERMISSION_DECISIONS = ("allow", "deny", "ask", "defer")

_LITERAL = re.compile(r"[A-Za-z0-9_|]+")


def matcher_error(matcher: str) -> str | None:
    """Why Python cannot use this matcher as a regex, or None when it can (or is literal)."""
    if is_match_all(matcher) or _LITERAL.fullmatch(matcher):
        return None
    try:
        re.compile(matcher)
    except re.error as error:
        return f"invalid regex: {error}"
    return None


def is_match_all(matcher: str | None) -> bool:
    return matcher in (None, "", "*")


def matches(matcher: str | None, value: str) -> bool:
    """Claude Code's rule: empty or `*` matches all; letters, digits, `_` and `|` are an exact
    name or a `|` list; anything else is a regex searched anywhere in the value (JS
    `RegExp.test`). Case-sensitive."""
    if is_match_all(matcher):
        return True
    assert matcher is not None
    if _LITERAL.fullmatch(matcher):
        return value in matcher.split("|")
    try:
        return re.search(matcher, value) is not None
    except re.error:
        return False  # the config loader rejects these; a hand-built spec just never matches
