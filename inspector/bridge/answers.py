"""The JSON-RPC answers a relayed agent gets: a pipeline outcome in the shape PicoClaw decodes.

PicoClaw treats the relay as one process hook, so the whole chain's outcome becomes one hook's
answer: the value after the chain replaces the agent's object (whole envelopes for after_llm and
after_tool), a stop (respond, deny_tool, aborts) is passed on with its reason."""

from __future__ import annotations

from typing import Any

from inspector.bridge.deadline import FALLBACK
from inspector.pipeline.answers import verdict_label
from inspector.pipeline.results import ApprovalResult, StageResult
from inspector.protocol.jsonrpc import JSONRPC_VERSION
from inspector.protocol.stages import (
    ABORT_TURN,
    CONTINUE,
    DENY_TOOL,
    HARD_ABORT,
    MODIFY,
    RESPOND,
    RESULT_KEY,
)

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
SERVER_ERROR = -32000
HELLO_RESULT = {"ok": True, "name": "hook-inspector"}
STOPS_WITH_REASON = frozenset({DENY_TOOL, ABORT_TURN, HARD_ABORT})


def stage_result(
    stage: str, outcome: StageResult | ApprovalResult, sent: dict[str, Any]
) -> dict[str, Any]:
    """The `result` of the answer to `sent` at `stage`."""
    if isinstance(outcome, ApprovalResult):
        return {"approved": outcome.approved, "reason": outcome.reason}
    if outcome.decided_by == FALLBACK:
        return {"action": CONTINUE}  # without a value PicoClaw keeps the object it sent
    if outcome.action in STOPS_WITH_REASON:
        return {"action": outcome.action, "reason": outcome.reason}
    if outcome.action == RESPOND and outcome.hook_result is not None:
        return {"action": RESPOND, "result": outcome.hook_result}
    # continue, or a respond without a result (PicoClaw then runs the tool as the call says)
    action = CONTINUE if outcome.value == sent else MODIFY
    return {"action": action, RESULT_KEY[stage]: outcome.value}


def fallback_answer(rpc_id: Any, stage: str | None, reason: str) -> dict[str, Any]:
    """The answer for the agent to do what it does with no answer at all, only sooner."""
    if stage is None:
        return error_reply(rpc_id, SERVER_ERROR, reason)
    if stage == "approve_tool":
        return reply(rpc_id, {"approved": False, "reason": reason})
    return reply(rpc_id, {"action": CONTINUE})


def action_of(result: dict[str, Any]) -> str:
    """The action or verdict an answer carries, as the exchange list shows it."""
    if "approved" in result:
        return verdict_label(result["approved"] is True)
    return str(result.get("action", ""))


def reply(rpc_id: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": JSONRPC_VERSION, "id": rpc_id, "result": result}


def error_reply(rpc_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": JSONRPC_VERSION, "id": rpc_id, "error": {"code": code, "message": message}}
