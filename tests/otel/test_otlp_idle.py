"""A live session's quiet turn leaves for the collector by itself: no later record, no end of
the session (a `serve` whose agent went quiet, then killed, lost its last turn's spans)."""

from __future__ import annotations

from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_OK, Decision, Exchange
from inspector.otel.endpoint import OtlpOptions
from inspector.otel.exporter import LiveSpans
from tests.support.otlp_receiver import Received, otlp_receiver
from tests.support.waiting import wait_for


def _names(received: Received) -> list[str]:
    with received.lock:
        return [span.name for span in received.spans]


async def test_a_quiet_turn_is_sent_with_no_record_after_it() -> None:
    with otlp_receiver() as (url, received):
        spans = LiveSpans(OtlpOptions(f"{url}/v1/traces"), warn=None, idle_s=0.3, turn_idle_s=0.3)
        journal = Journal()
        spans.attach(journal)
        try:
            journal.append(
                Exchange(hook="guard", method="hook.before_tool", turn="t1", status=STATUS_OK)
            )
            journal.append(Decision(stage="before_tool", verdict="allow", turn="t1"))
            await wait_for(lambda: "turn t1" in _names(received))
            assert sorted(_names(received)) == ["before_tool", "guard hook.before_tool", "turn t1"]
        finally:
            said = spans.close()
    assert said == f"3 span(s) sent to {url}/v1/traces"  # nothing sent twice at the end
