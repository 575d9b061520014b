"""Codex's hook events (read from codex-cli 0.171.0: the input schemas its binary carries) and how
its matchers pick hooks.

Which field a matcher is tested against depends on the event; UserPromptSubmit and Stop ignore
the matcher (every hook runs). A matcher that is missing, "" or "*" matches everything; any other
is a regular expression that must match the whole value (seen with 0.171.0: "Ba" and "as" pick
no Bash hook, "B.*", "Bas." and "Bash|Write" do; the names are case-sensitive).
"""

from __future__ import annotations

import re

SESSION_START = "SessionStart"
USER_PROMPT_SUBMIT = "UserPromptSubmit"
PRE_TOOL_USE = "PreToolUse"
PERMISSION_REQUEST = "PermissionRequest"
POST_TOOL_USE = "PostToolUse"
PRE_COMPACT = "PreCompact"
POST_COMPACT = "PostCompact"
SUBAGENT_START = "SubagentStart"
SUBAGENT_STOP = "SubagentStop"
STOP = "Stop"
SESSION_END = "SessionEnd"
INTERRUPT = "Interrupt"

EVENTS: tuple[str, ...] = (
    SESSION_START,
    USER_PROMPT_SUBMIT,
    PRE_TOOL_USE,
    PERMISSION_REQUEST,
    POST_TOOL_USE,
    PRE_COMPACT,
    POST_COMPACT,
    SUBAGENT_START,
    SUBAGENT_STOP,
    STOP,
    SESSION_END,
    INTERRUPT,
)

# The order Codex lists one file's hooks in (its HookEventsToml's fields), whatever the file's
# own order: their display order, the order it combines answers in, counts through it.
DISPLAY_ORDER: tuple[str, ...] = (
    PRE_TOOL_USE,
    PERMISSION_REQUEST,
    POST_TOOL_USE,
    PRE_COMPACT,
    POST_COMPACT,
    SESSION_START,
    USER_PROMPT_SUBMIT,
    SUBAGENT_START,
    SUBAGENT_STOP,
    STOP,
    SESSION_END,
    INTERRUPT,
)

# The payload field each event's matcher is tested against; events not here ignore matchers.
MATCH_FIELDS = {
    PRE_TOOL_USE: "tool_name",
    PERMISSION_REQUEST: "tool_name",
    POST_TOOL_USE: "tool_name",
    SESSION_START: "source",
    PRE_COMPACT: "trigger",
    POST_COMPACT: "trigger",
    SUBAGENT_START: "agent_type",
    SUBAGENT_STOP: "agent_type",
}

# Events whose hook may answer {"decision": "block", "reason": ...} or exit 2 to block.
BLOCKING_EVENTS = frozenset({USER_PROMPT_SUBMIT, PRE_TOOL_USE, POST_TOOL_USE, STOP, SUBAGENT_STOP})

# The shell tool's names: the model calls exec_command, hooks see Bash.
SHELL_TOOL = "Bash"
MODEL_SHELL_TOOL = "exec_command"

DEFAULT_TIMEOUT_S = 600  # a handler's timeout when it sets none; at least 1


def is_match_all(matcher: str | None) -> bool:
    return matcher is None or matcher in ("", "*")


def matcher_error(matcher: str) -> str | None:
    """Why Codex refuses `matcher` (it skips the group with a warning), or None."""
    if is_match_all(matcher):
        return None
    try:
        re.compile(matcher)
    except re.error as error:
        return f"invalid matcher {matcher!r}: {error}"
    return None


def matches(matcher: str | None, value: str) -> bool:
    if is_match_all(matcher):
        return True
    assert matcher is not None
    try:
        return re.fullmatch(matcher, value) is not None
    except re.error:
        return False
