"""The positions of a journal's records of some types that a filter shows: over the index where
it describes them (rows.py), one record at a time where it does not (calls still in flight,
records not written yet, a session without a journal file)."""

from __future__ import annotations

from collections.abc import Callable
from heapq import merge

from inspector.filter.combine import Filter
from inspector.filter.rows import Rows
from inspector.journal.records import Record
from inspector.journal.store import RecordStore

Predicate = Callable[[Record], bool]


def select(
    store: RecordStore,
    kinds: tuple[type[Record], ...],
    predicate: Predicate | None = None,
    first: int = 0,
) -> list[int]:
    """Positions from `first` on of the records of these types for which `predicate` holds
    (all of them for None), in journal order."""
    rows = Rows(store)
    wanted = rows.of_kinds(kinds)
    if first:
        wanted = bytes(first) + wanted[first:]
    if predicate is None:
        return rows.positions(wanted)
    if not isinstance(predicate, Filter) or not store.columns.known:
        return [p for p, record in store.each(rows.positions(wanted)) if predicate(record)]
    known = rows.known()
    indexed = rows.positions(predicate.plan.over_rows(rows, rows.both(wanted, known)))
    others = rows.positions(rows.minus(wanted, known))
    tested = [p for p, record in store.each(others) if predicate(record)]
    return list(merge(indexed, tested)) if tested else indexed
