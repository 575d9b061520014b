"""The journal on disk: one JSON object per line, flushed often, loadable again."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from inspector.journal.journal import Journal
from inspector.journal.private_file import JournalFileError, open_private
from inspector.journal.records import STATUS_HELD, STATUS_PENDING, Record, record_from_json

FLUSH_INTERVAL_S = 0.1
UNFINISHED = frozenset({STATUS_PENDING, STATUS_HELD})


def is_final(record: Record) -> bool:
    return getattr(record, "status", None) not in UNFINISHED


def dumps(record: Record) -> str:
    return json.dumps(record.to_json(), ensure_ascii=False, default=str)


class JsonlWriter:
    """Streams finished records to a file, at most FLUSH_INTERVAL_S after they finish, so a crash
    loses at most the last fraction of a second. Records are serialised at flush time, so the
    touches that follow a call's end (the action the host took) land in the same line."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._file: IO[str] = open_private(self.path)  # raises JournalFileError
        self._waiting: dict[int, Record] = {}
        self._flush_scheduled = False
        self._unsubscribe: list[Callable[[], None]] = []

    def attach(self, journal: Journal) -> JsonlWriter:
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
        try:
            self._file.writelines(dumps(record) + "\n" for record in waiting.values())
            self._file.flush()
        except OSError as error:
            self._give_up(error)

    def _give_up(self, error: OSError) -> None:
        """A journal that can no longer be written (a full disk) is said once; the session
        goes on without it."""
        message = str(JournalFileError(self.path, error))
        print(
            f"hook-inspector: {message}; the session goes on, the journal stops here",
            file=sys.stderr,
        )
        with contextlib.suppress(OSError):  # the unwritten buffer fails again on close
            self._file.close()

    def close(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self.flush()
        with contextlib.suppress(OSError):  # a full disk is said once, by flush
            self._file.close()


class JournalLoadError(Exception):
    pass


def load_journal(path: str | Path) -> Journal:
    """Read a JSONL journal. A torn last line (the writer was killed mid-write) is skipped;
    any other bad line is an error naming its line number. A record written again after a
    later change (same seq) replaces the earlier line."""
    journal = Journal()
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError as exc:
        raise JournalLoadError(f"{path}: {exc.strerror or exc}") from exc
    last = max((n for n, text in enumerate(lines) if text.strip()), default=-1)
    records: dict[int, Record] = {}
    with _collector_paused():
        for number, text in enumerate(lines):
            if not text.strip():
                continue
            try:
                record = record_from_json(json.loads(text))
            except (ValueError, TypeError, AttributeError) as exc:
                if number == last:
                    break
                problem = f"{path}:{number + 1}: not a journal record: {exc}"
                raise JournalLoadError(problem) from exc
            records[record.seq] = record
    for seq in sorted(records):
        journal.adopt(records[seq])
    return journal


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
