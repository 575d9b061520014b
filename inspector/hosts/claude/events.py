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

# The settings reader knows the events of every release in EVENTS_BY_VERSION; what else differs
# between releases, for the emulation, is versions.py's.

_EVENTS_2_1_197 = (
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
_EVENTS_2_1_332 = (
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
    "PreModelSwitch",
    "PostModelSwitch",
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
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
)

# Every hook event name each known Claude Code release knows, in its own order, as read from its
# program (tests/real_agents/test_claude_emulation_events.py reads them again from the installed
# CLIs). Oldest first; the last is the newest known.
EVENTS_BY_VERSION: dict[str, tuple[str, ...]] = {
    "2.1.197": _EVENTS_2_1_197,
    "2.1.332": _EVENTS_2_1_332,
}
NEWEST_VERSION = next(reversed(EVENTS_BY_VERSION))

# The names a settings file may use: the newest known release's. A name outside them still loads
# (its hooks listed, disabled, with a warning naming it), as Claude Code loads it; the turn runner
# fires those a `claude -p` session fires.
EVENTS = EVENTS_BY_VERSION[NEWEST_VERSION]


TOOL_EVENTS = frozenset(
    {PRE_TOOL_USE, PERMISSION_REQUEST, "PermissionDenied", POST_TOOL_USE, POST_TOOL_USE_FAILURE}
)

# The stdin field a matcher is tested against (2.1.197; 2.1.332's new events as its program reads
# them, the model switches matching the canonical name of to_model). Tool events match the tool
# name; the others listed match the field named. FileChanged matches the changed file's base name
# (not emulated). Any other event runs all its hooks whatever the matcher.
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
    "PreModelSwitch": "to_model",
    "PostModelSwitch": "to_model",
    "DirectoryAdded": "source",
    "PreSkillShellCommand": "tool_name",
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
