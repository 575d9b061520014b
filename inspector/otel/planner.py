"""The journal's records, as they come, made into spans of one shape: one trace per agent turn
(a session trace for what belongs to no turn: handshakes, probes), a span per stage or event in
it, and a child span per hook exchange of that stage.

A stage's spans are planned when its Decision arrives (so findings added after an answer come
along) and every call of it that was under way has finished (a relayed call is answered after
the inspector's hooks for it are decided), or, when none comes, once the stage has been quiet
for `idle_s` or the session ends; a turn's span once it has been quiet for `turn_idle_s`, or at
the end. Quiet is by the journal's time as records arrive, or by the clock when the exporter
asks (`idle`). An event's span is planned when the event is first changed (its delivery to the
observers is recorded), else then.

A turn whose first exchange carries the host's trace context (Claude Code's TRACEPARENT: its
`claude_code.interaction` span) joins the host's trace: the turn's span becomes that span's
child, and the whole turn is in the host's trace. A relayed call with no turn of its own (a
Claude Code SessionStart; a session saved before relayed calls had turns) is in the turn its
host span names (one per Claude Code prompt). An exchange whose host span is another one (or
whose turn joined none) is linked to its host span."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.journal.records import Decision, Event, Exchange, Record
from inspector.otel.attributes import (
    PREFIX,
    UNFINISHED,
    agent_name,
    approval_attributes,
    approved_by,
    decision_attributes,
    event_attributes,
    exchange_attributes,
    exchange_error,
    finding_events,
    tool_call_id,
)
from inspector.otel.bodies import body_attributes
from inspector.otel.plan import Attributes, PlannedSpan
from inspector.otel.trace_context import RemoteSpan, remote_span

SESSION = ""  # the trace of records that belong to no turn
# A stage quiet this long has ended: longer than a person's 60 s to answer an approval, which
# records nothing while it waits.
IDLE_S = 90.0
# A turn quiet this long has ended: a turn pauses for a long tool run or a slow model, and its
# span must cover what comes after; the end of the session ends it sooner.
TURN_IDLE_S = 600.0
# Who answered an approval instead of the hook's own chain: a person, a rule they made, the
# prompt's timeout (approvals.py); the stage's own Decision follows.
APPROVERS = ("human", "timeout", "rule:")
APPROVAL_STAGES = frozenset({"approve_tool"})  # where hooks themselves approve or deny
# Records planned are remembered (a later change to one must not send it again) for this many
# seqs back: a serve session left for days keeps a bounded set.
REMEMBERED = 100_000
# Turns whose spans are all sent are kept this many back, for a late record of one (an event's
# delivery, a call answered after its turn went quiet) to join its trace under its turn's span.
SENT_TURNS = 1_000


StageKey = tuple[str, str, str]  # the turn, the stage, the tool call's id where there is one


@dataclass(slots=True)
class _Stage:
    key: str
    start: float
    last: float
    exchanges: list[Exchange] = field(default_factory=list)
    approval: Decision | None = None
    under_way: set[int] = field(default_factory=set)  # seqs of its calls not finished yet
    decision: Decision | None = None  # made while calls were under way: closes when they finish


@dataclass(slots=True)
class _Turn:
    start: float
    last: float
    host: str
    agent: str | None = None
    planned: bool = False
    joined: RemoteSpan | None = None  # the host's span the turn is under (trace_context.py)
    started: bool = False  # a span of the turn is planned: its trace is settled


class SpanPlanner:
    def __init__(
        self, *, bodies: bool = False, idle_s: float = IDLE_S, turn_idle_s: float = TURN_IDLE_S
    ) -> None:
        self.bodies = bodies
        self.idle_s = idle_s
        self.turn_idle_s = turn_idle_s
        self._stages: dict[StageKey, _Stage] = {}
        self._turns: dict[str, _Turn] = {}  # turns still open
        self._sent_turns: dict[str, _Turn] = {}  # the last SENT_TURNS turns planned, oldest first
        self._seen: set[int] = set()  # exchanges taken into a stage, events planned
        self._events: dict[int, Event] = {}  # events waiting for their delivery
        self._under_way: dict[int, StageKey] = {}  # unfinished calls' stages, by seq
        self._idle_checked = 0.0
        self._forgotten_below = 0

    def take(self, record: Record, new: bool = False) -> list[PlannedSpan]:
        """The spans `record` completes (often none yet). Give it every record as it is
        appended (`new`) and changed; a saved session's records as changed (they are final)."""
        planned: list[PlannedSpan] = []
        if isinstance(record, Exchange):
            planned += self._exchange(record)
        elif isinstance(record, Decision):
            planned += self._decision(record)
        elif isinstance(record, Event) and record.seq not in self._seen:
            if new:
                self._events[record.seq] = record
            else:
                self._events.pop(record.seq, None)
                self._seen.add(record.seq)
                planned.append(self._event(record))
        if record.seq - self._forgotten_below >= 2 * REMEMBERED:
            self._forgotten_below = record.seq - REMEMBERED
            self._seen = {seq for seq in self._seen if seq >= self._forgotten_below}
        if record.ts - self._idle_checked >= 1.0:
            self._idle_checked = record.ts
            planned += self._idle(record.ts)
        return self._in_turns(planned)

    def idle(self, now: float) -> list[PlannedSpan]:
        """The spans quiet at `now` (the clock's time, records' `ts` being the epoch's) though
        no record came after them: the exporter's timer asks."""
        return self._in_turns(self._idle(now))

    def finish(self) -> list[PlannedSpan]:
        """Every span still open: the session ended."""
        planned = [self._event(event) for event in self._events.values()]
        self._events.clear()
        planned += [
            span
            for key, stage in list(self._stages.items())
            for span in self._close(key, stage.decision)
        ]
        for trace, turn in self._turns.items():
            if not turn.planned:
                turn.planned = True
                planned.append(self._turn_span(trace, turn))
        return self._in_turns(planned)

    def _in_turns(self, planned: list[PlannedSpan]) -> list[PlannedSpan]:
        """`planned` in their turns' traces, which they settle: a turn joins a host's trace
        only before any of its spans is sent."""
        for span in planned:
            turn = self._known(span.trace)
            turn.started = True
            span.joined = turn.joined
            if span.link == turn.joined:  # the turn's parent already: no link to it
                span.link = None
        return planned

    def _exchange(self, exchange: Exchange) -> list[PlannedSpan]:
        if exchange.seq in self._seen:
            return []
        remote = remote_span(exchange)
        trace = exchange.turn or (_host_turn(remote) if remote else SESSION)
        finished = exchange.status not in UNFINISHED
        if trace == SESSION and not finished:
            return []
        turn = self._turn(trace, exchange.ts, exchange.host)
        turn.agent = turn.agent or agent_name(exchange)
        if trace == SESSION:  # no stage to wait for
            self._seen.add(exchange.seq)
            return [self._exchange_span(exchange, trace, _turn_key(trace))]
        if not turn.started and turn.joined is None:
            turn.joined = remote
        key = self._under_way.pop(exchange.seq, None) or (
            (trace, _stage_of(exchange.method), tool_call_id(exchange) or "")
        )
        stage = self._stages.get(key)
        if stage is None:
            stage = self._stages[key] = _Stage(f"stage:{exchange.seq}", exchange.ts, exchange.ts)
        if not finished:  # the stage waits for it (a relayed call, answered after the decision)
            stage.under_way.add(exchange.seq)
            self._under_way[exchange.seq] = key
            return []
        self._seen.add(exchange.seq)
        stage.under_way.discard(exchange.seq)
        stage.exchanges.append(exchange)
        stage.last = max(stage.last, _end(exchange))
        if stage.decision is not None and not stage.under_way:
            return self._close(key, stage.decision)
        return []

    def _decision(self, decision: Decision) -> list[PlannedSpan]:
        trace = decision.turn or self._trace_deciding(decision)
        key = self._stage_decided(decision, trace)
        stage = self._stages.get(key)
        if decision.by.startswith(APPROVERS) and stage is not None:
            stage.approval = decision
            return []
        if stage is None:  # a decision with no hook call (nobody listens to the stage)
            self._turn(trace, decision.ts, decision.host)
            stage = self._stages[key] = _Stage(f"stage:{decision.seq}", decision.ts, decision.ts)
        if stage.under_way:
            stage.decision = decision
            stage.last = max(stage.last, decision.ts)
            return []
        return self._close(key, decision)

    def _trace_deciding(self, decision: Decision) -> str:
        """The trace of a decision with no turn: that of the open stage holding a call its chain
        names (a relayed event's calls are in their host span's turn), else the session's."""
        named = {link.get("exchange") for link in decision.chain}
        for (trace, _name, _call), stage in self._stages.items():
            if any(exchange.seq in named for exchange in stage.exchanges):
                return trace
        return SESSION

    def _stage_decided(self, decision: Decision, trace: str) -> StageKey:
        """The open stage a decision is about: the one holding the calls its chain names (two
        tool calls of one turn may be at the same stage at once), else the stage's oldest."""
        name = _stage_of(decision.stage)
        named = {link.get("exchange") for link in decision.chain}
        same_stage = [key for key in self._stages if key[:2] == (trace, name)]
        for key in same_stage:
            if any(exchange.seq in named for exchange in self._stages[key].exchanges):
                return key
        return same_stage[0] if same_stage else (trace, name, "")

    def _close(self, key: StageKey, decision: Decision | None) -> list[PlannedSpan]:
        trace, name, _call = key
        stage = self._stages.pop(key)
        end = max(stage.last, decision.ts if decision else stage.last)
        attributes: Attributes = (
            decision_attributes(decision) if decision else {f"{PREFIX}.stage": name}
        )
        approval = stage.approval
        if approval is None and decision is not None and name in APPROVAL_STAGES:
            approval = decision
        answered = {link.get("exchange") for link in approval.chain} if approval else set()
        spans = [
            PlannedSpan(
                name=f"{name} {decision.tool}" if decision and decision.tool else name,
                trace=trace,
                key=stage.key,
                parent=_turn_key(trace),
                start=stage.start,
                end=end,
                attributes=attributes,
                agent=self._known(trace).agent,
            )
        ]
        for exchange in stage.exchanges:
            span = self._exchange_span(exchange, trace, stage.key)
            if approval is not None:  # the person (or rule, or timeout), else the hook itself
                who = approval.by if exchange.seq in answered else exchange.hook
                span.attributes.update(approval_attributes(who, exchange.duration_ms))
            spans.append(span)
        if approval is not None:
            waited_ms = round((end - stage.start) * 1000, 3)
            spans[0].attributes.update(approval_attributes(approved_by(approval), waited_ms))
        return spans

    def _exchange_span(self, exchange: Exchange, trace: str, parent: str) -> PlannedSpan:
        attributes = exchange_attributes(exchange)
        if self.bodies:
            attributes.update(body_attributes(exchange))
        return PlannedSpan(
            name=f"{exchange.hook} {exchange.method}",
            trace=trace,
            key=f"exchange:{exchange.seq}",
            parent=parent,
            start=exchange.ts,
            end=_end(exchange),
            attributes=attributes,
            events=finding_events(exchange.findings, _end(exchange)),
            error=exchange_error(exchange),
            agent=self._known(trace).agent,
            link=remote_span(exchange),
        )

    def _event(self, event: Event) -> PlannedSpan:
        trace = _event_turn(event) or SESSION
        self._turn(trace, event.ts, event.host)
        return PlannedSpan(
            name=event.kind or "event",
            trace=trace,
            key=f"event:{event.seq}",
            parent=_turn_key(trace),
            start=event.ts,
            end=event.ts,
            attributes=event_attributes(event),
            events=finding_events(event.findings, event.ts),
            agent=self._known(trace).agent,
        )

    def _turn(self, trace: str, ts: float, host: str) -> _Turn:
        turn = self._turns.get(trace) or self._sent_turns.get(trace)
        if turn is None:
            turn = self._turns[trace] = _Turn(start=ts, last=ts, host=host)
        turn.last = max(turn.last, ts)
        return turn

    def _known(self, trace: str) -> _Turn:
        return self._turns.get(trace) or self._sent_turns[trace]

    def _close_turn(self, trace: str) -> None:
        """An open turn whose span is planned is no longer walked; the last SENT_TURNS are kept
        for late records."""
        self._sent_turns[trace] = self._turns.pop(trace)
        if len(self._sent_turns) > SENT_TURNS:
            del self._sent_turns[next(iter(self._sent_turns))]

    def _turn_span(self, trace: str, turn: _Turn) -> PlannedSpan:
        attributes = {f"{PREFIX}.host": turn.host}
        if trace != SESSION:
            attributes[f"{PREFIX}.turn"] = trace
        if turn.agent:
            attributes["gen_ai.agent.name"] = turn.agent
        return PlannedSpan(
            name=f"turn {trace}" if trace != SESSION else "hook-inspector session",
            trace=trace,
            key=_turn_key(trace),
            parent=None,
            start=turn.start,
            end=turn.last,
            attributes=dict(attributes),
            agent=turn.agent,
        )

    def _idle(self, now: float) -> list[PlannedSpan]:
        """Events and stages quiet for `idle_s`, turns for `turn_idle_s`: a serve session runs
        for days."""
        quiet = [seq for seq, event in self._events.items() if now - event.ts >= self.idle_s]
        self._seen.update(quiet)
        planned = [self._event(self._events.pop(seq)) for seq in quiet]
        planned += [
            span
            for key, stage in list(self._stages.items())
            if not stage.under_way
            and now - stage.last >= self.idle_s  # a call under way is not quiet
            for span in self._close(key, None)
        ]
        open_traces = {key[0] for key in self._stages}
        for trace, turn in list(self._turns.items()):
            idle = now - turn.last >= self.turn_idle_s
            if idle and not turn.planned and trace not in open_traces and trace != SESSION:
                turn.planned = True
                planned.append(self._turn_span(trace, turn))
                self._close_turn(trace)
        return planned


def _stage_of(method: str) -> str:
    return method.removeprefix("hook.")


def _host_turn(remote: RemoteSpan) -> str:
    """The turn of a call with no turn of its own that a host span is given to: Claude Code's
    interaction span, one per prompt."""
    return f"{remote.trace_id:032x}-{remote.span_id:016x}"


def _turn_key(trace: str) -> str:
    return f"turn:{trace}"


def _end(exchange: Exchange) -> float:
    return exchange.ts + (exchange.duration_ms or 0.0) / 1000


def _event_turn(event: Event) -> str | None:
    scope = event.payload.get("scope")
    turn = scope.get("turn_id") if isinstance(scope, dict) else None
    return turn if isinstance(turn, str) and turn else None
