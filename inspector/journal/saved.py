"""A saved session opened for reading: its records stay on disk, found through the journal's
index (index_files.py), and are read back as a view asks for them, so a session of a million
exchanges opens as fast as a small one and holds little memory.

A journal without an index that matches it (one shared without its folder, written by another
program, or edited by hand) is read, every line checked as load_journal checks it, and indexed:
beside it when there is no index there and its folder can be written to (so the next open is
fast), else in a temporary folder for this run.
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from inspector.journal.index_files import IndexWriter, Row, SavedIndex, index_folder, read_index
from inspector.journal.journal import Journal
from inspector.journal.jsonl import LINE_LIMIT, JournalLoadError, load_journal, scan_journal
from inspector.journal.records import Record
from inspector.journal.store import RecordStore

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
            saved = index_journal(path, line_limit, indexed)
        except SparseSeqs:  # numbered by hand, far apart: an index row per seq would not do
            return load_journal(path, line_limit)
    if not saved.seqs:
        raise JournalLoadError(f"{path}: its index lists no record")
    return Journal.over(RecordStore.over_index(path, saved))


class SparseSeqs(Exception):
    """A record's seq is far past the number of records read (a journal edited by hand)."""


def index_journal(
    path: Path, line_limit: int = LINE_LIMIT, indexed: BatchIndexed | None = None
) -> SavedIndex:
    """Read every line of `path` and index it: beside it when nothing is there yet, else in a
    temporary folder (an index beside it that does not match may be a live session's, still
    being written by its writer: it is never touched). The index says which file it describes
    only once every line is in, so one cut short is never used."""
    writer = _writer_for(path)
    try:
        batch: list[tuple[Record, int, int]] = []
        try:
            for count, (offset, size, record) in enumerate(scan_journal(path, line_limit), 1):
                if record.seq > SPARSE_FACTOR * count + SPARSE_SLACK:
                    raise SparseSeqs
                batch.append((record, offset, size))
                if len(batch) == SCAN_BATCH:
                    _index_batch(writer, batch, indexed)
                    batch = []
        except JournalLoadError:
            if batch and indexed is not None:  # the lines before the bad one are shown meanwhile
                _index_batch(writer, batch, indexed)
            raise
        if batch:
            _index_batch(writer, batch, indexed)
        writer.describe(path)
    except OSError as error:
        shutil.rmtree(writer.folder, ignore_errors=True)
        raise JournalLoadError(f"{path}: cannot index it: {error.strerror or error}") from None
    except BaseException:  # a bad line, seqs numbered by hand, a reader told to stop
        shutil.rmtree(writer.folder, ignore_errors=True)  # no index of a journal that is not one
        raise
    saved = read_index(path, writer.folder, just_written=True)
    if saved is None:
        raise JournalLoadError(f"{path}: its index could not be read back")
    return saved


def _index_batch(
    writer: IndexWriter, batch: list[tuple[Record, int, int]], indexed: BatchIndexed | None
) -> None:
    rows = writer.index(batch, None)
    if indexed is not None:
        indexed(writer, batch, rows)


def _writer_for(path: Path) -> IndexWriter:
    if not index_folder(path).exists():
        with contextlib.suppress(OSError):  # a folder that cannot be written to
            return IndexWriter(path)
    folder = Path(tempfile.mkdtemp(prefix="hook-inspector-index-")) / "index"
    atexit.register(shutil.rmtree, folder.parent, True)
    return IndexWriter(path, folder)
