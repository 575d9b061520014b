"""A bounded queue of finished spans and one thread that sends them in batches. Putting a span
only appends to the queue, so a collector that is slow, hangs or is not there never delays a
hook call; when the queue is full a span is dropped and counted."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

MAX_QUEUE = 4096
BATCH = 512
DELAY_S = 0.2  # how long a span may wait for others to fill its batch
# At the end, how long to wait for the last batches: a collector that has answered gets time to
# take them, one that has not (missing, hanging) only a moment, so a run ends as it would without.
GRACE_S, GRACE_UNANSWERED_S = 5.0, 0.3


class SpanQueue:
    def __init__(
        self,
        exporter: SpanExporter,
        on_failure: Callable[[], None],
        *,
        max_queue: int = MAX_QUEUE,
        batch: int = BATCH,
        delay_s: float = DELAY_S,
    ) -> None:
        self.exporter = exporter
        self.on_failure = on_failure  # called once, on the first batch the collector did not take
        self.max_queue, self.batch, self.delay_s = max_queue, batch, delay_s
        self.sent = self.dropped = self.failed = 0
        self.answered = False  # the collector took a batch
        self._queue: deque[ReadableSpan] = deque()
        self._sending = 0  # spans in the batch being sent
        self._wake = threading.Condition()
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="hook-inspector-otlp", daemon=True)
        self._thread.start()

    def put(self, span: ReadableSpan) -> None:
        with self._wake:
            if len(self._queue) >= self.max_queue:
                self.dropped += 1
                return
            self._queue.append(span)
            if len(self._queue) >= self.batch:
                self._wake.notify()

    @property
    def unsent(self) -> int:
        with self._wake:
            return len(self._queue) + self._sending

    def close(self) -> None:
        """Send what is left, waiting a little; what the collector did not take by then is
        counted in `unsent`."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(GRACE_S if self.answered else GRACE_UNANSWERED_S)
        self.exporter.shutdown()  # stops the exporter's retries of a batch in flight

    def _run(self) -> None:
        while True:
            with self._wake:
                if not self._queue and not self._closing:
                    self._wake.wait(self.delay_s)
                if not self._queue:
                    if self._closing:
                        return
                    continue
                batch = [self._queue.popleft() for _ in range(min(self.batch, len(self._queue)))]
                self._sending = len(batch)
            self._send(batch)

    def _send(self, batch: list[ReadableSpan]) -> None:
        try:
            result = self.exporter.export(batch)
        except Exception:  # an exporter bug must not end the thread and fill the queue
            result = SpanExportResult.FAILURE
        with self._wake:
            self._sending = 0
            if result is SpanExportResult.SUCCESS:
                self.sent += len(batch)
                self.answered = True
                return
            self.failed += len(batch)
            first = self.failed == len(batch)
        if first:
            self.on_failure()
