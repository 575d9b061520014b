"""The queue between the journal and the collector: a hook's path only appends to it; a
collector that never answers leaves it full, and what it drops is counted and said."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_OK, Exchange
from inspector.otel.endpoint import OtlpOptions
from inspector.otel.exporter import LiveSpans
from inspector.otel.span_queue import SpanQueue


class Hanging(SpanExporter):
    """A collector that takes the first batch and never answers."""

    def __init__(self) -> None:
        self.called = threading.Event()
        self.release = threading.Event()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self.called.set()
        self.release.wait(30)
        return SpanExportResult.FAILURE

    def shutdown(self) -> None:
        self.release.set()


def test_a_hanging_collector_fills_the_queue_and_the_drops_are_counted() -> None:
    exporter = Hanging()
    failures: list[None] = []
    queue = SpanQueue(exporter, lambda: failures.append(None), max_queue=10, batch=2)
    queue.put(ReadableSpan("first"))
    queue.put(ReadableSpan("second"))
    assert exporter.called.wait(10)  # the batch is out, and the thread waits on the collector
    for number in range(15):
        queue.put(ReadableSpan(f"span {number}"))  # returns at once: nothing waits for it
    assert queue.dropped == 5 and queue.unsent == 12
    queue.close()  # which releases the collector: the thread fails the rest at once
    deadline = time.monotonic() + 10
    while queue.unsent and time.monotonic() < deadline:
        time.sleep(0.01)
    assert queue.unsent == 0 and queue.failed == 12
    assert failures == [None]  # told once


def test_live_spans_say_what_was_dropped(monkeypatch) -> None:
    spans = LiveSpans(OtlpOptions("http://127.0.0.1:9/v1/traces"), warn=None)
    exporter = Hanging()
    spans.queue.close()
    spans.queue = SpanQueue(exporter, spans._not_taken, max_queue=3, batch=1, delay_s=0.01)
    journal = Journal()
    spans.attach(journal)
    for _ in range(6):
        journal.append(Exchange(hook="h", method="hook.hello", status=STATUS_OK, duration_ms=1))
    said = spans.close()
    assert "dropped (the queue of 3 was full)" in said
    assert said.startswith("0 span(s) sent to http://127.0.0.1:9/v1/traces")


def test_a_fault_in_planning_leaves_the_hook_call_alone_and_is_said() -> None:
    spans = LiveSpans(OtlpOptions("http://127.0.0.1:9/v1/traces"), warn=None)
    journal = Journal()
    spans.attach(journal)
    strange = Exchange(hook="h", method="hook.hello", status=STATUS_OK, duration_ms="slow")  # type: ignore[arg-type]
    assert journal.append(strange) is strange  # the append (the hook's call) goes on
    said = spans.close()
    assert "1 record(s) not made into spans (TypeError: " in said
