"""What a live PicoClaw gets back through the relay: the relay is one process hook to PicoClaw,
so the whole chain behind it (the session's own hooks, run by PicoClaw's pipeline) answers as
one hook, within the one deadline PicoClaw gives that hook.

A changed value replaces the agent's object (whole envelopes for after_llm and after_tool), an
unchanged one is a bare continue, a stop (respond, deny_tool, aborts) is passed on with its
reason. Past the deadline the agent gets what it would do with no answer: interceptors continue
with the value unchanged, approvals deny; requests still held then are dropped."""

from __future__ import annotations

from functools import partial
from typing import Any

from inspector.hosts.after_answer import after_answer
from inspector.hosts.deadline import FALLBACK, CallDeadline
from inspector.hosts.host import HookOutput, Relayed
from inspector.hosts.picoclaw.answers import verdict_label
from inspector.hosts.picoclaw.chain import Pipeline
from inspector.hosts.picoclaw.codes import finding
from inspector.hosts.picoclaw.gojson.decode import GoDecodeError
from inspector.hosts.picoclaw.relay_deadline import (
    ChainOutcome,
    DeadlineHook,
    deadline_record,
    within_deadline,
)
from inspector.hosts.picoclaw.results import ApprovalResult, StageResult
from inspector.hosts.picoclaw.runtime import PicoClawRuntime
from inspector.journal.journal import Journal
from inspector.journal.records import (
    Exchange,
    Finding,
)
from inspector.jsonrpc.framing import PICOCLAW_MAX_LINE
from inspector.jsonrpc.messages import JSONRPC_VERSION, go_json
from inspector.jsonrpc.stages import (
    CONTINUE,
    HELLO,
    MODIFY,
    RESPOND,
    RESULT_KEY,
    STAGE_FOR_METHOD,
)
from inspector.pipeline.gate import GatedHook

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
SERVER_ERROR = -32000
HELLO_RESULT = {"ok": True, "name": "hook-inspector"}


async def relay_output(runtime: PicoClawRuntime, relayed: Relayed) -> HookOutput:
    """The answer to one JSON-RPC request from the relay (`relayed.payload` is the request)."""
    message = relayed.payload
    rpc_id, params = message.get("id"), message.get("params")
    stage = STAGE_FOR_METHOD.get(relayed.event)
    if relayed.event == HELLO:
        return _output(reply(rpc_id, HELLO_RESULT))
    if stage is None or relayed.deadline is None:
        return _output(error_reply(rpc_id, METHOD_NOT_FOUND, "method not found"))
    if not isinstance(params, dict):
        return _output(error_reply(rpc_id, INVALID_PARAMS, "params is not an object"))
    try:
        outcome = await _through_chain(runtime, relayed, stage, params, relayed.deadline)
    except GoDecodeError as error:  # PicoClaw sends only what its structs hold; a stand-in may not
        reason = f"params PicoClaw's structs cannot hold: {error}"
        return _output(error_reply(rpc_id, INVALID_PARAMS, reason))
    answer, found = stage_reply(rpc_id, stage, outcome)
    if relayed.call is not None:
        settle = partial(_settle, runtime.journal, relayed.call, relayed.deadline, outcome, found)
        after_answer(settle)
    return _output(answer)


def unanswered(relayed: Relayed, reason: str) -> HookOutput:
    """What the agent does with no answer, sooner: the inspector gave up on the call."""
    stage = STAGE_FOR_METHOD.get(relayed.event)
    return _output(fallback_answer(relayed.payload.get("id"), stage, reason))


def _output(answer: dict[str, Any]) -> HookOutput:
    result = answer.get("result")
    action = action_of(result) if isinstance(result, dict) else ""
    return HookOutput(action=action, result=answer)


def _settle(
    journal: Journal,
    call: Exchange,
    deadline: CallDeadline,
    outcome: ChainOutcome,
    found: list[Finding],
) -> None:
    """How the call spent the agent's deadline, and what its answer was found to be."""
    settled = deadline_record(deadline, outcome)
    findings = [*call.findings, *settled.pop("findings"), *found]
    journal.amend(call, **settled, findings=findings)


async def _through_chain(
    runtime: PicoClawRuntime,
    relayed: Relayed,
    stage: str,
    params: dict[str, Any],
    deadline: CallDeadline,
) -> ChainOutcome:
    """The stage through the session's gate and hooks, decided by `deadline.answer_by` whatever
    they do."""
    journal, gate = runtime.journal, runtime.gate
    pipeline = Pipeline(
        journal,
        runtime.config.defaults,
        lambda: [GatedHook(DeadlineHook(hook, journal), gate) for hook in runtime.hooks.values()],
        entry=gate.enter_stage,
    )
    run = pipeline.approve_tool if stage == "approve_tool" else getattr(pipeline, stage)
    turn = relayed.turn
    return await within_deadline(
        journal,
        deadline,
        stage,
        params,
        run(params, source=relayed.source, turn=turn or ""),
        source=relayed.source,
        turn=turn,
    )


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
