"""The journal's records in order, most of them on disk in a long session.

A record is an object in memory until the journal's file holds its final line; then, once more
than `keep` records are in memory, the oldest such records are let go and read back from that
line when asked for (the last few read are kept, so scrolling does not read each one again).
Unfinished records and records never written stay in memory. What holds a record's object (a
call in flight, a view's row) keeps that object; a later change to it is written again, and the
next read gets the new line.

Without a file (`attach_file` never called) it is a list of records, as it always was.

Beside the records, `columns` holds each written record's index columns (column_store.py), and
`text_blocks` reads records' searched text from the index's text file; a saved session opened
through its index (`over_index`) starts with every record on disk only."""

from __future__ import annotations

import json
import os
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import compress, repeat
from operator import add
from pathlib import Path
from typing import IO, overload

from inspector.journal.column_store import NO_DURATION, Columns
from inspector.journal.columns import COLUMN_NAMES, Value
from inspector.journal.index_files import Row, SavedIndex
from inspector.journal.index_trust import StaleIndex, is_whole_line
from inspector.journal.records import RECORD_TYPES, Exchange, Record, record_from_json

KEEP = 20_000  # records held in memory at least, the newest ones
READ_BACK_CACHE = 1024  # records read back from the file, kept for the next ask
READ_BLOCK = 4096  # records read back together when many are asked for in turn
NOT_WRITTEN = 0  # offsets are kept plus one
KINDS: list[type[Record]] = list(RECORD_TYPES.values())  # and any other record type seen
KIND_CODE = {kind: code for code, kind in enumerate(KINDS)}


class RecordStore(Sequence[Record]):
    def __init__(self, keep: int | None = None) -> None:
        self.keep = KEEP if keep is None else keep
        self._items: list[Record | None] = []  # None: on disk only
        self._seqs = array("q")
        self._offsets = array("q")  # where the record's latest line starts in the file, plus one
        self._sizes = array("I")
        self._kinds = bytearray()  # each record's type, as its place in KINDS
        self._in_memory = 0
        self._written: deque[int] = deque()  # positions with a line on disk, oldest first
        self._read_back: OrderedDict[int, Record] = OrderedDict()
        self._path: Path | None = None
        self._reader: IO[bytes] | None = None
        self._columns: Columns | None = Columns()
        self._text_file: Path | None = None
        self._text_reader: IO[bytes] | None = None
        self._text_size: int | None = None  # a saved session's text file's, once opened
        self.saved: SavedIndex | None = None  # a saved session's index, when opened through it
        self._columns_lock = threading.Lock()
        # A saved session's: each line read through its index is checked against its row, and
        # when one is not where the row says, the journal is read again (`_reread`) and the
        # records found anew (`generation` counts how often: positions changed meaning).
        self._journal_size: int | None = None
        self._reread: Callable[[], SavedIndex] | None = None
        self.generation = 0
        self._told_of_reread: list[Callable[[], object]] = []

    @classmethod
    def over_index(
        cls, path: Path, saved: SavedIndex, reread: Callable[[], SavedIndex] | None = None
    ) -> RecordStore:
        """A saved journal's records, all on disk, as its index says where they are. `reread`:
        the journal read again without that index, should a line not be where it says."""
        store = cls()
        store._reader = path.open("rb")  # now, not on a first read that two threads may share
        store._path, store._reread = path, reread
        store._take(saved)
        return store

    def _take(self, saved: SavedIndex) -> None:
        self._items = [None] * len(saved.seqs)
        self._seqs, self._offsets, self._sizes = saved.seqs, saved.offsets, saved.sizes
        self._kinds = bytearray(saved.kinds)
        self._read_back.clear()
        self._journal_size = saved.state["size"]
        if self._text_reader is not None:
            self._text_reader.close()
        self._text_file, self._text_reader, self._text_size = saved.text_file, None, None
        self.saved, self._columns = saved, None  # read when first asked for

    def _read_journal_itself(self) -> None:
        """A line was not where the index said: the journal read again, once (a journal that
        keeps changing while it is read is an error, StaleIndex)."""
        reread, self._reread = self._reread, None
        if reread is None:
            raise StaleIndex(f"{self._path} changed while it was read")
        self._take(reread())
        self.generation += 1
        for told in list(self._told_of_reread):
            told()

    def on_reread(self, told: Callable[[], object]) -> None:
        """Have `told` called whenever the journal was read again (`generation`), in whichever
        thread found the index stale."""
        self._told_of_reread.append(told)

    @classmethod
    def growing(cls, path: Path, text_file: Path, first: ReadPiece) -> RecordStore:
        """A saved journal's records as a reader of its file adds them (opening.py), starting
        with its `first` (kept in memory: the first screen and the hooks panel read them at
        once); the later ones stay on disk. The index's text file is opened now, so that what
        was read stays searchable should its folder go (a bad line found further on)."""
        store = cls()
        store._path, store._text_file = path, text_file
        store._reader, store._text_reader = path.open("rb"), text_file.open("rb")
        store.extend_read(first)
        store._items[:] = first.records
        store._in_memory = len(first.records)
        return store

    def extend_read(self, piece: ReadPiece) -> None:
        """Records read from the file with their index rows, after every one held (their seqs
        greater), at once; on disk only."""
        self._items.extend(repeat(None, len(piece.seqs)))
        self._seqs.extend(piece.seqs)
        self._offsets.extend(piece.offsets)
        self._sizes.extend(piece.sizes)
        self._kinds.extend(piece.kinds)
        columns = self.columns
        for name, value in piece.values:
            columns.dictionary.add(name, value)
        columns.extend(piece.codes, piece.durations, piece.text_offsets, piece.text_sizes)

    def same_columns_as(self, growing: RecordStore) -> None:
        """`growing` holds the same records in the same places, its columns made as the index
        of this one was (opening.py): they are this one's too, not read again from the index.
        Records in other places (a line that came late): this one reads its own."""
        if self.saved is not None and self._columns is None and growing.seqs() == self._seqs:
            self._columns = growing.columns

    @property
    def columns(self) -> Columns:
        """The index columns; a saved session's are read from its index when first asked for
        (a filter, the hooks panel), not when it opens. Should they no longer be readable,
        every record is tested one by one instead."""
        columns = self._columns
        if columns is None:
            with self._columns_lock:  # the hooks panel may ask from its thread
                if self._columns is None:
                    self._columns = self._saved_columns()
                columns = self._columns
        return columns

    def _saved_columns(self) -> Columns:
        assert self.saved is not None
        try:
            return self.saved.load_columns()
        except (OSError, ValueError):
            return Columns.unknown(len(self))

    def attach_file(self, path: Path, text_file: Path | None = None) -> None:
        """Records written to `path` (by the journal's writer) may be let go from memory; their
        searched text is in `text_file` when the writer keeps an index."""
        self._path, self._text_file = path, text_file

    def close(self) -> None:
        for reader in (self._reader, self._text_reader):
            if reader is not None:
                reader.close()
        self._reader = self._text_reader = None

    # ---- the sequence ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> list[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | list[Record]:
        if isinstance(index, slice):
            return [self._record(position) for position in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self._items)
        if not 0 <= index < len(self._items):
            raise IndexError("record index out of range")
        return self._record(index)

    def __iter__(self) -> Iterator[Record]:
        """Should the journal be read again on the way (its index found stale), on from the
        record after the last one given, as the journal itself has them."""
        position, generation, last = 0, self.generation, -1
        while position < len(self._items):
            record = self._record_or_none(position)
            if generation != self.generation:
                position, generation = bisect_right(self._seqs, last), self.generation
                continue
            assert record is not None
            yield record
            position, last = position + 1, record.seq

    def __reversed__(self) -> Iterator[Record]:
        position, generation, last = len(self._items) - 1, self.generation, None
        while position >= 0:
            record = self._record_or_none(position)
            if generation != self.generation:
                ahead = len(self._seqs) if last is None else bisect_left(self._seqs, last)
                position, generation = ahead - 1, self.generation
                continue
            assert record is not None
            yield record
            position, last = position - 1, record.seq

    def _record_or_none(self, position: int) -> Record | None:
        """None: the journal was read again and has fewer records than `position`."""
        try:
            return self._record(position)
        except IndexError:
            return None

    def seqs(self) -> array[int]:
        """Each record's seq, in journal order (not a copy: do not change it)."""
        return self._seqs

    def last_seq(self) -> int:
        return self._seqs[-1] if self._seqs else 0

    def position_of(self, seq: int) -> int | None:
        position = bisect_left(self._seqs, seq)
        if position < len(self._seqs) and self._seqs[position] == seq:
            return position
        return None

    def kind_codes(self) -> bytearray:
        """Each record's type, as its place in KINDS (not a copy: do not change it)."""
        return self._kinds

    def each(self, positions: list[int]) -> Iterator[tuple[int, Record]]:
        """The records at `positions` (in journal order), with them; those on disk only are read
        a block at a time, not one seek and read each, and not kept."""
        items = self._items
        for start in range(0, len(positions), READ_BLOCK):
            block = positions[start : start + READ_BLOCK]
            try:
                lines = self._lines([p for p in block if items[p] is None])
                records = [
                    items[p] or self._read_back.get(p) or self._checked(p, lines[p]) for p in block
                ]
            except StaleIndex:
                self._read_journal_itself()  # the positions asked for are an older reading's
                yield from self.each([p for p in positions[start:] if p < len(self._items)])
                return
            yield from zip(block, records, strict=True)

    def text_blocks(self, positions: list[int]) -> Iterator[TextBlock]:
        """The searched text, lowercased, of the records at `positions` that have it in the
        index (the others are left out), a block of records at a time read in one piece, so
        that a search can look at the whole block first and at each record's text only when
        the block holds a word."""
        for first in range(0, len(positions), READ_BLOCK):
            block = positions[first : first + READ_BLOCK]
            offsets, sizes = self._text_places(block)
            if 0 in offsets:  # records the index has no text for: left out
                kept = list(map(bool, offsets))
                block = list(compress(block, kept))
                offsets, sizes = list(compress(offsets, kept)), list(compress(sizes, kept))
            if not block:
                continue
            span = _span(offsets, sizes)
            if span is not None:
                start, length = span
                data = self._text(start, length)
                yield TextBlock(data, block, [o - start - 1 for o in offsets], sizes)
            else:
                for p, offset, size in zip(block, offsets, sizes, strict=True):
                    yield TextBlock(self._text(offset - 1, size), [p], [0], [size])

    def _text(self, start: int, length: int) -> bytes:
        """A piece of the text file; of a saved session's, none past the file's end (its
        columns may say otherwise: not one of its writer's)."""
        reader = self._open_text()
        if self._text_size is not None:
            length = max(0, min(length, self._text_size - start))
        return _piece(reader, start, length)

    def _text_places(self, block: list[int]) -> tuple[Sequence[int], Sequence[int]]:
        """The text offsets (plus one) and sizes of the records at `block`; a slice of the
        columns when the positions follow each other, as they mostly do."""
        offsets, sizes = self.columns.text_offsets, self.columns.text_sizes
        if block[-1] - block[0] == len(block) - 1:
            return offsets[block[0] : block[-1] + 1], sizes[block[0] : block[-1] + 1]
        return list(map(offsets.__getitem__, block)), list(map(sizes.__getitem__, block))

    def _lines(self, positions: list[int]) -> dict[int, bytes]:
        """The lines of these records on disk only, read in one piece from the first to the
        last (they are near each other: the file is in journal order, give or take rewrites)."""
        if not positions:
            return {}
        offsets, sizes = self._offsets, self._sizes
        reader = self._open_reader()
        if self._journal_size is not None:
            return self._checked_lines(reader, positions)
        span = _span([offsets[p] for p in positions], [sizes[p] for p in positions])
        if span is None:
            return {p: _piece(reader, offsets[p] - 1, sizes[p]) for p in positions}
        first, length = span
        data = _piece(reader, first, length)
        return {
            p: data[offsets[p] - 1 - first : offsets[p] - 1 - first + sizes[p]] for p in positions
        }

    def _checked_lines(self, reader: IO[bytes], positions: list[int]) -> dict[int, bytes]:
        """_lines through a saved index: each a whole line within the journal, read with the
        byte before it; StaleIndex otherwise."""
        starts = [self._offsets[p] - 1 for p in positions]
        sizes = [self._sizes[p] for p in positions]
        if max(map(add, starts, sizes)) > (self._journal_size or 0) or min(starts) < 0:
            raise StaleIndex("a row past the journal's end")
        span = _span([start + 1 for start in starts], sizes)
        if span is not None:
            first, length = span
            data, before = _with_byte_before(reader, first, length)
            pieces = [(data, start - first + before) for start in starts]
        else:
            pieces = list(map(partial(_with_byte_before, reader), starts, sizes))
        lines: dict[int, bytes] = {}
        for p, (data, at), size in zip(positions, pieces, sizes, strict=True):
            if not is_whole_line(data, at, size):
                raise StaleIndex("a line is not where its row says")
            lines[p] = data[at : at + size]
        return lines

    def in_memory(self) -> int:
        """How many records are objects held by the store (the rest are on disk only)."""
        return self._in_memory

    # ---- changes -----------------------------------------------------------------------------

    def append(self, record: Record) -> None:
        """Add a record; its seq must be greater than every seq before it."""
        self._items.append(record)
        self._seqs.append(record.seq)
        self._offsets.append(NOT_WRITTEN)
        self._sizes.append(0)
        self._kinds.append(_kind_code(type(record)))
        self.columns.append_unknown()
        self._in_memory += 1

    def changed(self, record: Record) -> None:
        """`record` was changed (the journal's amend): until its new line is written, its index
        row is out of date, and readers of the columns test the record itself."""
        columns = self._columns
        if columns is not None and columns.known:
            position = self.position_of(record.seq)
            if position is not None:
                columns.forget(position)

    def index_lost(self) -> None:
        """The writer could not go on with the index: no column or text of it is used again."""
        self._text_file = None
        self.saved = None
        self._columns = Columns.unknown(len(self))

    def written(self, record: Record, offset: int, size: int, row: Row | None = None) -> None:
        """The journal's file holds `record`'s latest line, `size` bytes at `offset`; `row`:
        its index row, when the writer keeps an index."""
        position = self.position_of(record.seq)
        if position is None or self._path is None:
            return
        if row is not None:
            self.columns.set(position, row.codes, row.duration, row.text)
        first_time = self._offsets[position] == NOT_WRITTEN
        self._offsets[position], self._sizes[position] = offset + 1, size
        self._read_back.pop(position, None)  # an older reading of it is out of date
        if first_time:
            self._written.append(position)
        self._let_go()

    def _let_go(self) -> None:
        while self._in_memory > self.keep and self._written:
            position = self._written.popleft()
            if self._items[position] is not None:
                self._items[position] = None
                self._in_memory -= 1

    # ---- reading back --------------------------------------------------------------------------

    def _record(self, position: int) -> Record:
        record = self._items[position]
        if record is not None:
            return record
        cached = self._read_back.get(position)
        if cached is not None:
            self._read_back.move_to_end(position)
            return cached
        record = self._read(position)
        self._read_back[position] = record
        if len(self._read_back) > READ_BACK_CACHE:
            self._read_back.popitem(last=False)
        return record

    def _read(self, position: int) -> Record:
        start, size = self._offsets[position] - 1, self._sizes[position]
        if self._journal_size is None:
            return _record_of(_piece(self._open_reader(), start, size))
        try:
            if start < 0 or start + size > self._journal_size:
                raise StaleIndex("a row past the journal's end")
            data, at = _with_byte_before(self._open_reader(), start, size)
            if not is_whole_line(data, at, size):
                raise StaleIndex("a line is not where its row says")
            return self._checked(position, data[at:])
        except StaleIndex:
            self._read_journal_itself()
        return self[position]  # as the journal itself numbers them now

    def _checked(self, position: int, line: bytes) -> Record:
        """The record of a line read back; through a saved index, StaleIndex unless it is the
        record the row says (its seq and type)."""
        if self._journal_size is None:
            return _record_of(line)
        try:
            record = _record_of(line)
        except (ValueError, LookupError, TypeError, RecursionError) as error:
            raise StaleIndex(f"not the line of a record: {error}") from None
        if record.seq != self._seqs[position] or _kind_code(type(record)) != self._kinds[position]:
            raise StaleIndex("a line is not the one its row says")
        return record

    def _open_reader(self) -> IO[bytes]:
        assert self._path is not None  # a record is let go only once its file holds it
        if self._reader is None:
            self._reader = self._path.open("rb")
        return self._reader

    def _open_text(self) -> IO[bytes]:
        assert self._text_file is not None  # texts have offsets only when there is a text file
        if self._text_reader is None:
            saved = self.saved
            if saved is None:
                self._text_reader = self._text_file.open("rb")
            else:  # complete: its size is read once
                self._text_reader = saved.open_text()
                self._text_size = os.fstat(self._text_reader.fileno()).st_size
        return self._text_reader


def _kind_code(kind: type[Record]) -> int:
    code = KIND_CODE.get(kind)
    if code is None:
        code = KIND_CODE[kind] = len(KINDS)
        KINDS.append(kind)
    return code


@dataclass(slots=True)
class ReadPiece:
    """Records read from a journal's file and indexed, in seq order, laid out as the store
    keeps them (built by the reader's thread, added by the views' at once), and the column
    values the index numbered since the piece before, in the order it numbered them. The
    records themselves only when asked for: a piece is on its way for a moment, and a million
    records passing through memory together with what lives on would scatter it."""

    records: list[Record]
    seqs: array[int]
    offsets: array[int]  # plus one
    sizes: array[int]
    kinds: bytes
    codes: list[array[int]]  # per column, in the order of COLUMN_NAMES
    durations: array[float]
    text_offsets: array[int]
    text_sizes: array[int]
    values: list[tuple[str, Value]]

    @classmethod
    def of(
        cls,
        lines: list[tuple[int, int, int, int, Row]],
        values: list[tuple[str, Value]],
        records: list[Record],
    ) -> ReadPiece:
        """`lines`: each record's seq, type (its place in KINDS), where its line is (offset,
        size) and its index row; `records`: the records themselves when they are to be kept."""
        rows = [row for *_line, row in lines]
        codes = list(zip(*(row.codes for row in rows), strict=True)) or [()] * len(COLUMN_NAMES)
        return cls(
            records=records,
            seqs=array("q", [seq for seq, *_rest in lines]),
            offsets=array("q", [offset + 1 for _seq, _kind, offset, *_rest in lines]),
            sizes=array("I", [size for *_place, size, _row in lines]),
            kinds=bytes(kind for _seq, kind, *_rest in lines),
            codes=[array("I", column) for column in codes],
            durations=array(
                "d", [NO_DURATION if row.duration is None else row.duration for row in rows]
            ),
            text_offsets=array("q", [row.text[0] for row in rows]),
            text_sizes=array("I", [row.text[1] for row in rows]),
            values=values,
        )


class TextBlock:
    """Records' searched texts read together: `data`, and where each record's text starts in it
    and how long it is, in the order of `positions`."""

    __slots__ = ("data", "positions", "sizes", "starts")

    def __init__(
        self, data: bytes, positions: list[int], starts: list[int], sizes: Sequence[int]
    ) -> None:
        self.data, self.positions, self.starts, self.sizes = data, positions, starts, sizes

    def bounds(self) -> tuple[list[int], list[int]]:
        """Where each record's text starts and ends in `data`."""
        return self.starts, list(map(add, self.starts, self.sizes))


def _span(offsets: Sequence[int], sizes: Sequence[int]) -> tuple[int, int] | None:
    """Where to read pieces at `offsets` (plus one) of `sizes` in one read: its start and
    length; None when rewrites spread them too far apart, to be read one at a time."""
    start = min(offsets) - 1
    length = max(map(add, offsets, sizes)) - 1 - start
    return (start, length) if length <= READ_BLOCK * 64 * 1024 else None


def _piece(reader: IO[bytes], offset: int, size: int) -> bytes:
    """Positional: no shared file offset, so a thread (the hooks panel's fold of a saved
    session) can read records while the lists read theirs."""
    return os.pread(reader.fileno(), size, offset)


def _with_byte_before(reader: IO[bytes], start: int, size: int) -> tuple[bytes, int]:
    """The piece at `start` read with the byte before it (none at the file's start), and where
    the piece begins in what was read."""
    before = min(start, 1)
    return _piece(reader, start - before, size + before), before


def _record_of(line: bytes) -> Record:
    record = record_from_json(json.loads(line))
    if not record.host:
        record.host = host_before_records_named_it(record)
    return record


def host_before_records_named_it(record: Record) -> str:
    """Journals written before every record carried its host still open: there the only trace
    is a command hook's method, the host's own event name (j-cli's snake_case, Claude Code's
    PascalCase); every other record was PicoClaw's."""
    method = getattr(record, "method", "")
    if not method or method.startswith("hook.") or type(record) is not Exchange:
        return "picoclaw"
    return "jcli" if method.islower() else "claude"
