"""In-repo benchmarks. Every figure is a ratio against a baseline measured in the same run.

A benchmark is a module of this package named in BENCHMARKS that exposes
`run(quick: bool) -> list[Row]`; `python -m tests.bench` runs them all and prints one table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

# Modules of this package, in the order their rows are printed.
BENCHMARKS = (
    "roundtrip",
    "relay_latency",
    "claude_relay",
    "reload_latency",
    "ui_session",
    "filter_speed",
    "event_rate",
    "memory",
    "scale",
)


@dataclass(frozen=True, slots=True)
class Row:
    """One figure: the baseline and the measured value in the same unit (named in `name`),
    measured / baseline, and the highest ratio that still meets the target (None: no target).
    `limit` is an absolute target instead (or as well): the highest measured value that meets
    it, in the row's unit (50 us per event, say, for at least 20,000 events/s)."""

    name: str
    baseline: float
    measured: float
    ratio: float
    target: float | None = None
    note: str = ""
    limit: float | None = None

    @property
    def met(self) -> bool | None:
        verdicts = [] if self.target is None else [self.ratio <= self.target]
        if self.limit is not None:
            verdicts.append(self.measured <= self.limit)
        return all(verdicts) if verdicts else None

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "met": self.met}


def row(
    name: str,
    baseline: float,
    measured: float,
    target: float | None,
    note: str = "",
    limit: float | None = None,
) -> Row:
    """A Row whose ratio is computed from its two values."""
    return Row(name, baseline, measured, measured / baseline, target, note, limit)
