"""`run --otlp` against a real OTLP/HTTP receiver: what the exporter sent, decoded with
opentelemetry-proto, checked against the run's own journal."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from inspector.journal.records import Decision, Event, Exchange
from tests.otel.session_run import PLANTED, run_session, saved_records
from tests.support.otlp_receiver import Received, ReceivedSpan, otlp_receiver


@pytest.fixture(scope="module")
def sent(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Received, str]:
    journal = tmp_path_factory.mktemp("otlp") / "journal.jsonl"
    with otlp_receiver() as (url, received):
        ran = run_session(journal, "--otlp", url, "--otlp-bodies")
    assert ran.returncode == 0, ran.stderr
    return journal, received, ran.stderr


def _by_seq(spans: list[ReceivedSpan]) -> dict[int, ReceivedSpan]:
    return {
        span.attributes["hook_inspector.seq"]: span
        for span in spans
        if "hook_inspector.seq" in span.attributes and "rpc.method" in span.attributes
    }


def test_every_exchange_is_one_span_with_the_journals_fields(sent) -> None:
    journal, received, stderr = sent
    exchanges = [r for r in saved_records(journal) if isinstance(r, Exchange)]
    spans = _by_seq(received.spans)
    assert sorted(spans) == sorted(exchange.seq for exchange in exchanges)
    counts = Counter(s.attributes.get("hook_inspector.seq") for s in received.spans)
    assert all(n == 1 for seq, n in counts.items() if seq in spans)  # no exchange sent twice
    for exchange in exchanges:
        span = spans[exchange.seq]
        attributes = span.attributes
        assert attributes["hook_inspector.host"] == "picoclaw"
        assert attributes["hook_inspector.hook"] == exchange.hook
        assert attributes["hook_inspector.status"] == exchange.status
        assert attributes["rpc.method"] == exchange.method
        assert attributes["rpc.system"] == "jsonrpc"
        assert attributes["jsonrpc.request.id"] == exchange.rpc_id
        assert attributes.get("hook_inspector.action") == exchange.action
        assert span.resource["service.name"] == "hook-inspector"
        assert span.start_ns == round(exchange.ts * 1e9)
        if exchange.tool:
            assert attributes["gen_ai.operation.name"] == "execute_tool"
            assert attributes["gen_ai.tool.name"] == exchange.tool
        assert [name for name, _ in span.events] == [f.code for f in exchange.findings]
    assert f"{len(received.spans)} span(s) sent to" in stderr


def test_a_failed_call_has_error_status_and_an_ok_one_has_none(sent) -> None:
    journal, received, _stderr = sent
    spans = _by_seq(received.spans)
    exchanges = [r for r in saved_records(journal) if isinstance(r, Exchange)]
    failed = [e for e in exchanges if e.status != "ok"]
    assert failed and all(e.hook == "refuser" for e in failed)
    for exchange in exchanges:
        error = spans[exchange.seq].error
        said = (exchange.error or "").replace(PLANTED, "[REDACTED]")  # redacted, as is sent
        assert (error == said) if exchange.status != "ok" else error is None


def test_one_trace_per_turn_a_span_per_stage_and_event_a_child_per_exchange(sent) -> None:
    journal, received, _stderr = sent
    records = saved_records(journal)
    by_id = {span.span_id: span for span in received.spans}
    turns = [s for s in received.spans if s.name == "turn turn-1"]
    assert len(turns) == 1 and turns[0].parent_id == ""
    turn = turns[0]
    assert turn.attributes["gen_ai.agent.name"] == "main"
    for exchange in (r for r in records if isinstance(r, Exchange) and r.turn):
        span = _by_seq(received.spans)[exchange.seq]
        stage = by_id[span.parent_id]
        assert stage.trace_id == span.trace_id == turn.trace_id
        assert stage.parent_id == turn.span_id
        assert stage.attributes["hook_inspector.stage"] == exchange.method.removeprefix("hook.")
    decisions = [r for r in records if isinstance(r, Decision)]
    stages = [
        s
        for s in received.spans
        if s.parent_id == turn.span_id and "rpc.method" not in s.attributes
    ]
    decided = [s for s in stages if "hook_inspector.verdict" in s.attributes]
    assert sorted(s.attributes["hook_inspector.seq"] for s in decided) == sorted(
        d.seq for d in decisions
    )
    events = [r for r in records if isinstance(r, Event)]
    event_spans = [s for s in stages if "hook_inspector.event" in s.attributes]
    in_order = sorted(event_spans, key=lambda s: s.attributes["hook_inspector.seq"])
    assert [s.attributes["hook_inspector.event"] for s in in_order] == [e.kind for e in events]
    delivered = [s.attributes["hook_inspector.delivered"] for s in in_order]
    assert delivered == [e.delivered for e in events] and ["event_logger"] in delivered
    handshakes = [s for s in received.spans if s.attributes.get("rpc.method") == "hook.hello"]
    sessions = [s for s in received.spans if s.name == "hook-inspector session"]
    assert len(sessions) == 1 and all(s.parent_id == sessions[0].span_id for s in handshakes)


def test_an_approval_says_who_decided_and_how_long_it_waited(sent) -> None:
    _journal, received, _stderr = sent
    approvals = [s for s in received.spans if s.attributes.get("rpc.method") == "hook.approve_tool"]
    assert len(approvals) == 2
    for span in approvals:
        assert span.attributes["hook_inspector.approval.by"]
        assert span.attributes["hook_inspector.approval.wait_ms"] >= 0
    denied = [s for s in received.spans if s.attributes.get("hook_inspector.verdict") == "denied"]
    assert [s.attributes["hook_inspector.approval.by"] for s in denied] == ["review_gate"]


def test_no_planted_secret_leaves_the_machine_even_with_bodies(sent) -> None:
    journal, received, _stderr = sent
    assert PLANTED in journal.read_text()  # the journal holds it: the redaction is the test
    refused = [r for r in saved_records(journal) if isinstance(r, Exchange) and r.error]
    assert any(PLANTED in (r.error or "") for r in refused)  # the hook's words, in its error
    assert received.bodies and not any(PLANTED.encode() in body for body in received.bodies)
    bodies = [s.attributes.get("hook_inspector.request.body", "") for s in received.spans]
    assert any("api_token" in body and "[REDACTED]" in body for body in bodies)
    errors = [s.error or "" for s in received.spans if s.error]
    assert any("(key [REDACTED])" in error for error in errors)
