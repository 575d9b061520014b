"""One row of the hooks panel: a hook (one per event for a command hook) or a live agent's relay,
with its state and what its calls add up to."""

from __future__ import annotations

import statistics
from bisect import insort
from collections.abc import Callable
from dataclasses import dataclass, field

from inspector.journal.records import STATUS_OK, Exchange

LATENCY_WINDOW = 200  # the median is over a hook's latest successful calls (by seq)
COMMAND_STATE = "ready"  # a command hook runs nothing between calls: it is always ready
RunFailed = Callable[[Exchange], bool]
"""Whether a finished call counts as a failure rather than an answer: the host's rule (a Claude
Code exit 2 that blocks is an answer), which the layers above hand down."""


def not_ok(exchange: Exchange) -> bool:
    """The rule when no host's is given: any status but ok is a failure."""
    return exchange.status != STATUS_OK


@dataclass(slots=True)
class HookRow:
    """A hook (`event` set for a command hook: one row per event it runs for) or a relay."""

    name: str
    event: str = ""
    relay: bool = False
    host: str = ""
    state: str = ""
    pid: int | None = None
    modes: tuple[str, ...] = ()  # announced in hook.hello
    calls: int = 0
    failures: int = 0
    restarts: int = 0
    skipped: int = 0
    total_ms: float = 0.0
    # the latest successful calls as (seq, ms), oldest first; twice the window is kept so an
    # answer judged a failure after it was counted leaves the window as a saved session has it
    latencies: list[tuple[int, float]] = field(default_factory=list)
    # processes a reload replaced or removed whose stop is still to come (a manual hook's carry
    # no pid to tell them from the new one's)
    retiring: int = 0

    @classmethod
    def command(cls, name: str, event: str, host: str = "") -> HookRow:
        return cls(name, event, host=host, state=COMMAND_STATE)

    @property
    def median_ms(self) -> float | None:
        recent = self.latencies[-LATENCY_WINDOW:]
        return statistics.median(ms for _seq, ms in recent) if recent else None

    def tally(self, seq: int, ok: bool, ms: float | None, sign: int) -> None:
        """Count one finished call in (sign 1) or take it back out (sign -1)."""
        self.calls += sign
        self.failures += 0 if ok else sign
        self.total_ms += sign * (ms or 0.0)
        if not ok or ms is None:
            return
        if sign < 0:
            if (seq, ms) in self.latencies:
                self.latencies.remove((seq, ms))
        elif len(self.latencies) < 2 * LATENCY_WINDOW:
            insort(self.latencies, (seq, ms))
        elif seq > self.latencies[0][0]:
            insort(self.latencies, (seq, ms))
            del self.latencies[0]
