"""A saved session opened for reading: its records stay on disk, found through the journal's
index (index_files.py), and are read back as a view asks for them, so a session of a million
exchanges opens as fast as a small one and holds little memory.

A journal without an index that matches it (one shared without its folder, written by another
program, or edited by hand) is read, every line checked as load_journal checks it, and indexed:
beside it when there is no index there and its folder can be written to (so the next open is
fast), else in a temporary folder for this run, else (a full disk) nowhere: where each line is
is then kept in memory (unindexed.py). Each line read through an index is checked against its
row (store.py); one that is not where it says has the journal read again, that index left out.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

from inspector.journal.index_files import (
    IndexWriter,
    Row,
    SavedIndex,
    index_elsewhere,
    read_index,
    replaceable,
)
from inspector.journal.journal import Journal
from inspector.journal.jsonl import LINE_LIMIT, JournalLoadError, load_journal, scan_journal
from inspector.journal.records import Record
from inspector.journal.store import RecordStore
from inspector.journal.unindexed import lines_in_memory

SCAN_BATCH = 4096  # lines indexed together
# An index has a row per seq up to the largest: a journal whose seqs run further ahead of its
# records than this is read whole into memory instead (its numbers were edited by hand).
SPARSE_FACTOR, SPARSE_SLACK = 4, 1_000_000
# Told of each batch of lines as it is indexed: the writer, the lines, their rows (opening.py
# shows a journal's records while it is read).
BatchIndexed = Callable[[IndexWriter, list[tuple[Record, int, int]], list[Row]], None]


def open_journal(
    path: str | Path, line_limit: int = LINE_LIMIT, indexed: BatchIndexed | None = None
) -> Journal:
    """The journal at `path`, its records on disk. Raises JournalLoadError for a bad file.
    `indexed`: told of each batch, when the journal has to be read and indexed first."""
    path = Path(path)
    saved = read_index(path)
    if saved is None:
        try:
            saved = _read_unbelieved(path, line_limit, indexed)
        except SparseSeqs:  # numbered by hand, far apart: an index row per seq would not do
            return load_journal(path, line_limit)
    if not saved.seqs:
        raise JournalLoadError(f"{path}: its index lists no record")
    reread = partial(_read_again, path, line_limit)
    return Journal.over(RecordStore.over_index(path, saved, reread))


def _read_unbelieved(
    path: Path, line_limit: int, indexed: BatchIndexed | None = None
) -> SavedIndex:
    """The journal read, no index believed, and indexed; where no index can be written (a full
    disk), read again with where each line is kept in memory."""
    try:
        return index_journal(path, line_limit, indexed)
    except OSError:
        return lines_in_memory(path, _scanned(path, line_limit))


def _read_again(path: Path, line_limit: int) -> SavedIndex:
    """For a store whose index said a line is where it is not: the journal itself."""
    try:
        return _read_unbelieved(path, line_limit)
    except SparseSeqs:
        raise JournalLoadError(f"{path}: changed while it was read") from None


def _scanned(path: Path, line_limit: int) -> Iterator[tuple[int, int, Record]]:
    """scan_journal's lines; SparseSeqs when seqs run far ahead of the records read."""
    for count, (offset, size, record) in enumerate(scan_journal(path, line_limit), 1):
        if record.seq > SPARSE_FACTOR * count + SPARSE_SLACK:
            raise SparseSeqs
        yield offset, size, record


class SparseSeqs(Exception):
    """A record's seq is far past the number of records read (a journal edited by hand)."""


def index_journal(
    path: Path, line_limit: int = LINE_LIMIT, indexed: BatchIndexed | None = None
) -> SavedIndex:
    """Read every line of `path` and index it: beside it when nothing is there yet, else in a
    temporary folder (an index beside it that does not match may be a live session's, still
    being written by its writer: it is never touched). The index says which file it describes
    only once every line is in, so one cut short is never used. Raises OSError when no index
    can be written."""
    writer = _writer_for(path)
    try:
        batch: list[tuple[Record, int, int]] = []
        shown = False  # a first batch went to `indexed`: the views may be up already
        try:
            for offset, size, record in _scanned(path, line_limit):
                batch.append((record, offset, size))
                if len(batch) == SCAN_BATCH:
                    _index_batch(writer, batch, indexed)
                    batch, shown = [], True
        except JournalLoadError:
            # The lines before a bad one are shown meanwhile, once the first screen is; a bad
            # line among the first batch refuses the whole file, as load_journal does.
            if batch and shown and indexed is not None:
                _index_batch(writer, batch, indexed)
            raise
        if batch:
            _index_batch(writer, batch, indexed)
        writer.describe(path)
    except BaseException:  # a bad line, seqs numbered by hand, a reader told to stop
        shutil.rmtree(writer.folder, ignore_errors=True)  # no index of a journal that is not one
        raise
    saved = read_index(path, writer.folder, just_written=True)
    if saved is None:
        raise OSError(f"{path}: its index could not be read back")
    return saved


def _index_batch(
    writer: IndexWriter, batch: list[tuple[Record, int, int]], indexed: BatchIndexed | None
) -> None:
    rows = writer.index(batch, None)
    if indexed is not None:
        indexed(writer, batch, rows)


def _writer_for(path: Path) -> IndexWriter:
    if replaceable(path):  # nothing there, or an index of the user's of another version
        with contextlib.suppress(OSError):  # a folder that cannot be written to
            return IndexWriter(path)
    return index_elsewhere(path)
