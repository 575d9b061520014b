"""Headless output written off the event loop: a slow or stalled reader never delays a hook call,
and a reader that goes away (a closed pipe) ends the printing quietly."""

from __future__ import annotations

import io
import os
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import Generic, TextIO, TypeVar

Item = TypeVar("Item")
MAX_BACKLOG = 100_000  # records waiting for a stalled reader; past that they are counted, not kept


class BackgroundOutput(Generic[Item]):
    """A thread renders and writes what `put` queues, in order. `put` never blocks: when the
    reader falls MAX_BACKLOG records behind, later records are dropped and counted, and `close`
    says how many on stderr. A lone surrogate (JSON's "\\ud800") is written as that escape."""

    def __init__(
        self, stream: TextIO, render: Callable[[Item], str], *, max_backlog: int = MAX_BACKLOG
    ) -> None:
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
        self._stream = stream
        self._render = render
        self._max_backlog = max_backlog
        self._backlog: deque[Item] = deque()
        self._changed = threading.Condition()
        self._closing = False
        self.reader_gone = False
        self.dropped = 0
        self._thread = threading.Thread(target=self._write_all, name="output", daemon=True)
        self._thread.start()

    def put(self, item: Item) -> None:
        with self._changed:
            if self.reader_gone or self._closing:
                return
            if len(self._backlog) >= self._max_backlog:
                self.dropped += 1
                return
            self._backlog.append(item)
            self._changed.notify()

    def close(self) -> None:
        """Wait until everything queued is written (or the reader is gone)."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        self._thread.join()
        if self.dropped:
            print(
                f"hook-inspector: {self.dropped} record(s) not printed: the output fell "
                f"{self._max_backlog} records behind (the journal has every record)",
                file=sys.stderr,
            )

    def _write_all(self) -> None:
        while True:
            with self._changed:
                while not self._backlog and not self._closing:
                    self._changed.wait()
                if not self._backlog:
                    return
                batch = list(self._backlog)
                self._backlog.clear()
            try:
                self._stream.write("".join(self._render(item) for item in batch))
                self._stream.flush()
            except BrokenPipeError:
                self._reader_left()
                return

    def _reader_left(self) -> None:
        """Stop quietly. Python's advice for EPIPE: point stdout at devnull, so the flush at
        interpreter exit has nowhere to fail."""
        with self._changed:
            self.reader_gone = True
            self._backlog.clear()
        try:
            fileno = self._stream.fileno()
        except (OSError, ValueError):
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fileno)
        os.close(devnull)
