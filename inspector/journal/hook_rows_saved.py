"""The hooks panel's rows of a saved session, folded from its index columns rather than from
every record: an exchange is counted by its hook, method, host, source, status, action and
whether it was held at a stage's entry, so the exchanges that share all of these are counted
together; only a hook's latest successful calls (for its median), PicoClaw's hello requests,
lifecycles and reloads are read back as records. Rows appear in the order their first record
has in the journal, as when the records are folded one by one."""

from __future__ import annotations

import math
from array import array
from collections import Counter, deque
from dataclasses import dataclass
from itertools import compress
from typing import Any, Protocol

from inspector.journal.columns import ABSENT
from inspector.journal.hook_row import LATENCY_WINDOW, HookRow
from inspector.journal.jsonl import UNFINISHED
from inspector.journal.records import Decision, Exchange, Lifecycle, Record, Reload
from inspector.journal.store import KIND_CODE, RecordStore
from inspector.jsonrpc.stages import HELLO

KEY = ("hook", "method", "host", "source", "status", "action", "stage_entry")
SKIPPED = "skipped"
LATENCIES_KEPT = 2 * LATENCY_WINDOW  # as many as HookRow keeps
# Exchanges counted per C call: the hooks panel folds a long session in a thread, and a C call
# holds the interpreter until it returns, so the screen waits for no more than one slice.
CHUNK = 32_768
RECORD = "record"  # a record to fold as it is (a lifecycle, a reload)


class Rows(Protocol):
    """What the fold needs of HookRows (which folds a saved session with it)."""

    def row_of(self, hook: str, method: str, host: str, source: str) -> HookRow: ...

    def skip(self, name: str, stage: str, host: str) -> None: ...

    def fold(self, record: Record, new: bool) -> None: ...

    def announced(self, row: HookRow, params: Any) -> None: ...

    def run_failed(self, exchange: Exchange) -> bool: ...


@dataclass(frozen=True, slots=True)
class Skip:
    hook: str
    stage: str
    host: str


Step = tuple[int, ...] | str | Skip  # a group of exchanges by its key codes, RECORD, a Skip


def fold_saved(rows: Rows, store: RecordStore) -> None:
    columns = store.columns
    kinds = store.kind_codes()
    exchanges = _positions_of(kinds, Exchange)
    is_exchange = _mask(kinds, Exchange)
    codes = [array("I", compress(columns.codes[name], is_exchange)) for name in KEY]
    counts: Counter[tuple[int, ...]] = Counter()
    first: dict[tuple[int, ...], int] = {}
    for start in range(0, len(exchanges), CHUNK):  # a C loop a slice at a time: see CHUNK
        keys = list(zip(*(column[start : start + CHUNK] for column in codes), strict=True))
        counts.update(keys)
        deque(map(first.setdefault, keys, exchanges[start : start + CHUNK]), maxlen=0)
    # (position, what happens there): the first of a group of exchanges, a record, a skip
    steps: list[tuple[int, Step]] = [(position, key) for key, position in first.items()]
    others = _positions_of(kinds, Lifecycle, Reload)
    steps += [(position, RECORD) for position in others]
    steps += _skips(store)
    records = dict(store.each(others))  # few: read back
    by_key: dict[tuple[int, ...], HookRow | None] = {}
    for position, step in sorted(steps, key=lambda item: item[0]):
        if isinstance(step, tuple):
            by_key[step] = _count(rows, store, step, counts[step])
        elif isinstance(step, Skip):
            rows.skip(step.hook, step.stage, step.host)
        else:
            rows.fold(records[position], True)
    _totals(store, codes, by_key)
    _latencies(rows, store, exchanges, codes, by_key)
    _hellos(rows, store, exchanges, codes, by_key)


def _mask(kinds: bytearray, *types: type) -> bytes:
    table = bytearray(256)
    for kind in types:
        table[KIND_CODE[kind]] = 1
    return bytes(kinds).translate(table)


def _positions_of(kinds: bytearray, *types: type) -> list[int]:
    return list(compress(range(len(kinds)), _mask(kinds, *types)))


def _value(store: RecordStore, name: str, code: int) -> object:
    value = store.columns.dictionary.values[name][code]
    return None if value is ABSENT else value


def _count(rows: Rows, store: RecordStore, key: tuple[int, ...], count: int) -> HookRow | None:
    hook, method, host, source, status, action, stage_entry = (
        _value(store, name, code) for name, code in zip(KEY, key, strict=True)
    )
    if stage_entry:  # a call held before any hook: no hook's work
        return None
    row = rows.row_of(str(hook or ""), str(method or ""), str(host or ""), str(source or ""))
    if status not in UNFINISHED and action != SKIPPED:
        row.calls += count
        row.failures += count if _failed(rows, store, key) else 0
    return row


def _failed(rows: Rows, store: RecordStore, key: tuple[int, ...]) -> bool:
    """The host's reading of the exchanges of one key, from what the key holds of them."""
    values = {name: _value(store, name, code) for name, code in zip(KEY, key, strict=True)}
    exchange = Exchange(
        hook=str(values["hook"] or ""),
        method=str(values["method"] or ""),
        host=str(values["host"] or ""),
        status=str(values["status"] or ""),
        action=None if values["action"] is None else str(values["action"]),
    )
    return rows.run_failed(exchange)


def _skips(store: RecordStore) -> list[tuple[int, Step]]:
    """Each hook a j-cli chain decision skipped, with the decision's position."""
    values = store.columns.dictionary.values["skipped"]
    skipping = {code for code, names in enumerate(values) if isinstance(names, tuple) and names}
    if not skipping:
        return []
    codes = store.columns.codes
    found: list[tuple[int, Step]] = []
    for position in _positions_of(store.kind_codes(), Decision):
        code = codes["skipped"][position]
        if code in skipping:
            stage = str(_value(store, "method", codes["method"][position]) or "")
            host = str(_value(store, "host", codes["host"][position]) or "")
            found += [(position, Skip(name, stage, host)) for name in values[code] if name]
    return found


def _totals(
    store: RecordStore, codes: list[array[int]], by_key: dict[tuple[int, ...], HookRow | None]
) -> None:
    """Time spent per row: the durations of the calls it counted."""
    status, action = KEY.index("status"), KEY.index("action")
    counted = {
        key: row
        for key, row in by_key.items()
        if row is not None
        and _value(store, "status", key[status]) not in UNFINISHED
        and _value(store, "action", key[action]) != SKIPPED
    }
    durations = compress(store.columns.durations, _mask(store.kind_codes(), Exchange))
    for key, duration in zip(zip(*codes, strict=True), durations, strict=True):
        row = counted.get(key)
        if row is not None and duration == duration:  # not NaN: it has one
            row.total_ms += duration  # in journal order, as the records add up


def _latencies(
    rows: Rows,
    store: RecordStore,
    exchanges: list[int],
    codes: list[array[int]],
    by_key: dict[tuple[int, ...], HookRow | None],
) -> None:
    """Each row's latest successful calls, walking back from the end until every row has its
    window (or the session's start)."""
    status, action = KEY.index("status"), KEY.index("action")
    counted = {
        key: row
        for key, row in by_key.items()
        if row is not None
        and _value(store, "status", key[status]) not in UNFINISHED
        and _value(store, "action", key[action]) != SKIPPED
        and not _failed(rows, store, key)
    }
    wanted = {id(row) for row in counted.values()}
    durations = store.columns.durations
    found: dict[int, list[tuple[int, float]]] = {id(row): [] for row in counted.values()}
    seqs = store.seqs()
    for index in range(len(exchanges) - 1, -1, -1):
        if not wanted:
            break
        row = counted.get(tuple(column[index] for column in codes))
        if row is None or id(row) not in wanted:
            continue
        duration = durations[exchanges[index]]
        if math.isnan(duration):
            continue
        latest = found[id(row)]
        latest.append((seqs[exchanges[index]], duration))
        if len(latest) == LATENCIES_KEPT:
            wanted.discard(id(row))
    for row in counted.values():
        row.latencies = sorted(found[id(row)])


def _hellos(
    rows: Rows,
    store: RecordStore,
    exchanges: list[int],
    codes: list[array[int]],
    by_key: dict[tuple[int, ...], HookRow | None],
) -> None:
    method = KEY.index("method")
    hello = {
        key
        for key in by_key
        if by_key[key] is not None and _value(store, "method", key[method]) == HELLO
    }
    if not hello:
        return
    method_codes = {key[method] for key in hello}
    indexes = {
        position: index
        for index, position in enumerate(exchanges)
        if codes[method][index] in method_codes
    }
    for position, record in store.each(list(indexes)):
        row = by_key.get(tuple(column[indexes[position]] for column in codes))
        if row is not None and isinstance(record, Exchange):
            rows.announced(row, record.params)
