"""A relayed call's deadline: the agent stops waiting after its own timeout, so every hook, hold
and human prompt the call reaches must end in time for the inspector to answer first.

The deadline travels in a context variable, as APPROVAL_CHAIN does: asyncio copies it into the
call's tasks, the Hook protocol stays unchanged and concurrent calls never mix their deadlines.
Journal subscribers run in the task that appends, so a request held at the gate during the call
can be tied to it (and dropped when the deadline comes) without the gate knowing about relays."""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inspector.bridge.kinder_than_picoclaw import kinder_findings
from inspector.hosts.picoclaw.answers import DENIED
from inspector.hosts.picoclaw.pipeline import Pipeline
from inspector.hosts.picoclaw.process import ProcessHook
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
from inspector.pipeline.gate import GatedHook
from inspector.pipeline.hook import Hook
from inspector.pipeline.results import ApprovalResult, StageResult
from inspector.protocol.stages import CONTINUE, STAGE_FOR_METHOD
from inspector.relay.wire import answer_by_ms

if TYPE_CHECKING:
    from inspector.engine import Engine

# Room for the hop back to the relay, and then again for the pipeline to finish after its hooks
# are cut off: 5 % of the agent's deadline, between 10 and 100 ms.
MARGIN_FRACTION = 0.05
MARGIN_S = (0.01, 0.1)
FALLBACK = "deadline"  # decided_by / Decision.by of an answer the deadline forced
DEADLINE_CODE = "agent-deadline"
NO_ANSWER = "Without an answer it would skip the relay (interceptors) or deny (approvals) anyway"

ChainOutcome = StageResult | ApprovalResult


@dataclass(slots=True)
class CallDeadline:
    """The agent gives up `agent_ms` after it sent the request, and the relay answers by itself a
    little earlier (wire.answer_by_ms). We answer by `answer_by`, a margin before the relay; hooks
    and humans are cut off at `hooks_by`, a margin earlier still, so their own timeout rule (fail
    open, fail closed, a manual hook's on_timeout) decides rather than our fallback."""

    agent_ms: int
    kind: str  # "interceptor" or "approval": which of the agent's deadlines this is
    received: float = field(default_factory=time.monotonic)
    relay: str = ""  # the name PicoClaw knows the relay by
    held: list[Exchange] = field(default_factory=list)  # requests of this call held at the gate
    cut_short: list[str] = field(default_factory=list)  # hooks the deadline stopped waiting for
    use: list[dict[str, Any]] = field(default_factory=list)  # each hook's share, in chain order
    # what the agent's answer owes to the inspector being kinder than PicoClaw
    kinder: list[Finding] = field(default_factory=list)

    @property
    def margin_s(self) -> float:
        low, high = MARGIN_S
        return max(low, min(high, self.agent_ms / 1000 * MARGIN_FRACTION))

    @property
    def answer_by(self) -> float:
        return self.received + answer_by_ms(self.agent_ms) / 1000 - self.margin_s

    @property
    def hooks_by(self) -> float:
        return self.answer_by - self.margin_s

    def left_s(self) -> float:
        """Time left to answer the agent: a held request's countdown."""
        return max(0.0, self.answer_by - time.monotonic())

    def hooks_left_ms(self) -> int:
        return max(0, int((self.hooks_by - time.monotonic()) * 1000))

    def describe(self) -> str:
        return f"the agent's {self.agent_ms} ms {self.kind} deadline"

    def passed(self) -> str:
        return f"deadline passed: hook-inspector's hooks did not answer within {self.describe()}"

    def note_use(self, hook: str, started: float, finished: float) -> None:
        left_ms = max(0.0, (self.hooks_by - finished) * 1000)
        used = {"hook": hook, "used_ms": _ms(finished - started), "left_ms": round(left_ms, 3)}
        self.use.append(used)

    def settled(self, outcome: ChainOutcome) -> dict[str, Any]:
        """What to write onto the exchange the agent received: how the chain spent this
        deadline, and the findings on what PicoClaw's own host would not have done."""
        found = []
        if outcome.decided_by == FALLBACK:
            found.append(Finding(DEADLINE_CODE, "warning", self.passed(), NO_ANSWER))
        for hook in self.cut_short:
            message = (
                f'hook "{hook}" was cut short by {self.describe()}, the one deadline PicoClaw '
                "gives the relay for the whole chain behind it"
            )
            found.append(Finding(DEADLINE_CODE, "warning", message))
        found.extend(self.kinder)
        return {"deadline_ms": self.agent_ms, "deadline_use": self.use, "findings": found}


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def deadline_summary(exchange: Exchange) -> str | None:
    """One line per hook: its share of a relayed call's deadline, and what it left."""
    if exchange.deadline_ms is None or exchange.deadline_use is None:
        return None
    lines = [f"the agent's {exchange.deadline_ms} ms {_kind(exchange.method)} deadline"]
    for use in exchange.deadline_use:
        lines.append(f"  {use['hook']} used {use['used_ms']:.1f} ms, left {use['left_ms']:.0f} ms")
    return "\n".join(lines)


def _kind(method: str) -> str:
    return "approval" if STAGE_FOR_METHOD.get(method) == "approve_tool" else "interceptor"


CALL_DEADLINE: contextvars.ContextVar[CallDeadline | None] = contextvars.ContextVar(
    "call_deadline", default=None
)


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


async def answer_relayed(
    engine: Engine,
    method: str,
    params: dict[str, Any],
    *,
    source: str,
    deadline: CallDeadline,
    turn: str | None = None,
) -> ChainOutcome:
    """A stage request a relay passed on from a live agent: through the engine's gate and hooks,
    decided by `deadline.answer_by` whatever they do."""
    pipeline = Pipeline(
        engine.journal,
        engine.config.defaults,
        lambda: [
            GatedHook(DeadlineHook(hook, engine.journal), engine.gate)
            for hook in engine.hooks.values()
        ],
        entry=engine.gate.enter_stage,
    )
    stage = STAGE_FOR_METHOD[method]
    run = pipeline.approve_tool if stage == "approve_tool" else getattr(pipeline, stage)
    return await within_deadline(
        engine.journal,
        deadline,
        stage,
        params,
        run(params, source=source, turn=turn or ""),
        source=source,
        turn=turn,
    )
