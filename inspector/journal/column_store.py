"""The journal's index columns in memory: for each record written to the journal's file, its
value in every column (columns.py) as a small code, its duration, and where its searched text
(record_text.py) is in the index's text file. A filter over a long session tests the codes and
that text instead of reading records back; the hooks panel counts calls from them.

A record not written yet (in flight, or in a session without a file), or changed since its row
was written, is not known: a reader tests that record itself. Whether a record is known is its
code in KNOWN_BY (a column every record type has a value for)."""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from inspector.journal.columns import ABSENT, COLUMN_NAMES, Value

UNKNOWN, ABSENT_CODE = 0, 1  # codes every column has; a value's code is 2 or more
NO_DURATION = math.nan
NO_TEXT = 0  # text offsets are plus one
NARROW_MAX = 255
KNOWN_BY = "host"


class Dictionary:
    """Each column's distinct values, numbered in the order they were first seen."""

    def __init__(self) -> None:
        self.values: dict[str, list[Any]] = {name: [None, ABSENT] for name in COLUMN_NAMES}
        self._codes: dict[str, dict[Any, int]] = {name: {} for name in COLUMN_NAMES}

    def codes(self, values: Sequence[Value], new: list[tuple[str, Value]]) -> tuple[int, ...]:
        """The codes of one record's values; values seen for the first time go into `new`."""
        return tuple(
            self._code(name, value, new) for name, value in zip(COLUMN_NAMES, values, strict=True)
        )

    def _code(self, name: str, value: Value, new: list[tuple[str, Value]]) -> int:
        if value is ABSENT:
            return ABSENT_CODE
        codes = self._codes[name]
        key = _key(value)
        code = codes.get(key)
        if code is None:
            code = codes[key] = len(self.values[name])
            self.values[name].append(value)
            new.append((name, value))
        return code

    def add(self, name: str, value: Value) -> None:
        """A value read back from the index's file, in the order it was numbered."""
        self._code(name, value, [])


def _key(value: Value) -> Any:
    """A value's key in its column's numbering: True, 1 and 1.0 are one dict key but three
    values (in a tuple too); a string, as most values are, is its own key."""
    if type(value) is str:
        return value
    if type(value) is tuple:
        return tuple(map(_key, value))
    return (type(value), value)


class Columns:
    """Per journal position: every column's code, the duration and the searched text's place."""

    def __init__(self, dictionary: Dictionary | None = None) -> None:
        self.dictionary = dictionary or Dictionary()
        # a byte per code while a column has fewer than 256 values, four bytes after
        self.codes: dict[str, array[int]] = {name: array("B") for name in COLUMN_NAMES}
        self.durations = array("d")
        self.text_offsets = array("q")
        self.text_sizes = array("I")
        self.known = 0  # positions with codes: a filter over none of them reads records only
        self.version = 0  # changes with every change to the codes
        self._narrow: dict[str, tuple[int, bytes | None]] = {}

    @classmethod
    def unknown(cls, count: int) -> Columns:
        """Columns for `count` records none of which the index describes."""
        columns = cls()
        for _ in range(count):
            columns.append_unknown()
        return columns

    def append_unknown(self) -> None:
        self.version += 1
        for codes in self.codes.values():
            codes.append(UNKNOWN)
        self.durations.append(NO_DURATION)
        self.text_offsets.append(NO_TEXT)
        self.text_sizes.append(0)

    def set(
        self, position: int, codes: Iterable[int], duration: float | None, text: tuple[int, int]
    ) -> None:
        self.version += 1
        if self.codes[KNOWN_BY][position] == UNKNOWN:
            self.known += 1
        for name, code in zip(COLUMN_NAMES, codes, strict=True):
            column = self.codes[name]
            if code > NARROW_MAX and column.typecode == "B":
                column = self.codes[name] = array("I", column)
            column[position] = code
        self.durations[position] = NO_DURATION if duration is None else duration
        self.text_offsets[position], self.text_sizes[position] = text

    def extend(
        self,
        codes: Sequence[array[int]],
        durations: array[float],
        text_offsets: array[int],
        text_sizes: array[int],
    ) -> None:
        """Rows for positions after every one held, all known: each column's codes (in the
        order of COLUMN_NAMES, four bytes each), durations and text places, one array each."""
        self.version += 1
        for name, added in zip(COLUMN_NAMES, codes, strict=True):
            column = self.codes[name]
            if column.typecode == "B" and added and max(added) > NARROW_MAX:
                column = self.codes[name] = array("I", column)
            column.extend(added if column.typecode == added.typecode else array("B", added))
        self.durations.extend(durations)
        self.text_offsets.extend(text_offsets)
        self.text_sizes.extend(text_sizes)
        self.known += len(durations)

    def forget(self, position: int) -> None:
        """The record at `position` changed: its row no longer says what it holds."""
        if self.codes[KNOWN_BY][position] != UNKNOWN:
            self.codes[KNOWN_BY][position] = UNKNOWN
            self.known -= 1
            self.version += 1

    def narrow(self, name: str) -> bytes | None:
        """The column's codes a byte each, when it keeps them so (None otherwise): what
        bytes.translate maps in one pass. Kept until the codes change."""
        cached = self._narrow.get(name)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        codes = self.codes[name]
        narrow = codes.tobytes() if codes.typecode == "B" else None
        self._narrow[name] = (self.version, narrow)
        return narrow
