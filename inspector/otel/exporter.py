"""A session's records sent to a collector as spans while it runs (--otlp): the journal's
subscriber plans spans and puts them on a bounded queue; a thread sends them."""

from __future__ import annotations

from collections.abc import Callable

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

from inspector.journal.journal import Journal
from inspector.journal.records import Record
from inspector.otel.endpoint import OtlpOptions, shown_url
from inspector.otel.plan import PlannedSpan
from inspector.otel.planner import SpanPlanner
from inspector.otel.sdk_log import quiet_sdk_log
from inspector.otel.sdk_spans import SdkSpans
from inspector.otel.span_queue import SpanQueue

EXPORT_TIMEOUT_S = 10.0  # one batch's POST, its retries included


class LiveSpans:
    def __init__(self, options: OtlpOptions, warn: Callable[[str], None] | None) -> None:
        self.url = options.url
        # told once when the collector does not take a batch during the session; without it
        # (the UI owns the terminal), and at the end, close()'s line says it
        self.warn = warn
        self._closing = False
        self.unplanned = 0  # records a fault in planning left out
        self._fault = ""
        self.planner = SpanPlanner(bodies=options.bodies)
        self.spans = SdkSpans()
        self._reason = quiet_sdk_log()
        exporter = OTLPSpanExporter(endpoint=self.url, timeout=EXPORT_TIMEOUT_S)
        self.queue = SpanQueue(exporter, self._not_taken)
        self._unsubscribe: list[Callable[[], None]] = []

    def attach(self, journal: Journal) -> None:
        self._unsubscribe.append(journal.subscribe(self._take))

    def close(self) -> str:
        """Send the spans still open and say what became of them all, in one line."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._put(self.planner.finish())
        self._closing = True
        self.queue.close()
        queue = self.queue
        sent = f"{queue.sent:,} span(s) sent to {shown_url(self.url)}"
        lost = [
            f"{count:,} {what}"
            for count, what in (
                (queue.failed + queue.unsent, f"not taken by the collector{self._why()}"),
                (queue.dropped, f"dropped (the queue of {queue.max_queue:,} was full)"),
                (self.unplanned, f"record(s) not made into spans ({self._fault})"),
            )
            if count
        ]
        return "; ".join([sent, *lost])

    def _take(self, record: Record, new: bool) -> None:
        # Called on the hook's path, inside Journal.append: a fault here must not fail the call.
        try:
            self._put(self.planner.take(record, new))
        except Exception as error:
            self.unplanned += 1
            self._fault = self._fault or f"{type(error).__name__}: {error}"

    def _put(self, planned: list[PlannedSpan]) -> None:
        for span in planned:
            self.queue.put(self.spans.readable(span))

    def _not_taken(self) -> None:
        if self.warn is not None and not self._closing:  # else close() says it
            self.warn(
                f"warning: the collector at {shown_url(self.url)} did not take spans{self._why()}; "
                "the session goes on, and the count of spans not sent is said at the end"
            )

    def _why(self) -> str:
        return f" ({self._reason.text})" if self._reason.text else ""
