"""How PicoClaw's host reads one hook's answer at one stage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.journal.records import STATUS_DROPPED, STATUS_OK, STATUS_TIMEOUT, Exchange
from inspector.protocol.stages import (
    ALLOWED_ACTIONS,
    CONTINUE,
    DENY_TOOL,
    RESPOND,
    RESULT_KEY,
    normalize_action,
)

SKIPPED = "skipped"  # an interceptor that failed: PicoClaw skips it and goes on (fail open)
DISCARDED = "discarded"  # an action the stage does not accept: output dropped, chain goes on
APPROVED = "approved"
DENIED = "denied"


@dataclass(slots=True)
class Answer:
    """One interceptor's answer as the host applies it."""

    action: str  # as the hook said it (modify and continue act alike), or SKIPPED / DISCARDED
    value: dict[str, Any] | None = None  # the replacement object, None for no change
    reason: str = ""
    hook_result: dict[str, Any] | None = None  # a before_tool ToolResult (respond)


def read_interceptor_answer(stage: str, exchange: Exchange, sent: dict[str, Any]) -> Answer:
    if exchange.status != STATUS_OK:
        return Answer(SKIPPED, reason=exchange.error or exchange.status)
    result = (exchange.response or {}).get("result")
    if result is None:
        return Answer(CONTINUE)  # PicoClaw decodes into a zero value: no change
    undecodable = _undecodable(result, stage)
    if undecodable:
        return Answer(SKIPPED, reason=f"decode {stage} result: {undecodable}")
    action = normalize_action(result.get("action"))
    reason = result.get("reason") or ""
    if action not in ALLOWED_ACTIONS[stage]:
        return Answer(DISCARDED, reason=f"action {action!r} is not accepted at {stage}")
    replacement = result.get(RESULT_KEY[stage])
    value = replacement if replacement is not None else sent
    hook_result = None
    if stage == "before_tool":
        value = dict(value)
        carried = result.get("result")
        if isinstance(carried, dict):
            value["hook_result"] = carried
        hook_result = (
            value.get("hook_result") if isinstance(value.get("hook_result"), dict) else None
        )
    if action == DENY_TOOL:
        value = sent  # deny_tool keeps the call as it came in
    return Answer(action, value=value, reason=reason, hook_result=hook_result)


def read_approval_answer(exchange: Exchange) -> tuple[bool, str]:
    """Approvals fail closed: only an explicit "approved": true lets the tool run."""
    if exchange.status in (STATUS_TIMEOUT, STATUS_DROPPED):  # a dropped request never answers
        return False, f'tool approval hook "{exchange.hook}" timed out'
    if exchange.status != STATUS_OK:
        return False, f'tool approval hook "{exchange.hook}" failed'
    result = (exchange.response or {}).get("result")
    if result is None:
        return False, ""
    approved = result.get("approved")
    reason = result.get("reason")
    if not isinstance(approved, (bool, type(None))) or not isinstance(reason, (str, type(None))):
        return False, f'tool approval hook "{exchange.hook}" failed'
    return approved is True, reason or ""


def _undecodable(result: dict[str, Any], stage: str) -> str:
    """Why Go's strict typed decode would reject this result, or "" when it would not."""
    for key in ("action", "reason"):
        if not isinstance(result.get(key), (str, type(None))):
            return f"{key} is not a string"
    keys = [RESULT_KEY[stage]] + (["result"] if stage == "before_tool" else [])
    for key in keys:
        if not isinstance(result.get(key), (dict, type(None))):
            return f"{key} is not an object"
    return ""


def verdict_label(approved: bool) -> str:
    return APPROVED if approved else DENIED


def label_for(answer: Answer) -> str:
    if answer.action == RESPOND and answer.hook_result is None:
        return "respond (no result)"
    return answer.action


def host_reading(stage: str, exchange: Exchange, sent: dict[str, Any]) -> str:
    """The action or verdict the host takes from one answer, as the exchange list shows it."""
    if stage == "approve_tool":
        return verdict_label(read_approval_answer(exchange)[0])
    return label_for(read_interceptor_answer(stage, exchange, sent))
