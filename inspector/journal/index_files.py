"""A journal file's index, in the folder beside it (`FILE.index/`): for each record the writer
wrote, where its line is, its type, its index columns (column_store.py) and its searched text,
so that opening a saved session reads this instead of every line.

`lines` and `columns` hold one fixed-size row per seq (row `seq`), written in place, so a record
written again after a change replaces its rows and the rows are in journal order however late a
call finished. A row of zeros is a seq with no line. `lines` (where each line is, its type) is
what opening a session reads; `columns` (the filter's columns, durations, where the texts are)
is read when a filter or the hooks panel first needs it. `meta.json` says which state of the
journal file the index describes (size, mtime, inode); it is written last, after the rows, so
an index that does not match its journal, whatever the reason (a crash between the two, a file
edited or appended to by hand), is simply not used; it also counts the rows with a line, so
rows lost after it was written (a writer that failed half way) make it unused too. The folder is
private, as the journal is: its text holds every secret the journal does. What another user or
program may have put there is believed only as far as index_trust.py says."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import struct
import sys
import tempfile
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import compress
from pathlib import Path
from typing import IO, Any

from inspector.journal.column_store import NARROW_MAX, NO_DURATION, Columns, Dictionary
from inspector.journal.columns import COLUMN_NAMES, Value, values_of
from inspector.journal.index_trust import (
    is_own_folder,
    max_rows,
    max_text,
    open_index_file,
    read_index_file,
)
from inspector.journal.record_text import searched_text
from inspector.journal.records import RECORD_TYPES, Record

VERSION = 4
SUFFIX = ".index"
META, LINES, COLUMNS, VALUES, TEXT = "meta.json", "lines", "columns", "values.jsonl", "text"
META_SIZE = 512  # written in place, padded: a torn write is not JSON, and the index is not used
# Rows in native byte order, the 8-byte fields first so that each field sits at a multiple of
# its size and is read back as a strided view. A line: its offset plus one (0: no line), its
# size, its type. Columns: the text's offset plus one, the duration (NaN: none), the text's size,
# a code per column.
LINE = struct.Struct("=qIB")
LINE_SIZE = 16
COLUMN_ROW = struct.Struct(f"=qdI{len(COLUMN_NAMES)}I")
COLUMN_ROW_SIZE = -(-COLUMN_ROW.size // 8) * 8
FIRST_CODE = 5  # the first column's code is the sixth 4-byte field
READ_ROWS = 65_536  # rows read back at a time: the index's file is never held whole
FOLDER_MODE, FILE_MODE = 0o700, 0o600
# A hook's text may hold a lone surrogate, which UTF-8 cannot: kept as its own three bytes, so
# that it never reads as the ASCII of an escape (a search encodes its words the same way).
TEXT_ERRORS = "surrogatepass"
KIND_CODES = {name: code for code, name in enumerate(RECORD_TYPES)}  # as the store numbers them
KNOWN_KINDS = bytes(range(len(RECORD_TYPES)))


def index_folder(journal: Path) -> Path:
    return journal.with_name(journal.name + SUFFIX)


def index_elsewhere(journal: Path) -> IndexWriter:
    """A writer of `journal`'s index in a private temporary folder, removed when this process
    ends: for when the folder beside the journal cannot be (or may not be) written."""
    folder = Path(tempfile.mkdtemp(prefix="hook-inspector-index-")) / "index"
    atexit.register(shutil.rmtree, folder.parent, True)
    return IndexWriter(journal, folder)


@dataclass(frozen=True, slots=True)
class Row:
    seq: int
    offset: int  # where its line starts, plus one
    size: int
    kind: int
    codes: tuple[int, ...]
    duration: float | None
    text: tuple[int, int]  # offset plus one and size in the text file


def journal_state(fd_or_path: int | Path) -> dict[str, int]:
    status = os.stat(fd_or_path)
    return {"size": status.st_size, "mtime_ns": status.st_mtime_ns, "ino": status.st_ino}


class IndexWriter:
    """Writes the index of a journal file as its writer writes the file. Raises OSError when
    the folder cannot be made; the journal goes on without an index then. Its files are open
    only while a batch is written: a session may have many journals (and a process only so
    many open files)."""

    def __init__(self, journal: Path, folder: Path | None = None) -> None:
        """`folder`: somewhere else than beside the journal (that folder must not exist yet)."""
        self.folder = folder or index_folder(journal)
        self.dictionary = Dictionary()
        if folder is None:
            remove_index(journal)  # the journal file was emptied: so is its index
        self.folder.mkdir(mode=FOLDER_MODE)
        for name in (LINES, COLUMNS, VALUES, TEXT, META):
            with _opened(self.folder / name, os.O_CREAT | os.O_TRUNC):
                pass
        self._text_end = 0
        self._has_row = bytearray()  # per seq: whether it has a row yet
        self._records = 0  # seqs with a row

    def index(self, lines: list[tuple[Record, int, int]], journal: int | Path | None) -> list[Row]:
        """Index records whose lines the journal file now holds (record, offset, size), and
        say which state of the file the index now describes (None: none yet, see `describe`).
        Their rows, in the same order."""
        new_values: list[tuple[str, Value]] = []
        texts = [searched_text(record).lower().encode("utf-8", TEXT_ERRORS) for record, *_ in lines]
        places = self._add_texts(texts)
        rows = [
            Row(
                seq=record.seq,
                offset=offset + 1,
                size=size,
                kind=KIND_CODES.get(record.type, 0),
                codes=self.dictionary.codes(values_of(record), new_values),
                duration=getattr(record, "duration_ms", None),
                text=place,
            )
            for (record, offset, size), place in zip(lines, places, strict=True)
        ]
        self._write(rows, new_values, journal)
        return rows

    def _add_texts(self, texts: list[bytes]) -> list[tuple[int, int]]:
        """Append records' searched texts; where each is (offset plus one, size)."""
        data = b"".join(texts)
        with _opened(self.folder / TEXT, os.O_APPEND) as fd:
            if os.write(fd, data) != len(data):
                raise OSError("short write to the index's text file")
        places = []
        for text in texts:
            places.append((self._text_end + 1, len(text)))
            self._text_end += len(text)
        return places

    def _write(
        self, rows: list[Row], new_values: list[tuple[str, Value]], journal: int | Path | None
    ) -> None:
        if new_values:
            numbered = "".join(json.dumps([name, value]) + "\n" for name, value in new_values)
            with _opened(self.folder / VALUES, os.O_APPEND) as fd:
                os.write(fd, numbered.encode("utf-8", "backslashreplace"))
        runs = _runs(sorted(rows, key=lambda row: row.seq))
        with _opened(self.folder / LINES) as lines, _opened(self.folder / COLUMNS) as columns:
            for run in runs:
                line_rows = bytearray(LINE_SIZE * len(run))
                column_rows = bytearray(COLUMN_ROW_SIZE * len(run))
                for at, row in enumerate(run):
                    LINE.pack_into(line_rows, at * LINE_SIZE, row.offset, row.size, row.kind)
                    COLUMN_ROW.pack_into(column_rows, at * COLUMN_ROW_SIZE, *_columns(row))
                os.pwrite(lines, line_rows, run[0].seq * LINE_SIZE)
                os.pwrite(columns, column_rows, run[0].seq * COLUMN_ROW_SIZE)
        self._count(rows)
        if journal is not None:
            self.describe(journal)

    def describe(self, journal: int | Path) -> None:
        """Say which state of the journal file the index describes. An index of a whole file
        made by reading it says so only once every line is in (saved.py): one cut short, its
        reader stopped or killed, describes nothing and is never used."""
        state = journal_state(journal)
        meta = json.dumps({"version": VERSION, "journal": state, "records": self._records})
        with _opened(self.folder / META) as fd:
            os.pwrite(fd, meta.ljust(META_SIZE).encode("ascii"), 0)

    def _count(self, rows: list[Row]) -> None:
        has_row = self._has_row
        for row in rows:
            if row.seq >= len(has_row):
                has_row.extend(bytes(row.seq + 1 - len(has_row)))
            if not has_row[row.seq]:
                has_row[row.seq] = 1
                self._records += 1


@contextlib.contextmanager
def _opened(path: Path, flags: int = 0) -> Iterator[int]:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC | flags, FILE_MODE)
    try:
        yield fd
    finally:
        os.close(fd)


def _runs(rows: list[Row]) -> list[list[Row]]:
    """Rows of consecutive seqs together, each run one write per file."""
    runs: list[list[Row]] = []
    for row in rows:
        if runs and runs[-1][-1].seq + 1 == row.seq:
            runs[-1].append(row)
        elif runs and runs[-1][-1].seq == row.seq:
            runs[-1][-1] = row  # the same record twice in one flush: the later line
        else:
            runs.append([row])
    return runs


def _columns(row: Row) -> tuple[Any, ...]:
    duration = NO_DURATION if row.duration is None else row.duration
    return (row.text[0], duration, row.text[1], *row.codes)


def remove_index(journal: Path) -> None:
    """The journal's index folder gone (one of any version, by its files or its meta.json:
    never a folder of the user's that happens to have the name, nor another user's). Never
    raises: it runs when writing the index failed (a full disk, no descriptor left), and a
    meta.json it cannot remove describes an older state of the journal than the file's."""
    folder = index_folder(journal)
    if not is_own_folder(folder):
        return
    names = {LINES, COLUMNS, VALUES, TEXT, META}
    with contextlib.suppress(OSError):
        entries = list(folder.iterdir())
        if all(entry.is_file() for entry in entries) and (
            (folder / META).is_file() or all(entry.name in names for entry in entries)
        ):
            shutil.rmtree(folder, ignore_errors=True)


def replaceable(journal: Path) -> bool:
    """Whether an index may be written beside `journal`: nothing is there, or an index of the
    user's own of another version (a live writer's is of this one)."""
    folder = index_folder(journal)
    if not folder.exists() and not folder.is_symlink():
        return True
    try:
        meta = json.loads(read_index_file(folder, META, META_SIZE))
        return isinstance(meta, dict) and meta.get("version") != VERSION
    except (OSError, ValueError):
        return False


@dataclass(slots=True)
class SavedIndex:
    """An index read back: per record with a line, in seq order. Its columns are read when
    first asked for (`load_columns`). Without a folder, where the lines are was found by
    reading the journal and kept in memory only (no index could be written): no columns."""

    seqs: array[int]
    offsets: array[int]
    sizes: array[int]
    kinds: bytes
    folder: Path | None
    skip: int  # rows before the first (seq 0's, when no record has it)
    kept: bytes | None  # which of the rows after those have a line, when not all of them do
    journal: Path
    state: dict[str, int]  # the journal's, as the index described it when it was read

    @property
    def text_file(self) -> Path | None:
        return None if self.folder is None else self.folder / TEXT

    def open_text(self) -> IO[bytes]:
        """The text file, as index_trust.py opens an index's files: reads of it past its end
        come back short (a search of records it says nothing true of), never larger."""
        if self.folder is None:
            raise FileNotFoundError("no index was written")
        return os.fdopen(open_index_file(self.folder, TEXT, max_text(self.state["size"])), "rb")

    def load_columns(self) -> Columns:
        """The columns of the records with a line. Raises OSError or ValueError when the index
        changed or went since it was opened (a session still being written: its rows may now
        describe newer lines than the ones the records are read from), or holds what its
        writer never writes."""
        if self.folder is None:
            raise FileNotFoundError("no index was written")
        self._still_as_read()
        dictionary = Dictionary()
        limit = max_text(self.state["size"])
        try:
            with os.fdopen(open_index_file(self.folder, VALUES, limit), "rb") as values:
                for line in values:
                    name, value = json.loads(line)
                    dictionary.add(name, tuple(value) if isinstance(value, list) else value)
            os.close(open_index_file(self.folder, TEXT, limit))  # what a search will read
        except (LookupError, TypeError, RecursionError) as error:  # rows of another writer
            raise ValueError(f"the index's values are not its writer's: {error!r}") from None
        rows = self.skip + (len(self.seqs) if self.kept is None else len(self.kept))
        fields = _read_columns(self.folder, rows, dictionary, self.skip, self.kept)
        if any(len(field) != len(self.seqs) for field in fields.values()):
            raise ValueError("the index's columns do not match its lines")
        columns = Columns(dictionary)
        for name in COLUMN_NAMES:
            if not _all_below(fields[name], len(dictionary.values[name])):
                raise ValueError(f"the index's {name} codes are past its values")
            columns.codes[name] = fields[name]
        columns.text_offsets, columns.durations = fields["text-offsets"], fields["durations"]
        columns.text_sizes, columns.known = fields["text-sizes"], len(self.seqs)
        self._still_as_read()
        return columns

    def _still_as_read(self) -> None:
        if journal_state(self.journal) != self.state:
            raise ValueError(f"{self.journal} changed since it was opened")


def read_index(
    journal: Path, folder: Path | None = None, *, just_written: bool = False
) -> SavedIndex | None:
    """The index of `journal` (in `folder`, or beside it) when there is one that describes the
    file as it is now; `just_written`: one describing the file as it was when it was indexed
    (a journal still being written grows meanwhile: what was read is what it shows). Only an
    index the user may believe (index_trust.py), read no further than the journal's size
    allows, with as many rows as its writer counted and types the store knows."""
    folder = folder or index_folder(journal)
    try:
        meta = json.loads(read_index_file(folder, META, META_SIZE))
        state, records = meta["journal"], meta["records"]
        if meta["version"] != VERSION or not _is_state(state) or type(records) is not int:
            return None
        if not just_written and state != journal_state(journal):
            return None
        limit = LINE_SIZE * max_rows(state["size"])
        offsets, sizes, kinds = array("q"), array("I"), array("B")
        with os.fdopen(open_index_file(folder, LINES, limit), "rb") as file:
            while (chunk := file.read(READ_ROWS * LINE_SIZE)) and len(offsets) * LINE_SIZE < limit:
                whole = memoryview(chunk)[: len(chunk) - len(chunk) % LINE_SIZE]
                offsets.frombytes(whole.cast("q")[0::2].tobytes())
                sizes.frombytes(whole.cast("I")[2::4].tobytes())
                kinds.frombytes(whole[12::LINE_SIZE].tobytes())
    except (OSError, ValueError, LookupError, TypeError):
        return None  # no index, or not one this version wrote: the journal is read instead
    saved = saved_index(offsets, sizes, kinds, folder, journal, state)
    if len(saved.seqs) != records or saved.kinds.translate(None, KNOWN_KINDS):
        return None  # rows lost, or never its writer's
    return saved


def saved_index(
    offsets: array[int],
    sizes: array[int],
    kinds: array[int],
    folder: Path | None,
    journal: Path,
    state: dict[str, int],
) -> SavedIndex:
    """Rows per seq (0: no line) as a SavedIndex of the records with a line."""
    skip = 1 if offsets and offsets[0] == 0 else 0  # seq 0 is no record's, mostly
    seqs = array("q", range(skip, len(offsets)))
    offsets, sizes, kinds = offsets[skip:], sizes[skip:], kinds[skip:]
    kept = None
    if 0 in offsets:  # seqs with no line (calls never finished): leave their rows out
        kept = bytes(map(bool, offsets))
        seqs, offsets = _compressed(seqs, kept), _compressed(offsets, kept)
        sizes, kinds = _compressed(sizes, kept), _compressed(kinds, kept)
    return SavedIndex(seqs, offsets, sizes, kinds.tobytes(), folder, skip, kept, journal, state)


def _is_state(state: Any) -> bool:
    return (
        isinstance(state, dict)
        and all(type(state.get(key)) is int for key in ("size", "mtime_ns", "ino"))
        and state["size"] >= 0
    )


def _all_below(codes: array[Any], count: int) -> bool:
    """Whether every code numbers a value: in one C pass for a column a byte per code."""
    if codes.typecode == "B":
        return not codes.tobytes().translate(None, bytes(range(min(count, 256))))
    return not codes or max(codes) < count


def _read_columns(
    folder: Path, rows: int, dictionary: Dictionary, skip: int, kept: bytes | None
) -> dict[str, array[Any]]:
    """The columns file as one array per field, read a slice of rows at a time; a column with
    fewer than 256 values a byte per code, as the store keeps it (column_store.py)."""
    narrow = {name for name in COLUMN_NAMES if len(dictionary.values[name]) <= NARROW_MAX + 1}
    low = 0 if sys.byteorder == "little" else 3  # the byte of a code below 256
    fields: dict[str, array[Any]] = {
        "text-offsets": array("q"),
        "durations": array("d"),
        "text-sizes": array("I"),
        **{name: array("B" if name in narrow else "I") for name in COLUMN_NAMES},
    }
    eights, fours = COLUMN_ROW_SIZE // 8, COLUMN_ROW_SIZE // 4
    with os.fdopen(open_index_file(folder, COLUMNS, rows * COLUMN_ROW_SIZE), "rb") as file:
        while chunk := file.read(READ_ROWS * COLUMN_ROW_SIZE):
            whole = memoryview(chunk)[: len(chunk) - len(chunk) % COLUMN_ROW_SIZE]
            ints = whole.cast("I")
            fields["text-offsets"].frombytes(whole.cast("q")[0::eights].tobytes())
            fields["durations"].frombytes(whole.cast("d")[1::eights].tobytes())
            fields["text-sizes"].frombytes(ints[4::fours].tobytes())
            for index, name in enumerate(COLUMN_NAMES, FIRST_CODE):
                one = (
                    whole[index * 4 + low :: COLUMN_ROW_SIZE]
                    if name in narrow
                    else ints[index::fours]
                )
                fields[name].frombytes(one.tobytes())
    fields = {name: field[skip:] for name, field in fields.items()}
    if kept is not None:
        fields = {name: _compressed(field[: len(kept)], kept) for name, field in fields.items()}
    return fields


def _compressed(column: array[Any], keep: bytes) -> array[Any]:
    return array(column.typecode, compress(column, keep))
