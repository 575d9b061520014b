"""What the journal keeps in memory per small exchange, beyond the exchange's payload.

Measured with tracemalloc: the bytes Python allocated and still holds (after a full collection)
once a Journal holds N realistic small exchanges (`filter_speed.exchanges`: a before_tool
style request of about 400 B on the wire and a short answer). Then the four payload fields of
every record are set to None and the collection repeated: what that frees is the payload,

- `raw_request` and `raw_response`, the two lines as they were on the wire (str), and
- `request` and `response`, the same two messages parsed (the dicts, lists, strings and numbers
  only they refer to),

and what stays is the journal's own cost: the record objects, their other fields (timestamps,
status, hook, findings, ...) and the journal's list. Target: < 2 KB per exchange beyond the
payload. Two figures: a live session (records built in memory, sharing the hook's name and other
constants between records) and a saved session read whole again (`load_journal`: every string
is its own copy; `hook-inspector open` reads the index beside the file instead, see scale.py).
"""

from __future__ import annotations

import gc
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, load_journal
from inspector.journal.records import Exchange

from . import Row, row
from .filter_speed import exchanges

TARGET_BYTES = 2048  # per exchange, beyond its payload


def held() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def live(count: int) -> Journal:
    journal = Journal()
    for exchange in exchanges(count):
        journal.append(exchange)
    return journal


def saved(count: int, folder: Path) -> Path:
    path = folder / "session.jsonl"
    JsonlWriter(path).attach(live(count)).close()
    return path


def measure(build: Callable[[], Journal]) -> tuple[float, float, int]:
    """Bytes held per exchange in all and of payload alone, and the number of exchanges."""
    tracemalloc.start()
    try:
        before = held()
        journal = build()
        total = held() - before
        for exchange in journal.of_type(Exchange):
            exchange.request = exchange.response = None
            exchange.raw_request = exchange.raw_response = None
        payload = total - (held() - before)
    finally:
        tracemalloc.stop()
    count = len(journal)
    return total / count, payload / count, count


def memory_row(label: str, build: Callable[[], Journal]) -> Row:
    total, payload, count = measure(build)
    beyond = total - payload
    verdict = "met" if beyond < TARGET_BYTES else "missed"
    return row(
        f"memory: {label}, {count:,} small exchanges, B/exchange",
        payload,
        total,
        None,
        f"baseline = the payload alone (raw lines + parsed messages); the journal adds "
        f"{beyond:,.0f} B per exchange (target < {TARGET_BYTES:,} B: {verdict})",
        payload + TARGET_BYTES,
    )


def run(quick: bool) -> list[Row]:
    count = 5_000 if quick else 100_000
    with tempfile.TemporaryDirectory() as folder:
        path = saved(count // 5, Path(folder))
        return [
            memory_row("live session", lambda: live(count)),
            memory_row("saved session opened", lambda: load_journal(path)),
        ]
