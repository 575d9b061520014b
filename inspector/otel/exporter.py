"""A session's records sent to a collector as spans while it runs (--otlp): the journal's
subscriber plans spans and puts them on a bounded queue; a thread sends them. A timer plans
what has gone quiet with no record after it (a serve's last turn), so it leaves by itself,
not only with the next record or at the end."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

from inspector.journal.journal import Journal
from inspector.journal.records import Record
from inspector.otel.endpoint import OtlpOptions, shown_url
from inspector.otel.plan import PlannedSpan
from inspector.otel.planner import IDLE_S, TURN_IDLE_S, SpanPlanner
from inspector.otel.sdk_log import quiet_sdk_log
from inspector.otel.sdk_spans import SdkSpans
from inspector.otel.span_queue import SpanQueue

EXPORT_TIMEOUT_S = 10.0  # one batch's POST, its retries included
CHECKS_PER_IDLE = 10  # the timer looks for quiet turns this often within the idle time


class LiveSpans:
    def __init__(
        self,
        options: OtlpOptions,
        warn: Callable[[str], None] | None,
        *,
        idle_s: float = IDLE_S,
        turn_idle_s: float = TURN_IDLE_S,
    ) -> None:
        self.url = options.url
        # told once when the collector does not take a batch during the session; without it
        # (the UI owns the terminal), and at the end, close()'s line says it
        self.warn = warn
        self._closing = False
        self.unplanned = 0  # records a fault in planning left out
        self._fault = ""
        self.planner = SpanPlanner(bodies=options.bodies, idle_s=idle_s, turn_idle_s=turn_idle_s)
        # the journal's subscriber (on the hook's path) and the timer plan in turn; planning is
        # in memory only, so neither holds the other up for long
        self._planning = threading.Lock()
        self.spans = SdkSpans()
        self._reason = quiet_sdk_log()
        exporter = OTLPSpanExporter(endpoint=self.url, timeout=EXPORT_TIMEOUT_S)
        self.queue = SpanQueue(exporter, self._not_taken)
        self._unsubscribe: list[Callable[[], None]] = []
        self._stopped = threading.Event()
        self._timer = threading.Thread(
            target=self._plan_quiet, name="hook-inspector-otlp-idle", daemon=True
        )
        self._timer.start()

    def attach(self, journal: Journal) -> None:
        self._unsubscribe.append(journal.subscribe(self._take))

    def close(self) -> str:
        """Send the spans still open and say what became of them all, in one line."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._stopped.set()
        self._timer.join()
        self._plan(self.planner.finish)
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
        self._plan(lambda: self.planner.take(record, new))

    def _plan_quiet(self) -> None:
        while not self._stopped.wait(self.planner.idle_s / CHECKS_PER_IDLE):
            self._plan(lambda: self.planner.idle(time.time()))

    def _plan(self, planning: Callable[[], list[PlannedSpan]]) -> None:
        with self._planning:
            try:
                self._put(planning())
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
