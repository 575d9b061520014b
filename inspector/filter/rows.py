"""A filter over the journal's index columns instead of its records (combine.py's `over_rows`).

A set of journal positions is one byte per position, 1 where it holds: a field term asks its
matcher once per distinct value of its column, then maps every position's code through that
answer (bytes.translate when the column has fewer than 256 values), and &, | and ! are integer
operations on those bytes. Free text reads the index's lowercased text a block at a time and
looks at a record's own text only in a block that holds every word.

Records the index does not describe yet (a call in flight) are tested one by one by the caller."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from itertools import compress
from typing import Any

from inspector.journal.column_store import ABSENT_CODE, KNOWN_BY, UNKNOWN, Columns
from inspector.journal.records import Record
from inspector.journal.store import KINDS, RecordStore

ValueTest = Callable[[Any], bool]


class Rows:
    def __init__(self, store: RecordStore) -> None:
        self.store = store
        self.size = len(store)

    @property
    def columns(self) -> Columns:
        """The store's index columns, read from a saved session's index only when a filter
        needs them: listing every record of some types needs only their types (a million
        records' columns took a third of a second of the first screen)."""
        return self.store.columns

    # ---- sets of positions -------------------------------------------------------------------

    def none(self) -> bytes:
        return bytes(self.size)

    def union(self, left: bytes, right: bytes) -> bytes:
        return _as_bytes(_number(left) | _number(right), self.size)

    def minus(self, left: bytes, right: bytes) -> bytes:
        return _as_bytes(_number(left) & ~_number(right), self.size)

    def both(self, left: bytes, right: bytes) -> bytes:
        return _as_bytes(_number(left) & _number(right), self.size)

    def positions(self, held: bytes) -> list[int]:
        return list(compress(range(self.size), held))

    def of_positions(self, positions: Iterable[int]) -> bytes:
        held = bytearray(self.size)
        for position in positions:
            held[position] = 1
        return bytes(held)

    # ---- what the index knows ----------------------------------------------------------------

    def known(self) -> bytes:
        """The positions the index describes (every column has a code for them)."""
        return self._mapped(KNOWN_BY, lambda code: code != UNKNOWN)

    def of_kinds(self, kinds: tuple[type[Record], ...]) -> bytes:
        table = bytes(issubclass(kind, kinds) for kind in KINDS).ljust(256, b"\0")
        return bytes(self.store.kind_codes()).translate(table)

    def kind_named(self, names: Collection[str], within: bytes) -> bytes:
        table = bytes(kind.type in names for kind in KINDS).ljust(256, b"\0")
        return self.both(bytes(self.store.kind_codes()).translate(table), within)

    def column(self, name: str, test: ValueTest, within: bytes) -> bytes:
        """Where the column's value passes `test` (never for a type without the field)."""
        values = self.columns.dictionary.values[name]
        answers = [False, False, *(test(value) for value in values[ABSENT_CODE + 1 :])]
        return self.both(self._mapped(name, answers.__getitem__), within)

    def seqs(self, seqs: Collection[int], within: bytes) -> bytes:
        found = (self.store.position_of(seq) for seq in seqs)
        return self.both(self.of_positions(p for p in found if p is not None), within)

    def _mapped(self, name: str, answer: Callable[[int], bool]) -> bytes:
        """Each position's code in the column mapped through `answer`, as 0/1 bytes."""
        count = len(self.columns.dictionary.values[name])
        narrow = self.columns.narrow(name)
        if narrow is not None:
            return narrow.translate(bytes(code < count and answer(code) for code in range(256)))
        table = bytes(answer(code) for code in range(count))
        return bytes(map(table.__getitem__, self.columns.codes[name]))


def _number(held: bytes) -> int:
    return int.from_bytes(held, "little")


def _as_bytes(number: int, size: int) -> bytes:
    return number.to_bytes(size, "little")
