"""The journal on disk: one JSON object per line, flushed often, loadable again."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import shutil
import stat
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import IO

from inspector.journal.index_files import (
    TEXT,
    IndexWriter,
    Row,
    index_elsewhere,
    index_folder,
    remove_index,
)
from inspector.journal.journal import Journal
from inspector.journal.private_file import JournalFileError, open_private_bytes
from inspector.journal.records import (
    STATUS_HELD,
    STATUS_PENDING,
    Record,
    record_from_json,
)
from inspector.journal.store import RecordStore, host_before_records_named_it
from inspector.jsonrpc.framing import KEEP_LIMIT
from inspector.safe_files import open_regular, too_large

FLUSH_INTERVAL_S = 0.1
# A line holds at most a request and a response, each with its raw line, each up to KEEP_LIMIT.
LINE_LIMIT = 4 * KEEP_LIMIT
UNFINISHED = frozenset({STATUS_PENDING, STATUS_HELD})
ONE_PER_LINE = 'a journal holds one JSON record per line, each an object with a "type"'


def is_final(record: Record) -> bool:
    return getattr(record, "status", None) not in UNFINISHED


def dumps(record: Record) -> str:
    return json.dumps(record.to_json(), ensure_ascii=False, default=str)


def line_of(record: Record) -> bytes:
    """The record's line in a journal file. A hook's JSON may carry a lone surrogate, which
    UTF-8 cannot hold; it can only sit inside a JSON string, where backslashreplace writes back
    the same escape."""
    return (dumps(record) + "\n").encode("utf-8", "backslashreplace")


class JsonlWriter:
    """Streams finished records to a file, at most FLUSH_INTERVAL_S after they finish, so a crash
    loses at most the last fraction of a second. Records are serialised at flush time, so the
    touches that follow a call's end (the action the host took) land in the same line.

    Attached `as_store`, the file is also where the journal keeps what it lets go from memory
    (see store.py): each line written is reported to the journal's records, with where it is.
    A regular file gets an index beside it (index_files.py), so that it opens fast later."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._file: IO[bytes] = open_private_bytes(self.path)  # raises JournalFileError
        self._position = 0  # bytes written so far: where the next line starts
        self._waiting: dict[int, Record] = {}
        self._flush_scheduled = False
        self._unsubscribe: list[Callable[[], None]] = []
        self._store: RecordStore | None = None
        self._index: IndexWriter | None = None
        if stat.S_ISREG(os.fstat(self._file.fileno()).st_mode):
            self._index = _index_writer(self.path)

    def attach(self, journal: Journal, *, as_store: bool = False) -> JsonlWriter:
        if as_store and stat.S_ISREG(os.fstat(self._file.fileno()).st_mode):
            self._store = journal.records
            text = None
            if self._index is not None:  # the store keeps the codes the index numbers
                text = self._index.folder / TEXT
                self._store.columns.dictionary = self._index.dictionary
            self._store.attach_file(self.path, text)
        for record in journal.records:
            if is_final(record):
                self._waiting[record.seq] = record
        self._unsubscribe.append(journal.subscribe(self._on_record))
        self.flush()
        return self

    def _on_record(self, record: Record, new: bool) -> None:
        if is_final(record) and not self._file.closed:
            self._waiting[record.seq] = record
            self._schedule_flush()

    def _schedule_flush(self) -> None:
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._flush_scheduled = True
        loop.call_later(FLUSH_INTERVAL_S, self.flush)

    def flush(self) -> None:
        self._flush_scheduled = False
        if self._file.closed:
            return
        waiting, self._waiting = self._waiting, {}
        lines = [(record, line_of(record)) for record in waiting.values()]
        try:
            self._file.writelines(line for _record, line in lines)
            self._file.flush()
        except OSError as error:
            self._give_up(error)
            return
        placed = []
        for record, line in lines:
            placed.append((record, self._position, len(line)))
            self._position += len(line)
        rows = self._indexed(placed)
        if self._store is not None:
            for (record, offset, size), row in zip(placed, rows, strict=True):
                self._store.written(record, offset, size, row)

    def _indexed(self, placed: list[tuple[Record, int, int]]) -> list[Row | None]:
        if self._index is not None:
            try:
                return list(self._index.index(placed, self._file.fileno()))
            except Exception as error:  # no room, no descriptor left, anything
                self._index_failed(error)
        return [None] * len(placed)

    def _index_failed(self, error: Exception) -> None:
        """The journal goes on without its index, said once. The index is never written again,
        so should it not go, its meta.json describes an older state of the file than the
        file's (this batch's lines are in it): it is never used."""
        index, self._index = self._index, None
        if self._store is not None:
            self._store.index_lost()
        if index is not None and index.folder != index_folder(self.path):
            shutil.rmtree(index.folder, ignore_errors=True)
        remove_index(self.path)
        reason = getattr(error, "strerror", None) or error
        _say(f"cannot write the index of {self.path}: {reason}; it opens slowly")

    def _give_up(self, error: OSError) -> None:
        """A journal that can no longer be written (a full disk) is said once; the session
        goes on without it."""
        _say(f"{JournalFileError(self.path, error)}; the session goes on, the journal stops here")
        with contextlib.suppress(OSError):  # the unwritten buffer fails again on close
            self._file.close()

    def close(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self.flush()
        with contextlib.suppress(OSError):  # a full disk is said once, by flush
            self._file.close()


def _index_writer(path: Path) -> IndexWriter | None:
    try:
        try:
            return IndexWriter(path)
        except FileExistsError:  # another user's folder, a file or a folder of the user's own
            writer = index_elsewhere(path)
    except OSError as error:
        _say(f"cannot write the index of {path}: {error.strerror or error}; it opens slowly")
        return None
    _say(
        f"{index_folder(path)} is in the way (not an index of yours): this session's index is "
        f"kept in {writer.folder.parent} instead; the journal opens slowly later"
    )
    return writer


def _say(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # no stderr to say it on
        print(f"hook-inspector: {message}", file=sys.stderr)


class JournalLoadError(Exception):
    pass


def load_journal(path: str | Path, line_limit: int = LINE_LIMIT) -> Journal:
    """Read a JSONL journal, every record into memory (see saved.py for a long one). A torn last
    line (the writer was killed mid-write: it is not JSON) after at least one record is skipped;
    any other bad line, or a file with no record, is an error naming its line number, and the
    key when one field is at fault. A record written again after a later change (same seq)
    replaces the earlier line."""
    records = {record.seq: record for _offset, _size, record in scan_journal(path, line_limit)}
    journal = Journal()
    for seq in sorted(records):
        journal.adopt(records[seq])
    return journal


def scan_journal(
    path: str | Path, line_limit: int = LINE_LIMIT
) -> Iterator[tuple[int, int, Record]]:
    """Each record of a JSONL journal in file order, with where its line is (offset, size).
    Raises JournalLoadError as load_journal says."""
    torn: JournalLoadError | None = None  # a line that is not JSON: fine only if it is the last
    offset, found = 0, False
    try:
        with open_regular(path) as file, _collector_paused():
            for number, data in enumerate(iter(partial(file.readline, line_limit + 1), b""), 1):
                start, offset = offset, offset + len(data)
                if len(data) > line_limit:
                    raise JournalLoadError(f"{path}:{number}: {too_large(len(data), line_limit)}")
                text = data.decode("utf-8", errors="replace")
                if not text.strip():
                    continue
                if torn is not None:
                    raise torn
                try:
                    record = record_from_json(json.loads(text))
                except json.JSONDecodeError as exc:
                    torn = JournalLoadError(
                        f"{path}:{number}: not JSON ({exc.msg}): {ONE_PER_LINE}"
                    )
                    continue
                except RecursionError:
                    raise JournalLoadError(f"{path}:{number}: nested too deeply") from None
                except ValueError as exc:  # a field of the wrong type, or a number too long
                    raise JournalLoadError(f"{path}:{number}: {exc}") from None
                if not record.host:
                    record.host = host_before_records_named_it(record)
                found = True
                yield start, len(data), record
    except OSError as exc:
        raise JournalLoadError(f"{path}: {exc.strerror or exc}") from None
    if not found:  # a lone line that is not JSON is no journal, not one torn at its end
        raise torn or JournalLoadError(f"{path}: empty: {ONE_PER_LINE}")


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Millions of new objects that form no cycles: the cyclic collector would only keep
    rescanning them (half the time it takes to open a 100,000-exchange session)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
