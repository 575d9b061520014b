"""The answer a relayed Codex hook gives Codex: the outcome of the inspector's own Codex hooks (and
of the person), written as one hook's output in the shape Codex 0.171.0 accepts on that event.

hookSpecificOutput always carries the event's own hookEventName (Codex fails an answer without
it). PreToolUse refuses with permissionDecision deny and a reason, and rewrites with allow plus
updatedInput (Codex refuses an allow without it, and ask); PermissionRequest answers
decision.behavior allow or deny; UserPromptSubmit, PostToolUse, Stop and SubagentStop block with
decision "block" and a reason; continue: false only where Codex supports it."""

from __future__ import annotations

import json
from typing import Any

from inspector.hosts.codex.answer import ALLOW, BLOCK, STOP
from inspector.hosts.codex.events import (
    PERMISSION_REQUEST,
    POST_TOOL_USE,
    PRE_TOOL_USE,
    SESSION_START,
    USER_PROMPT_SUBMIT,
)
from inspector.hosts.codex.outcome import CodexOutcome
from inspector.hosts.host import ABSENT, HookOutput

JSONObject = dict[str, Any]

CONTEXT_EVENTS = frozenset({PRE_TOOL_USE, POST_TOOL_USE, USER_PROMPT_SUBMIT, SESSION_START})
_NO_STOP = (PRE_TOOL_USE, PERMISSION_REQUEST)
EDITED_ON = frozenset({PRE_TOOL_USE})  # a held PreToolUse's changed tool_input: updatedInput


def codex_output(outcome: CodexOutcome, edited: JSONObject | None = None) -> HookOutput:
    """`outcome` as one Codex hook's output; `edited` a held PreToolUse's tool_input as the
    person changed it, sent on as updatedInput."""
    event, verdict = outcome.event, outcome.verdict
    output: JSONObject = {}
    specific: JSONObject = {}
    updated = outcome.updated_input if edited is None else edited
    action = verdict
    if event == PRE_TOOL_USE:
        if verdict == BLOCK:
            specific |= {"permissionDecision": "deny", "permissionDecisionReason": outcome.reason}
        elif updated is not None:
            specific |= {"permissionDecision": "allow", "updatedInput": updated}
            action = "modify"
    elif event == PERMISSION_REQUEST and verdict in (ALLOW, BLOCK):
        decision: JSONObject = {"behavior": "allow" if verdict == ALLOW else "deny"}
        if verdict == BLOCK and outcome.reason:
            decision["message"] = outcome.reason
        specific["decision"] = decision
    elif verdict == BLOCK:
        output |= {"decision": "block", "reason": outcome.reason}
    elif verdict == STOP and event not in _NO_STOP:
        output |= {"continue": False, "stopReason": outcome.reason}
    if outcome.context and event in CONTEXT_EVENTS:
        specific["additionalContext"] = "\n".join(outcome.context)
    if specific:
        output["hookSpecificOutput"] = {"hookEventName": event, **specific}
    if outcome.system_messages:
        output["systemMessage"] = "\n".join(outcome.system_messages)
    if not output:
        return ABSENT
    return HookOutput(
        stdout=json.dumps(output, separators=(",", ":"), ensure_ascii=False), action=action
    )
