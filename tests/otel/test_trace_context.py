"""A hook's W3C trace context (Claude Code's TRACEPARENT, kept on the relayed exchange's record)
through the span builder: the turn joins the host's trace under the host's span, an exchange of
another host span is linked to it, and a context that is not valid changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan

from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_OK,
    STATUS_PENDING,
    Decision,
    Exchange,
    Record,
    record_from_json,
)
from inspector.otel.ids import SpanIds
from inspector.otel.planner import SpanPlanner
from inspector.otel.sdk_spans import SdkSpans

CLAUDE_TRACE = "7bef2c59af986320659b7066e586c240"
INTERACTION = "a3870269de31dddd"  # Claude Code's claude_code.interaction span
TRACEPARENT = f"00-{CLAUDE_TRACE}-{INTERACTION}-01"
OTHER_SPAN = "84fea1ef2a09957c"


def _pre_tool_use(ts: float, turn: str, traceparent: str | None, **more: Any) -> Exchange:
    request = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1"}
    fields = {
        "hook": "claude",
        "host": "claude",
        "method": "PreToolUse",
        "request": request,
        "status": STATUS_OK,
        "duration_ms": 5.0,
        **more,
    }
    return Exchange(ts=ts, turn=turn, traceparent=traceparent, **fields)


def _built(steps: Callable[[Journal], object]) -> list[ReadableSpan]:
    """The SDK spans of the records `steps` appends to (and amends in) a journal, as --otlp gives
    them to the exporter."""
    journal, planner, spans = Journal(), SpanPlanner(), SdkSpans(SpanIds("salt"))
    built: list[ReadableSpan] = []
    journal.subscribe(
        lambda record, new: built.extend(map(spans.readable, planner.take(record, new)))
    )
    steps(journal)
    built += map(spans.readable, planner.finish())
    return built


def _named(built: list[ReadableSpan]) -> dict[str, ReadableSpan]:
    """`built` by name, each name once: a second span of a name is a stage split in two."""
    names = [span.name for span in built]
    assert len(names) == len(set(names)), sorted(names)
    return {span.name: span for span in built}


def _sent(*records: Record) -> dict[str, ReadableSpan]:
    """The SDK spans of `records`, appended as they are, by name."""
    return _named(_built(lambda journal: [journal.append(record) for record in records]))


def _decided(ts: float, turn: str) -> Decision:
    return Decision(ts=ts, stage="PreToolUse", verdict="allow", turn=turn, tool="Bash")


def test_a_turn_with_claudes_traceparent_is_a_child_of_its_span_in_its_trace() -> None:
    exchange = _pre_tool_use(10.0, "s:p1", TRACEPARENT, tracestate="vendor=abc")
    spans = _sent(exchange, _decided(10.1, "s:p1"))
    turn, stage, call = spans["turn s:p1"], spans["PreToolUse Bash"], spans["claude PreToolUse"]
    for span in (turn, stage, call):
        assert span.context is not None
        assert f"{span.context.trace_id:032x}" == CLAUDE_TRACE
        assert span.context.trace_state.to_header() == "vendor=abc"
    assert turn.parent is not None and turn.parent.is_remote
    assert f"{turn.parent.span_id:016x}" == INTERACTION
    assert turn.parent.trace_state.to_header() == "vendor=abc"
    assert stage.parent is not None and turn.context is not None
    assert stage.parent.span_id == turn.context.span_id and not stage.parent.is_remote
    assert call.parent is not None and stage.context is not None
    assert call.parent.span_id == stage.context.span_id
    assert call.links == ()  # its host span is its turn's parent: no link needed


def test_an_exchange_under_another_host_span_is_linked_to_it() -> None:
    later = f"00-{CLAUDE_TRACE}-{OTHER_SPAN}-01"
    records = (
        _pre_tool_use(10.0, "s:p1", TRACEPARENT),
        _decided(10.1, "s:p1"),
        _pre_tool_use(11.0, "s:p1", later, hook="second"),
        _decided(11.1, "s:p1"),
    )
    built = _built(lambda journal: [journal.append(record) for record in records])
    (second,) = [span for span in built if span.name == "second PreToolUse"]
    (link,) = second.links
    assert f"{link.context.span_id:016x}" == OTHER_SPAN and link.context.is_remote
    assert f"{second.context.trace_id:032x}" == CLAUDE_TRACE  # type: ignore[union-attr]


def test_a_relayed_events_calls_without_a_turn_are_in_the_turn_of_their_host_span() -> None:
    """A relayed event and the inspector's hooks run for it with no turn of their own (a session
    saved before relayed calls had turns), nor a decision: the host span (one per prompt) makes
    their turn. Live, the relayed call is answered after the stage is decided: it is still the
    stage's call, not a second stage."""

    def relay(journal: Journal) -> None:
        relayed = _pre_tool_use(10.0, "", TRACEPARENT, source="relay:claude", status=STATUS_PENDING)
        journal.append(relayed)
        guard = journal.append(_pre_tool_use(10.0, "", TRACEPARENT, hook="guard"))
        chain = [{"hook": "guard", "action": "allow", "exchange": guard.seq}]
        journal.append(
            Decision(ts=10.2, stage="PreToolUse", verdict="allow", tool="Bash", chain=chain)
        )
        journal.amend(relayed, status=STATUS_OK, duration_ms=300.0)

    spans = _named(_built(relay))
    turn = spans[f"turn {CLAUDE_TRACE}-{INTERACTION}"]
    assert turn.parent is not None and f"{turn.parent.span_id:016x}" == INTERACTION
    assert "hook-inspector session" not in spans
    stage = spans["PreToolUse Bash"]
    assert stage.parent.span_id == turn.context.span_id  # type: ignore[union-attr]
    for name in ("guard PreToolUse", "claude PreToolUse"):
        assert spans[name].parent.span_id == stage.context.span_id  # type: ignore[union-attr]
    assert stage.end_time == spans["claude PreToolUse"].end_time  # the stage ends with its call
    for name in ("PreToolUse Bash", "guard PreToolUse", "claude PreToolUse"):
        assert f"{spans[name].context.trace_id:032x}" == CLAUDE_TRACE  # type: ignore[union-attr]


def test_an_exchange_of_no_turn_and_no_host_span_stays_in_the_session_trace() -> None:
    spans = _sent(_pre_tool_use(10.0, "", None, method="SessionStart"))
    session, call = spans["hook-inspector session"], spans["claude SessionStart"]
    assert session.parent is None and call.links == ()


@pytest.mark.parametrize(
    "traceparent",
    [
        None,
        "",
        "garbage",
        f"ff-{CLAUDE_TRACE}-{INTERACTION}-01",  # the version W3C forbids
        f"00-{'0' * 32}-{INTERACTION}-01",  # an invalid trace id
        f"00-{CLAUDE_TRACE}-{'0' * 16}-01",  # an invalid span id
        f"00-{CLAUDE_TRACE.upper()}-{INTERACTION}-01",  # upper-case hex
        f"00-{CLAUDE_TRACE}-{INTERACTION}-01-more",  # version 00 has four parts
    ],
)
def test_no_valid_traceparent_leaves_the_turn_in_its_own_trace(traceparent: str | None) -> None:
    spans = _sent(_pre_tool_use(10.0, "s:p1", traceparent), _decided(10.1, "s:p1"))
    turn = spans["turn s:p1"]
    assert turn.parent is None and turn.context is not None
    assert f"{turn.context.trace_id:032x}" != CLAUDE_TRACE
    assert spans["claude PreToolUse"].links == ()


def test_a_later_version_of_traceparent_with_more_parts_is_read() -> None:
    spans = _sent(_pre_tool_use(10.0, "t", f"01-{CLAUDE_TRACE}-{INTERACTION}-00-more"))
    parent = spans["turn t"].parent
    assert parent is not None and f"{parent.span_id:016x}" == INTERACTION
    assert not parent.trace_flags.sampled


def test_the_trace_context_is_saved_with_the_record_and_old_records_load_without_it() -> None:
    saved = _pre_tool_use(10.0, "t", TRACEPARENT, tracestate="k=v").to_json()
    assert (saved["traceparent"], saved["tracestate"]) == (TRACEPARENT, "k=v")
    loaded = record_from_json(saved)
    assert isinstance(loaded, Exchange) and loaded.traceparent == TRACEPARENT
    old = {key: value for key, value in saved.items() if key not in ("traceparent", "tracestate")}
    loaded = record_from_json(old)
    assert isinstance(loaded, Exchange)
    assert (loaded.traceparent, loaded.tracestate) == (None, None)
