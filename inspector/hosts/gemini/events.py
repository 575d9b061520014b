"""Gemini CLI's hook events, as 0.61.0 has them (packages/core/src/hooks/types.ts, its bundle),
what a matcher is compared with on each, and how several hooks' answers to one event merge
(hookAggregator.ts).

A matcher on BeforeTool and AfterTool is a regular expression searched in the tool's name (a
pattern that does not compile is compared whole); on SessionStart, SessionEnd and PreCompress it
is the exact source, reason or trigger; the other events ignore it. "" and "*" match anything.
"""

from __future__ import annotations

import re

SESSION_START = "SessionStart"
SESSION_END = "SessionEnd"
BEFORE_AGENT = "BeforeAgent"
AFTER_AGENT = "AfterAgent"
BEFORE_MODEL = "BeforeModel"
AFTER_MODEL = "AfterModel"
BEFORE_TOOL_SELECTION = "BeforeToolSelection"
BEFORE_TOOL = "BeforeTool"
AFTER_TOOL = "AfterTool"
PRE_COMPRESS = "PreCompress"
NOTIFICATION = "Notification"

EVENTS = (
    BEFORE_TOOL,
    AFTER_TOOL,
    BEFORE_AGENT,
    NOTIFICATION,
    AFTER_AGENT,
    SESSION_START,
    SESSION_END,
    PRE_COMPRESS,
    BEFORE_MODEL,
    AFTER_MODEL,
    BEFORE_TOOL_SELECTION,
)
TOOL_EVENTS = (BEFORE_TOOL, AFTER_TOOL)
TRIGGER_FIELDS = {SESSION_START: "source", SESSION_END: "reason", PRE_COMPRESS: "trigger"}
MODEL_EVENTS = (BEFORE_MODEL, AFTER_MODEL, BEFORE_TOOL_SELECTION)

# How answers merge: decision by OR (any deny blocks), messages joined; later fields replace
# earlier ones; the tools' union; or a plain merge, later keys over earlier ones.
OR_DECISION = frozenset({BEFORE_TOOL, AFTER_TOOL, BEFORE_AGENT, AFTER_AGENT, SESSION_START})
FIELD_REPLACEMENT = frozenset({BEFORE_MODEL, AFTER_MODEL})
# Events whose decision and continue Gemini CLI acts on: SessionStart, SessionEnd, PreCompress
# and Notification are advisory, and BeforeToolSelection reads only its toolConfig.
DECIDING = frozenset(
    {BEFORE_TOOL, AFTER_TOOL, BEFORE_AGENT, AFTER_AGENT, BEFORE_MODEL, AFTER_MODEL}
)

ALL = ("", "*")


def matches(event: str, matcher: str | None, payload: dict[str, object]) -> bool:
    """Whether a group with `matcher` runs for `event` with `payload`, as hookPlanner.ts says."""
    if matcher is None or matcher.strip() in ALL:
        return True
    pattern = matcher.strip()
    if event in TOOL_EVENTS:
        tool = payload.get("tool_name")
        return _tool_matches(pattern, tool if isinstance(tool, str) else "")
    key = TRIGGER_FIELDS.get(event)
    if key is None:
        return True
    return payload.get(key) == pattern


def filters(event: str) -> bool:
    """Whether `event`'s hooks are chosen by matcher at all."""
    return event in TOOL_EVENTS or event in TRIGGER_FIELDS


def _tool_matches(pattern: str, tool: str) -> bool:
    try:
        return re.search(pattern, tool) is not None
    except re.error:
        return pattern == tool
