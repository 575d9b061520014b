"""Per-hook counters the hooks panel shows."""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass, field

from inspector.journal.records import STATUS_OK, Exchange

LATENCY_WINDOW = 200


@dataclass
class HookStats:
    calls: int = 0
    failures: int = 0
    restarts: int = 0
    crashes: int = 0
    latencies_ms: deque[float] = field(default_factory=lambda: deque(maxlen=LATENCY_WINDOW))

    def record(self, exchange: Exchange) -> None:
        self.calls += 1
        if exchange.status != STATUS_OK:
            self.failures += 1
        elif exchange.duration_ms is not None:
            self.latencies_ms.append(exchange.duration_ms)

    @property
    def median_ms(self) -> float | None:
        return statistics.median(self.latencies_ms) if self.latencies_ms else None
