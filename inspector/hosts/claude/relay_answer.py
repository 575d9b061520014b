"""The answer a relayed Claude Code hook gives Claude Code: the outcome of the inspector's own
Claude Code hooks (and of the person), written as one hook's output in exactly the shape Claude
Code reads.

Claude Code validates `hookSpecificOutput` against the event it ran the hook for: a missing or
wrong `hookEventName` voids the whole output (the tool runs), so it is always the event's own.
PreToolUse says `permissionDecision`, `permissionDecisionReason` and `updatedInput`;
PermissionRequest says `decision: {behavior, message, updatedInput}`; the events that read a
block say `decision: "block"` with a `reason`."""

from __future__ import annotations

import json
from typing import Any

from inspector.hosts.claude.answer import ALLOW, ASK, BLOCK, CONTINUE, DEFER, DENY, STOP
from inspector.hosts.claude.events import (
    DECISION_BLOCK_EVENTS,
    PERMISSION_REQUEST,
    POST_TOOL_USE,
    POST_TOOL_USE_FAILURE,
    PRE_TOOL_USE,
    SESSION_START,
    USER_PROMPT_SUBMIT,
)
from inspector.hosts.claude.outcome import EventOutcome
from inspector.hosts.host import ABSENT, HookOutput

JSONObject = dict[str, Any]

# The events whose hookSpecificOutput carries additionalContext for Claude.
CONTEXT_EVENTS = frozenset(
    {PRE_TOOL_USE, POST_TOOL_USE, POST_TOOL_USE_FAILURE, USER_PROMPT_SUBMIT, SESSION_START}
)
_PERMISSION_DECISIONS = frozenset({ALLOW, DENY, ASK, DEFER})
# The held events whose tool_input, as a person changed it, goes on as updatedInput.
EDITED_ON = frozenset({PRE_TOOL_USE, PERMISSION_REQUEST})


def claude_output(outcome: EventOutcome, edited_input: JSONObject | None = None) -> HookOutput:
    """`outcome` as one Claude Code hook's output; `edited_input` is a held PreToolUse's
    tool_input as the person changed it, sent on as updatedInput."""
    event = outcome.event
    output: JSONObject = {}
    blocks_the_tool = event in (PRE_TOOL_USE, PERMISSION_REQUEST)
    verdict = DENY if outcome.verdict == BLOCK and blocks_the_tool else outcome.verdict
    if verdict == STOP:
        output |= {"continue": False, "stopReason": outcome.reason}
    specific: JSONObject = {}
    updated = outcome.updated_input if edited_input is None else edited_input
    if event == PRE_TOOL_USE:
        if verdict in _PERMISSION_DECISIONS:
            specific["permissionDecision"] = verdict
            if outcome.reason:
                specific["permissionDecisionReason"] = outcome.reason
        if updated is not None and verdict not in (DENY, STOP):
            specific["updatedInput"] = updated
    elif event == PERMISSION_REQUEST and verdict in (ALLOW, DENY):
        decision: JSONObject = {"behavior": verdict}
        if verdict == DENY and outcome.reason:
            decision["message"] = outcome.reason
        if verdict == ALLOW and updated is not None:
            decision["updatedInput"] = updated
        specific["decision"] = decision
    elif verdict == BLOCK and event in DECISION_BLOCK_EVENTS:
        output |= {"decision": "block", "reason": outcome.reason}
    if outcome.context and event in CONTEXT_EVENTS:
        specific["additionalContext"] = "\n".join(outcome.context)
    if specific:
        output["hookSpecificOutput"] = {"hookEventName": event, **specific}
    if outcome.messages:
        output["systemMessage"] = "\n".join(outcome.messages)
    if not output:
        return ABSENT
    action = verdict if verdict != CONTINUE or updated is None else "modify"
    return HookOutput(stdout=compact(output), action=action)


def compact(value: JSONObject) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
