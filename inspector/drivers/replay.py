"""Replay a recorded session's requests against the current hooks and compare the answers:
JSON-RPC stage requests to process hooks, and command-hook runs (j-cli, Claude Code) to the
command hook of the same name and event."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from inspector.engine import Engine
from inspector.hosts.registry import host_named
from inspector.journal.records import (
    STATUS_CANCELLED,
    STATUS_DROPPED,
    STATUS_HELD,
    STATUS_NOT_SENT,
    STATUS_PENDING,
    Exchange,
    Record,
)
from inspector.jsonrpc.stages import STAGE_FOR_METHOD

# A request that never reached its hook, or whose answer nobody waited for, has nothing to compare.
UNANSWERED = frozenset(
    {STATUS_PENDING, STATUS_HELD, STATUS_DROPPED, STATUS_NOT_SENT, STATUS_CANCELLED}
)
DIFF_CONTEXT_LINES = 2

Comparison = Literal["same", "different", "missing hook", "skipped"]


@dataclass(frozen=True)
class ReplayItem:
    """One recorded request and what replaying it gave."""

    seq: int
    hook: str
    method: str
    outcome: Comparison
    recorded: dict[str, Any]
    replayed: dict[str, Any] | None = None
    note: str = ""

    @property
    def diff(self) -> str:
        """A unified diff of the two answers as indented JSON; empty when they are the same."""
        if self.replayed is None or self.outcome == "same":
            return ""
        lines = difflib.unified_diff(
            canonical(self.recorded, indent=2).splitlines(),
            canonical(self.replayed, indent=2).splitlines(),
            fromfile=f"recorded #{self.seq}",
            tofile="replayed",
            n=DIFF_CONTEXT_LINES,
            lineterm="",
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "hook": self.hook,
            "method": self.method,
            "outcome": self.outcome,
            "recorded": self.recorded,
            "replayed": self.replayed,
            "note": self.note,
            "diff": self.diff,
        }


@dataclass
class ReplayReport:
    items: list[ReplayItem] = field(default_factory=list)

    def count(self, outcome: Comparison) -> int:
        return sum(1 for item in self.items if item.outcome == outcome)

    @property
    def ok(self) -> bool:
        """Every request that could be replayed got the answer it got before."""
        return not self.count("different") and not self.count("missing hook")

    @property
    def summary(self) -> str:
        replayed = len(self.items) - self.count("skipped")
        text = (
            f"{replayed} requests, {self.count('same')} same, {self.count('different')} "
            f"different, {self.count('missing hook')} missing hook"
        )
        skipped = self.count("skipped")
        return text + (f", {skipped} skipped" if skipped else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "requests": len(self.items) - self.count("skipped"),
            "same": self.count("same"),
            "different": self.count("different"),
            "missing_hook": self.count("missing hook"),
            "skipped": self.count("skipped"),
            "items": [item.to_json() for item in self.items],
        }


def canonical(value: Any, *, indent: int | None = None) -> str:
    """JSON with sorted keys: equal text means equal JSON (unlike ==, where True == 1)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, indent=indent, default=str)


def answer_of(exchange: Exchange) -> dict[str, Any]:
    """What a hook answered, as the host whose record it is reads it."""
    return host_named(exchange.host).answer_of(exchange)


def recorded_requests(records: Iterable[Record]) -> list[Exchange]:
    """The requests of a session, in order: stage requests (no hello, no runtime events, no
    call held at a stage's entry: its hooks' own requests follow it) and command-hook runs."""
    exchanges = (
        r
        for r in records
        if isinstance(r, Exchange)
        and not r.stage_entry
        and (r.by_command or r.method in STAGE_FOR_METHOD)
    )
    return sorted(exchanges, key=lambda exchange: exchange.seq)


async def replay(engine: Engine, records: Iterable[Record]) -> ReplayReport:
    """Send each recorded request, one at a time, to the started engine's hook of the same name."""
    report = ReplayReport()
    for recorded in recorded_requests(records):
        report.items.append(await _replay_one(engine, recorded))
    return report


async def _replay_one(engine: Engine, recorded: Exchange) -> ReplayItem:
    item = ReplayItem(
        seq=recorded.seq,
        hook=recorded.hook,
        method=recorded.method,
        outcome="skipped",
        recorded=answer_of(recorded),
    )
    if recorded.status in UNANSWERED:
        return replace(item, note=f"recorded as {recorded.status}: no answer to compare")
    unreplayable = engine.runtime.unreplayable(recorded)
    if unreplayable is not None:
        return replace(item, outcome=unreplayable.outcome, note=unreplayable.note)
    exchange = await engine.send_to_hook(
        recorded.hook, recorded.method, recorded.params, source="replay"
    )
    replayed = answer_of(exchange)
    same = canonical(replayed) == canonical(item.recorded)
    return replace(
        item,
        outcome="same" if same else "different",
        replayed=replayed,
    )
