"""The chain behind a relayed PicoClaw call, held to the one deadline PicoClaw gives the relay:
every hook's timeout is cut to what is left of it, each hook's share is noted, and past it the
agent gets what it would do with no answer (interceptors continue, approvals deny)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

from inspector.hosts.deadline import CALL_DEADLINE, DEADLINE_CODE, FALLBACK, CallDeadline
from inspector.hosts.picoclaw.answers import DENIED
from inspector.hosts.picoclaw.kinder_than_picoclaw import kinder_findings
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.hosts.picoclaw.results import ApprovalResult, StageResult
from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_CANCELLED,
    STATUS_DROPPED,
    STATUS_HELD,
    Decision,
    Exchange,
    Finding,
    Record,
)
from inspector.jsonrpc.stages import CONTINUE
from inspector.pipeline.hook import Hook

ChainOutcome = StageResult | ApprovalResult
NO_ANSWER = "Without an answer it would skip the relay (interceptors) or deny (approvals) anyway"


def deadline_record(deadline: CallDeadline, outcome: ChainOutcome) -> dict[str, Any]:
    """What to write onto the exchange the agent received: how the chain spent `deadline`, and
    the findings on what PicoClaw's own host would not have done."""
    found = []
    if outcome.decided_by == FALLBACK:
        found.append(Finding(DEADLINE_CODE, "warning", deadline.passed(), NO_ANSWER))
    for hook in deadline.cut_short:
        message = (
            f'hook "{hook}" was cut short by {deadline.describe()}, the one deadline PicoClaw '
            "gives the relay for the whole chain behind it"
        )
        found.append(Finding(DEADLINE_CODE, "warning", message))
    found.extend(deadline.kinder)
    return {"deadline_ms": deadline.agent_ms, "deadline_use": deadline.use, "findings": found}


class DeadlineHook:
    """A hook whose timeout never runs past the current relayed call's deadline: a manual hook's
    prompt counts down to the earlier of its own timeout and the agent's (less the margins)."""

    def __init__(self, inner: Hook, journal: Journal) -> None:
        self.inner = inner
        self.journal = journal
        self.spec = inner.spec

    @property
    def name(self) -> str:
        return self.inner.name

    async def call(
        self,
        method: str,
        params: Any,
        *,
        timeout_ms: int,
        source: str,
        turn: str | None = None,
        exchange: Exchange | None = None,
    ) -> Exchange:
        deadline = CALL_DEADLINE.get()
        cut_ms = timeout_ms if deadline is None else min(timeout_ms, deadline.hooks_left_ms())
        crashed_before = self.crashes
        started = time.monotonic()
        answered = await self.inner.call(
            method, params, timeout_ms=cut_ms, source=source, turn=turn, exchange=exchange
        )
        finished = time.monotonic()
        if deadline is None:
            return answered
        deadline.note_use(self.name, started, finished)
        deadline.kinder.extend(kinder_findings(self.name, answered, crashed_before))
        ran_out = finished - started >= cut_ms / 1000
        if cut_ms < timeout_ms and ran_out:
            deadline.cut_short.append(self.name)
            message = f"cut short by {deadline.describe()}: {cut_ms} ms of its {timeout_ms} ms"
            self.journal.add_findings(answered, Finding(DEADLINE_CODE, "warning", message))
        return answered

    @property
    def crashes(self) -> int:
        return self.inner.crashes if isinstance(self.inner, ProcessHook) else 0

    async def notify(self, method: str, params: Any) -> str | None:
        return await self.inner.notify(method, params)


async def within_deadline(
    journal: Journal,
    deadline: CallDeadline,
    stage: str,
    params: dict[str, Any],
    run: Coroutine[Any, Any, ChainOutcome],
    *,
    source: str,
    turn: str | None,
) -> ChainOutcome:
    """`run`'s outcome, or by `deadline.answer_by` the agent's own fallback: interceptors continue
    with the value unchanged, approvals deny. Requests still held then are dropped."""

    def note_held(record: Record, new: bool) -> None:
        if (
            new
            and isinstance(record, Exchange)
            and record.status == STATUS_HELD
            and CALL_DEADLINE.get() is deadline
        ):
            deadline.held.append(record)
            # Set in place, not amended: the journal is telling its subscribers of this record
            # right now, and an amend would reach the later ones before the append does.
            record.deadline = time.time() + deadline.left_s()
            message = (
                f"held against {deadline.describe()}: {deadline.left_s():.2f} s left to answer; "
                "then it is dropped and the agent gets the fallback answer"
            )
            record.findings.append(Finding(DEADLINE_CODE, "info", message))

    unsubscribe = journal.subscribe(note_held)
    reset = CALL_DEADLINE.set(deadline)
    try:
        async with asyncio.timeout(deadline.left_s()):  # no task of its own, unlike wait_for
            outcome = await run
    except TimeoutError:
        return _fallback(journal, deadline, stage, params, source=source, turn=turn)
    finally:
        CALL_DEADLINE.reset(reset)
        unsubscribe()
    return outcome


def _fallback(
    journal: Journal,
    deadline: CallDeadline,
    stage: str,
    params: dict[str, Any],
    *,
    source: str,
    turn: str | None,
) -> ChainOutcome:
    approval = stage == "approve_tool"
    for exchange in deadline.held:
        if exchange.status == STATUS_CANCELLED:  # the gate let go of it when the call was cancelled
            error = f"dropped: still held when the deadline passed ({deadline.describe()})"
            journal.amend(exchange, status=STATUS_DROPPED, error=error)
    tool = params.get("tool")
    journal.append(
        Decision(
            stage=stage,
            verdict=DENIED if approval else CONTINUE,
            by=FALLBACK,
            reason=deadline.passed(),
            source=source,
            turn=turn,
            tool=tool if isinstance(tool, str) else None,
        )
    )
    if approval:
        # PicoClaw's own words when the relay does not answer in time
        reason = f'tool approval hook "{deadline.relay}" timed out'
        return ApprovalResult(False, reason, decided_by=FALLBACK)
    return StageResult(CONTINUE, params, reason=deadline.passed(), decided_by=FALLBACK)
