"""A saved journal opened for the views at once, even one with no index that matches it, as
toolong and lnav open a long log: a thread reads and indexes it (saved.py's open_journal, with
the same checks and the same messages) and hands its records over in pieces, in seq order, so
the first screen is up after its first lines and the lists, their filters and the hooks panel
fill in as it grows. Once every line is in, the journal opened through the index just made takes
the growing one's place: from then on it is as if it had been opened that way.

A line written again after a change (the same seq) replaces the record shown. A record whose
line comes more than a batch of lines after records numbered later than it (a call that
finished long after it began) shows once every line is in. A bad line found after the first
screen ends the reading: the records read before it stay, and the message names the line as
load_journal names it. A journal with a matching index, or short enough to be read in one
batch, is simply opened."""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from inspector.journal.columns import COLUMN_NAMES, Value
from inspector.journal.hook_rows import HookRows
from inspector.journal.index_files import TEXT, IndexWriter, Row
from inspector.journal.journal import Journal
from inspector.journal.jsonl import LINE_LIMIT, JournalLoadError
from inspector.journal.records import Record
from inspector.journal.saved import SCAN_BATCH, open_journal
from inspector.journal.store import KIND_CODE, ReadPiece, RecordStore

# Records handed over but not yet taken by the views, at most: past this the reader waits.
WAITING_MAX = 4 * SCAN_BATCH
NUMBERED_BY_EVERY_DICTIONARY = 2  # each column's codes for "unknown" and "absent"

Line = tuple[Record, int, int, Row]  # a record, where its line is (offset, size), its index row
# A record read and not handed over yet: its seq, type, line and row, as a piece has them, and
# itself only when the first screen shows it (the rest is read back as it is shown).
Held = tuple[int, int, int, int, Row, Record | None]


class Stopped(Exception):
    """The views closed before every line was read."""


@dataclass(frozen=True, slots=True)
class Growth:
    """What a catch-up added to the journal shown: how many records, the hooks panel's rows
    folded so far (None: no new ones), and, when the reading ended, the journal to show from
    now on (every line read) or the error that ended it (a bad line)."""

    added: int
    hooks: HookRows | None
    ended: bool
    opened: Journal | None
    error: str | None


class Opening:
    """One saved journal being opened: `start` in any thread, `catch_up` in the views' thread,
    `stop` when they close."""

    def __init__(self, path: Path, line_limit: int = LINE_LIMIT) -> None:
        self.path = path
        self.line_limit = line_limit
        self.size = _size(path)
        self.read = 0  # bytes of the file read so far
        self.ended = threading.Event()  # every line read, a bad one found, or stopped
        self.opened: Journal | None = None
        self.error: str | None = None
        self._changed = threading.Condition()
        self._ready: list[ReadPiece] = []
        self._rewritten: list[Line] = []
        self._hooks: HookRows | None = None  # the rows folded so far, as the panel shows them
        self._resumed, self._stopping = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._read_all, name="opening", daemon=True)
        # the reader's own, from here on
        self._held: dict[int, Held] = {}  # read, not handed over: a lower seq may follow
        self._shown = bytearray()  # per seq: handed over
        self._shown_to = -1  # the highest seq handed over
        self._limit: int | None = None  # the highest seq of the batch before
        self._later: list[Line] = []  # records handed over, read again, not handed over again
        self._numbered = dict.fromkeys(COLUMN_NAMES, NUMBERED_BY_EVERY_DICTIONARY)
        self._writer: IndexWriter | None = None
        # the hooks panel's rows, folded here as records are handed over (so that they need
        # not stay in memory until the views take them)
        self._folding = HookRows(Journal())

    # ---- the views' side -----------------------------------------------------------------------

    def start(self) -> Journal:
        """Start reading, and the journal to show once its first lines are read: the whole of
        it when it has an index or is that short (`ended` is then set already). Raises
        JournalLoadError when those lines are not a journal's."""
        self._thread.start()
        with self._changed:
            self._changed.wait_for(lambda: bool(self._ready) or self.ended.is_set())
            ready, self._ready = self._ready, []
        if self.opened is not None:
            return self.opened
        if not ready:
            raise JournalLoadError(self.error or f"{self.path}: not read")
        assert self._writer is not None  # it indexed a first batch
        store = RecordStore.growing(self.path, self._writer.folder / TEXT, ready[0])
        return Journal.over(store)

    def resume(self) -> None:
        """The first screen is up: read on (the reader waits until then, so as not to slow it)."""
        self._resumed.set()

    def catch_up(self, journal: Journal) -> Growth:
        """Add what was read since the last time to `journal`, the one `start` returned."""
        with self._changed:
            ready, self._ready = self._ready, []
            rewritten, self._rewritten = self._rewritten, []
            hooks, self._hooks = self._hooks, None
            ended = self.ended.is_set()
            self._changed.notify_all()  # the reader may be waiting for room
        store = journal.records
        for piece in ready:
            store.extend_read(piece)
        for record, offset, size, row in rewritten:
            store.written(record, offset, size, row)
            journal.reread(record)
        if ended and self.opened is not None:
            self.opened.records.same_columns_as(store)
        added = sum(len(piece.seqs) for piece in ready)
        opened, error = (self.opened, self.error) if ended else (None, None)
        return Growth(added, hooks, ended, opened, error)

    def progress(self) -> float:
        """How much of the file is read, 0 to 1."""
        return min(1.0, self.read / self.size) if self.size else 1.0

    def stop(self) -> None:
        """Stop reading (the views close): an index cut short is removed, never used."""
        self._stopping.set()
        self._resumed.set()
        with self._changed:
            self._changed.notify_all()
        if self._thread.is_alive():
            self._thread.join()

    # ---- the reader's thread -------------------------------------------------------------------

    def _read_all(self) -> None:
        try:
            self.opened = open_journal(self.path, self.line_limit, self._indexed)
        except Stopped:
            pass
        except JournalLoadError as error:
            self.error = str(error)
            if self._writer is not None:  # the first screen is up: what it read is kept
                self._hand_over(None)
        except Exception as error:  # a fault of ours: said, as a bad file is, never a traceback
            self.error = f"{self.path}: cannot be read: {error}"
        finally:
            self._held.clear()  # the last lines' records: the opened journal has them on disk
            self._later.clear()
            with self._changed:
                self.ended.set()
                self._changed.notify_all()

    def _indexed(
        self, writer: IndexWriter, batch: list[tuple[Record, int, int]], rows: list[Row]
    ) -> None:
        if self._stopping.is_set():
            raise Stopped
        first = self._writer is None
        self._writer = writer
        highest = self._shown_to
        for (record, offset, size), row in zip(batch, rows, strict=True):
            seq = record.seq
            shown = seq < len(self._shown) and self._shown[seq]
            self._folding.fold(record, not shown and seq not in self._held)
            if shown:
                self._later.append((record, offset, size, row))
            elif seq > self._shown_to:  # a later line of it wins; only the first screen's kept
                kept = record if first else None
                self._held[seq] = (seq, KIND_CODE[type(record)], offset, size, row, kept)
                highest = max(highest, seq)
        _record, offset, size = batch[-1]
        self.read = offset + size
        if self.read >= self.size:  # the last lines: the journal opened through its index follows
            return
        self._hand_over(highest if first else self._limit)
        self._limit = highest
        if first:
            self._resumed.wait()
            if self._stopping.is_set():
                raise Stopped

    def _hand_over(self, up_to: int | None) -> None:
        """The records held with seqs up to `up_to` (None: all), and those read again."""
        seqs = sorted(seq for seq in self._held if up_to is None or seq <= up_to)
        held = [self._held.pop(seq) for seq in seqs]
        if seqs:
            self._shown.extend(bytes(max(0, seqs[-1] + 1 - len(self._shown))))
            for seq in seqs:
                self._shown[seq] = 1
            self._shown_to = seqs[-1]
        later, self._later = self._later, []
        lines = [(seq, kind, offset, size, row) for seq, kind, offset, size, row, _ in held]
        records = [record for *_line, record in held if record is not None]
        piece = ReadPiece.of(lines, self._new_values(), records)
        hooks = self._folding.copy()
        with self._changed:
            self._ready.append(piece)
            self._rewritten += later
            self._hooks = hooks
            self._changed.notify_all()
            self._changed.wait_for(lambda: self._waiting() <= WAITING_MAX or self._stop_asked())

    def _new_values(self) -> list[tuple[str, Value]]:
        """The column values the index numbered since the last piece, in the order it did."""
        if self._writer is None:
            return []
        values = self._writer.dictionary.values
        new = [
            (name, value) for name in COLUMN_NAMES for value in values[name][self._numbered[name] :]
        ]
        self._numbered = {name: len(values[name]) for name in COLUMN_NAMES}
        return new

    def _waiting(self) -> int:
        return sum(len(piece.seqs) for piece in self._ready)

    def _stop_asked(self) -> bool:
        return self._stopping.is_set() or self.ended.is_set()


def _size(path: Path) -> int:
    with contextlib.suppress(OSError):
        return os.stat(path).st_size
    return 0
