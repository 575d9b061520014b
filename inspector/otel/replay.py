"""A saved session's spans sent to a collector (`export FILE --otlp URL`): the same shape as
a live session's, at the journal's own timestamps, so a session recorded offline can be looked
at with a team's trace viewer."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExportResult

from inspector.journal.records import Record
from inspector.otel.planner import SpanPlanner
from inspector.otel.sdk_log import quiet_sdk_log
from inspector.otel.sdk_spans import SdkSpans

BATCH = 512
TIMEOUT_S = 10.0


def send_session(records: Iterable[Record], url: str) -> tuple[int, int, str]:
    """Spans sent and spans the collector did not take, and why not ("" when all were)."""
    reason = quiet_sdk_log()
    exporter = OTLPSpanExporter(endpoint=url, timeout=TIMEOUT_S)
    sent = failed = 0
    try:
        for batch in _batches(_spans(records)):
            if exporter.export(batch) is SpanExportResult.SUCCESS:
                sent += len(batch)
            else:
                failed += len(batch)
    finally:
        exporter.shutdown()
    return sent, failed, reason.text if failed else ""


def _spans(records: Iterable[Record]) -> Iterator[ReadableSpan]:
    planner, spans = SpanPlanner(), SdkSpans()
    for record in records:
        yield from map(spans.readable, planner.take(record))
    yield from map(spans.readable, planner.finish())


def _batches(spans: Iterator[ReadableSpan]) -> Iterator[list[ReadableSpan]]:
    batch: list[ReadableSpan] = []
    for span in spans:
        batch.append(span)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch
