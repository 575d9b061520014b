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

CLI_VERSION = "2.1.197"  # the Claude Code release these lists were read from

# Every hook event name Claude Code 2.1.197 knows, in its own order. Config files may name any of
# them (an unknown name loads too, with a finding); the turn runner fires those a `claude -p`
# session fires.
EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "MessageDisplay",
)

TOOL_EVENTS = frozenset(
    {PRE_TOOL_USE, PERMISSION_REQUEST, "PermissionDenied", POST_TOOL_USE, POST_TOOL_USE_FAILURE}
)

# The stdin field a matcher is tested against (2.1.197). Tool events match the tool name; the
# others listed match the field named. FileChanged matches the changed file's base name (not
# emulated). Any other event runs all its hooks whatever the matcher.
MATCH_FIELDS: dict[str, str] = {
    **dict.fromkeys(TOOL_EVENTS, "tool_name"),
    "UserPromptExpansion": "command_name",
    SESSION_START: "source",
    "Setup": "trigger",
    "PreCompact": "trigger",
    "PostCompact": "trigger",
    "Notification": "notification_type",
    "SessionEnd": "reason",
    "StopFailure": "error",
    "SubagentStart": "agent_type",
    SUBAGENT_STOP: "agent_type",
    "Elicitation": "mcp_server_name",
    "ElicitationResult": "mcp_server_name",
    "ConfigChange": "source",
    "InstructionsLoaded": "load_reason",
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
