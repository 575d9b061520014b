"""The JSON-RPC answers a relayed agent gets: a pipeline outcome in the shape PicoClaw decodes.

PicoClaw treats the relay as one process hook, so the whole chain's outcome becomes one hook's
answer: a changed value replaces the agent's object (whole envelopes for after_llm and
after_tool), an unchanged one is a bare continue, a stop (respond, deny_tool, aborts) is passed on
with its reason."""

from __future__ import annotations

from typing import Any

from inspector.bridge.deadline import FALLBACK
from inspector.hosts.picoclaw.answers import verdict_label
from inspector.pipeline.results import ApprovalResult, StageResult
from inspector.protocol.finding import Finding
from inspector.protocol.findings import finding
from inspector.protocol.framing import PICOCLAW_MAX_LINE
from inspector.protocol.jsonrpc import JSONRPC_VERSION, go_json
from inspector.protocol.stages import (
    CONTINUE,
    MODIFY,
    RESPOND,
    RESULT_KEY,
)

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
SERVER_ERROR = -32000
HELLO_RESULT = {"ok": True, "name": "hook-inspector"}


def stage_result(stage: str, outcome: StageResult | ApprovalResult) -> dict[str, Any]:
    """The `result` of the answer at `stage`: as little as says what the chain decided."""
    if isinstance(outcome, ApprovalResult):
        return {"approved": outcome.approved, "reason": outcome.reason}
    if outcome.decided_by == FALLBACK:
        return {"action": CONTINUE}  # without a value PicoClaw keeps the object it sent
    if outcome.action == CONTINUE:
        if not outcome.changed:
            return {"action": CONTINUE}  # nothing to send back: a big object would only cost
        return {"action": MODIFY, RESULT_KEY[stage]: outcome.value}
    # A stop: PicoClaw keeps its reason (a respond without a result too) and the object as the
    # stopping hook left it, so a changed one goes back with it.
    answer: dict[str, Any] = {"action": outcome.action, "reason": outcome.reason}
    if outcome.action == RESPOND and outcome.hook_result is not None:
        answer["result"] = outcome.hook_result
    if outcome.changed:
        answer[RESULT_KEY[stage]] = outcome.value
    return answer


def stage_reply(
    rpc_id: Any, stage: str, outcome: StageResult | ApprovalResult
) -> tuple[dict[str, Any], list[Finding]]:
    """The whole answer, and why it is the fallback when the chain's answer is a line PicoClaw
    cannot read: its reader stops for good at 1 MiB, and every later call would time out."""
    answer = reply(rpc_id, stage_result(stage, outcome))
    size = len(go_json(answer).encode("utf-8", "backslashreplace")) + 1
    if size <= PICOCLAW_MAX_LINE:
        return answer, []
    message = (
        f"the chain's answer is a line of {size:,} bytes, over PicoClaw's "
        f"{PICOCLAW_MAX_LINE:,}; the agent got the fallback, which keeps its object as it was"
    )
    return fallback_answer(rpc_id, stage, message), [finding("answer-too-long", message)]


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
