"""A journal file's index, in the folder beside it (`FILE.index/`): for each record the writer
wrote, where its line is, its type, its index columns (column_store.py) and its searched text,
so that opening a saved session reads this instead of every line.

Every per-record file holds one fixed-size row per seq (row seq-1), written in place, so a record
written again after a change replaces its row and the rows are in journal order however late a
call finished. A row of zeros is a seq with no line. `meta.json` says which state of the journal
file the index describes (size, mtime, inode); it is written last, after the rows, so an index
that does not match its journal, whatever the reason (a crash between the two, a file edited or
appended to by hand), is simply not used. The folder is private, as the journal is: its text
holds every secret the journal does."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from array import array
from dataclasses import dataclass
from itertools import compress
from pathlib import Path
from typing import Any

from inspector.journal.column_store import NO_DURATION, Columns, Dictionary
from inspector.journal.columns import COLUMN_NAMES, Value, values_of
from inspector.journal.record_text import searched_text
from inspector.journal.records import RECORD_TYPES, Record

VERSION = 1
SUFFIX = ".index"
META, VALUES, TEXT = "meta.json", "values.jsonl", "text"
# name -> array typecode; offsets are plus one, as in memory (0: no line, no text)
ROW_FILES = {
    "offsets": "q",
    "sizes": "I",
    "kinds": "B",
    "durations": "d",
    "text-offsets": "q",
    "text-sizes": "I",
    **{f"col-{name}": "I" for name in COLUMN_NAMES},
}
FOLDER_MODE, FILE_MODE = 0o700, 0o600
KIND_CODES = {name: code for code, name in enumerate(RECORD_TYPES)}  # as the store numbers them


def index_folder(journal: Path) -> Path:
    return journal.with_name(journal.name + SUFFIX)


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
    the folder cannot be made; the journal goes on without an index then."""

    def __init__(self, journal: Path, folder: Path | None = None) -> None:
        """`folder`: somewhere else than beside the journal (that folder must not exist yet)."""
        self.folder = folder or index_folder(journal)
        self.dictionary = Dictionary()
        if folder is None:
            remove_index(journal)  # the journal file was emptied: so is its index
        self.folder.mkdir(mode=FOLDER_MODE)
        self._fds: dict[str, int] = {}
        try:
            for name in (*ROW_FILES, VALUES, TEXT):
                self._fds[name] = os.open(
                    self.folder / name,
                    os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC,
                    FILE_MODE,
                )
        except OSError:
            self.close()
            raise
        self._text_end = 0

    def index(self, lines: list[tuple[Record, int, int]], journal: int | Path) -> list[Row]:
        """Index records whose lines the journal file now holds (record, offset, size), and
        say which state of the file the index now describes. Their rows, in the same order."""
        new_values: list[tuple[str, Value]] = []
        texts = [
            searched_text(record).lower().encode("utf-8", "backslashreplace")
            for record, *_ in lines
        ]
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
        if os.write(self._fds[TEXT], data) != len(data):
            raise OSError("short write to the index's text file")
        places = []
        for text in texts:
            places.append((self._text_end + 1, len(text)))
            self._text_end += len(text)
        return places

    def _write(
        self, rows: list[Row], new_values: list[tuple[str, Value]], journal: int | Path
    ) -> None:
        if new_values:
            lines = "".join(json.dumps([name, value]) + "\n" for name, value in new_values)
            os.write(self._fds[VALUES], lines.encode("utf-8", "backslashreplace"))
        for run in _runs(sorted(rows, key=lambda row: row.seq)):
            first = run[0].seq - 1
            for name, typecode in ROW_FILES.items():
                data = array(typecode, (_field(row, name) for row in run))
                os.pwrite(self._fds[name], data.tobytes(), first * data.itemsize)
        meta = {"version": VERSION, "journal": journal_state(journal)}
        temporary = self.folder / (META + ".new")
        temporary.write_text(json.dumps(meta), encoding="ascii")
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, self.folder / META)

    def close(self) -> None:
        for fd in self._fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds.clear()


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


def _field(row: Row, name: str) -> Any:
    if name == "offsets":
        return row.offset
    if name == "sizes":
        return row.size
    if name == "kinds":
        return row.kind
    if name == "durations":
        return NO_DURATION if row.duration is None else row.duration
    if name == "text-offsets":
        return row.text[0]
    if name == "text-sizes":
        return row.text[1]
    return row.codes[COLUMN_NAMES.index(name[4:])]


def remove_index(journal: Path) -> None:
    """The journal's index folder gone (only what an index holds: never a folder of the user's
    that happens to have the name)."""
    folder = index_folder(journal)
    if not folder.is_dir() or folder.is_symlink():
        return
    names = {*ROW_FILES, VALUES, TEXT, META, META + ".new"}
    if all(entry.name in names and entry.is_file() for entry in folder.iterdir()):
        shutil.rmtree(folder, ignore_errors=True)


@dataclass(slots=True)
class SavedIndex:
    """An index read back: per record with a line, in seq order."""

    seqs: array[int]
    offsets: array[int]
    sizes: array[int]
    kinds: bytes
    columns: Columns
    text_file: Path


def read_index(journal: Path, folder: Path | None = None) -> SavedIndex | None:
    """The index of `journal` (in `folder`, or beside it) when there is one that describes the
    file as it is now."""
    folder = folder or index_folder(journal)
    try:
        meta = json.loads((folder / META).read_text(encoding="ascii"))
        if meta.get("version") != VERSION or meta.get("journal") != journal_state(journal):
            return None
        rows = {name: _read_rows(folder / name, typecode) for name, typecode in ROW_FILES.items()}
        dictionary = Dictionary()
        with (folder / VALUES).open(encoding="utf-8") as values:
            for line in values:
                name, value = json.loads(line)
                dictionary.add(name, tuple(value) if isinstance(value, list) else value)
    except (OSError, ValueError, TypeError, AttributeError):
        return None  # no index, or not one this version wrote: the journal is read instead
    return _saved(rows, dictionary, folder / TEXT)


def _read_rows(path: Path, typecode: str) -> array[Any]:
    rows = array(typecode)
    rows.frombytes(path.read_bytes())
    return rows


def _saved(rows: dict[str, array[Any]], dictionary: Dictionary, text: Path) -> SavedIndex:
    count = min(len(column) for column in rows.values())
    for column in rows.values():
        del column[count:]  # a crash between two files' writes: the shorter says
    present = rows["offsets"]
    if 0 in present:  # seqs with no line (calls never finished): leave their rows out
        keep = bytes(offset != 0 for offset in present)
        rows = {name: _compressed(column, keep) for name, column in rows.items()}
        seqs = _compressed(array("q", range(1, count + 1)), keep)
    else:
        seqs = array("q", range(1, count + 1))
    columns = Columns(dictionary)
    for name in COLUMN_NAMES:
        columns.codes[name] = rows[f"col-{name}"]
    columns.durations = rows["durations"]
    columns.text_offsets = rows["text-offsets"]
    columns.text_sizes = rows["text-sizes"]
    columns.known = len(seqs)
    return SavedIndex(
        seqs=seqs,
        offsets=rows["offsets"],
        sizes=rows["sizes"],
        kinds=rows["kinds"].tobytes(),
        columns=columns,
        text_file=text,
    )


def _compressed(column: array[Any], keep: bytes) -> array[Any]:
    return array(column.typecode, compress(column, keep))
