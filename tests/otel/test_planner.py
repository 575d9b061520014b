"""The span plan of records a run rarely makes: a person's answer to an approval, a session that
runs for days (quiet turns are sent without waiting for its end, and forgotten but the last
few, to place late records), a stage no hook listens to."""

from __future__ import annotations

from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_OK, STATUS_PENDING, Decision, Event, Exchange
from inspector.otel.plan import PlannedSpan
from inspector.otel.planner import SpanPlanner


def _planned(journal: Journal, planner: SpanPlanner) -> list[PlannedSpan]:
    """What `planner` plans from the journal's records as they come, as --otlp gets them."""
    spans: list[PlannedSpan] = []
    journal.subscribe(lambda record, new: spans.extend(planner.take(record, new)))
    return spans


def test_a_persons_answer_says_human_and_how_long_the_call_waited() -> None:
    journal, planner = Journal(), SpanPlanner()
    spans = _planned(journal, planner)
    call = journal.append(
        Exchange(
            ts=100.0, hook="ask_me", method="hook.approve_tool", turn="t", status=STATUS_PENDING
        )
    )
    journal.amend(call, status=STATUS_OK, duration_ms=4200.0, action="approved")
    chain = [{"hook": "ask_me", "action": "approved", "exchange": call.seq}]
    journal.append(
        Decision(
            ts=104.2, stage="approve_tool", verdict="allow_once", by="human", turn="t", chain=chain
        )
    )
    assert spans == []  # the stage's own decision is still to come
    journal.append(
        Decision(ts=104.2, stage="approve_tool", verdict="approved", turn="t", chain=chain)
    )
    stage, exchange = spans
    assert exchange.attributes["hook_inspector.approval.by"] == "human"
    assert exchange.attributes["hook_inspector.approval.wait_ms"] == 4200.0
    assert stage.attributes["hook_inspector.approval.by"] == "human"
    assert stage.attributes["hook_inspector.approval.wait_ms"] == 4200.0


def test_a_quiet_turn_is_sent_without_waiting_for_the_session_to_end() -> None:
    journal, planner = Journal(), SpanPlanner(idle_s=30, turn_idle_s=30)
    spans = _planned(journal, planner)
    journal.append(
        Exchange(ts=100.0, hook="h", method="hook.before_tool", turn="t1", status=STATUS_OK)
    )
    journal.append(Event(ts=100.5, kind="agent.turn.end", payload={"scope": {"turn_id": "t1"}}))
    assert spans == []  # a stage waits for its decision, an event for its delivery
    journal.append(
        Exchange(ts=200.0, hook="h", method="hook.before_tool", turn="t2", status=STATUS_OK)
    )
    names = sorted(span.name for span in spans)
    assert names == ["agent.turn.end", "before_tool", "h hook.before_tool", "turn t1"]
    assert [span.name for span in planner.finish()] == [
        "before_tool",
        "h hook.before_tool",
        "turn t2",
    ]


def test_a_decision_with_no_hook_call_is_a_stage_of_its_own() -> None:
    journal, planner = Journal(), SpanPlanner()
    spans = _planned(journal, planner)
    journal.append(Decision(ts=5.0, stage="permission", verdict="allow", turn="t", tool="Bash"))
    (stage,) = spans
    assert stage.name == "permission Bash" and stage.parent == "turn:t"
    assert stage.start == stage.end == 5.0


def test_a_long_session_remembers_a_bounded_number_of_planned_records(monkeypatch) -> None:
    monkeypatch.setattr("inspector.otel.planner.REMEMBERED", 100)
    journal, planner = Journal(), SpanPlanner()
    _planned(journal, planner)
    for number in range(1_000):
        journal.append(Exchange(ts=float(number), hook="h", method="hook.hello", status=STATUS_OK))
    assert len(planner._seen) <= 200


def test_two_tool_calls_at_one_stage_at_once_are_two_stage_spans() -> None:
    journal, planner = Journal(), SpanPlanner()
    spans = _planned(journal, planner)
    runs = {}
    for call in ("toolu_A", "toolu_B"):  # both calls' hooks run before either is decided
        stdin = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": call}
        runs[call] = journal.append(
            Exchange(
                ts=1.0, hook="guard", method="PreToolUse", request=stdin, turn="t", status=STATUS_OK
            )
        )
    for call in ("toolu_B", "toolu_A"):
        chain = [{"hook": "guard", "action": "allow", "exchange": runs[call].seq}]
        journal.append(
            Decision(
                ts=2.0, stage="PreToolUse", verdict="allow", turn="t", tool="Bash", chain=chain
            )
        )
    stages = {span.key: span for span in spans if span.parent == "turn:t"}
    children = {
        span.attributes["gen_ai.tool.call.id"]: span.parent
        for span in spans
        if span.parent in stages
    }
    assert len(stages) == 2 and children["toolu_A"] != children["toolu_B"]
    decided = {stages[parent].attributes["hook_inspector.seq"] for parent in children.values()}
    assert len(decided) == 2


def test_a_long_session_keeps_a_bounded_number_of_turns(monkeypatch) -> None:
    monkeypatch.setattr("inspector.otel.planner.SENT_TURNS", 10)
    journal, planner = Journal(), SpanPlanner(idle_s=30, turn_idle_s=30)
    spans = _planned(journal, planner)
    for number in range(1_000):  # a turn every 100 s: each is quiet when the next comes
        journal.append(
            Exchange(
                ts=100.0 * number,
                hook="h",
                method="hook.hello",
                turn=f"t{number}",
                status=STATUS_OK,
            )
        )
    turns = [span for span in spans if span.parent is None]
    assert len(turns) == 999  # every turn but the last is sent
    assert len(planner._turns) <= 2 and len(planner._sent_turns) == 10


def test_a_late_record_of_a_sent_turn_is_under_its_span_in_its_trace() -> None:
    journal, planner = Journal(), SpanPlanner(idle_s=30, turn_idle_s=30)
    spans = _planned(journal, planner)
    journal.append(
        Exchange(ts=100.0, hook="h", method="hook.before_tool", turn="t1", status=STATUS_OK)
    )
    journal.append(
        Exchange(ts=200.0, hook="h", method="hook.before_tool", turn="t2", status=STATUS_OK)
    )
    assert "turn t1" in [span.name for span in spans] and "t1" not in planner._turns
    journal.append(Decision(ts=201.0, stage="permission", verdict="allow", turn="t1"))
    spans += planner.finish()
    assert [span.name for span in spans].count("turn t1") == 1
    (late,) = [span for span in spans if span.name == "permission"]
    assert late.trace == "t1" and late.parent == "turn:t1"


def test_a_turn_that_pauses_for_a_long_tool_run_is_one_turn_span() -> None:
    journal, planner = Journal(), SpanPlanner()
    spans = _planned(journal, planner)
    for ts, stage in ((100.0, "PreToolUse"), (250.0, "PostToolUse")):  # the tool ran 150 s
        call = journal.append(Exchange(ts=ts, hook="h", method=stage, turn="t", status=STATUS_OK))
        chain = [{"hook": "h", "action": "allow", "exchange": call.seq}]
        journal.append(Decision(ts=ts, stage=stage, verdict="allow", turn="t", chain=chain))
        for now in range(int(ts), int(ts) + 150, 3):  # the exporter's timer looks meanwhile
            spans += planner.idle(float(now))
    spans += planner.finish()
    [turn] = [span for span in spans if span.parent is None]
    assert (turn.start, turn.end) == (100.0, 250.0)


def test_a_person_taking_a_minute_to_answer_leaves_the_stage_whole() -> None:
    journal, planner = Journal(), SpanPlanner()
    spans = _planned(journal, planner)
    call = journal.append(
        Exchange(ts=100.0, hook="guard", method="PreToolUse", turn="t", status=STATUS_OK)
    )
    for now in range(100, 160, 3):  # a person is asked, and answers after 59 s
        spans += planner.idle(float(now))
    chain = [{"hook": "guard", "action": "ask", "exchange": call.seq}]
    journal.append(
        Decision(
            ts=159.0, stage="PreToolUse", verdict="allow_once", by="human", turn="t", chain=chain
        )
    )
    journal.append(Decision(ts=159.0, stage="PreToolUse", verdict="allow", turn="t", chain=chain))
    spans += planner.finish()
    stages = [span for span in spans if span.parent == "turn:t"]
    assert len(stages) == 1 and stages[0].attributes["hook_inspector.approval.by"] == "human"
