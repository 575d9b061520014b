"""Headless output written off the event loop: a slow or stalled reader never delays a hook call,
and a reader that goes away (a closed pipe) ends the printing quietly."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import Generic, TextIO, TypeVar

Item = TypeVar("Item")
MAX_BACKLOG = 100_000  # records waiting for a stalled reader; past that they are counted, not kept


class BackgroundOutput(Generic[Item]):
    """A thread renders and writes what `put` queues, in order. `put` never blocks: when the
    reader falls MAX_BACKLOG records behind, later records are dropped and counted, and `aclose`
    says how many on stderr. A lone surrogate (JSON's "\\ud800") is written as that escape.

    The thread writes to the file descriptor itself, never through `stream`'s buffer: a thread
    stuck on a stalled reader then holds no lock the interpreter needs to exit."""

    def __init__(
        self, stream: TextIO, render: Callable[[Item], str], *, max_backlog: int = MAX_BACKLOG
    ) -> None:
        self._stream = stream
        self._render = render
        self._max_backlog = max_backlog
        self._backlog: deque[Item] = deque()
        self._changed = threading.Condition()
        self._closing = False
        self._finished = False
        self._on_finished: Callable[[], None] | None = None
        self.reader_gone = False
        self.dropped = 0
        stream.flush()
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

    async def aclose(self) -> None:
        """Wait until everything queued is written (or the reader is gone) without holding up
        the loop, so a signal can still end a wait on a reader that never reads."""
        loop = asyncio.get_running_loop()
        written: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
                loop.call_soon_threadsafe(_resolve, written)

        with self._changed:
            self._closing = True
            self._changed.notify()
            if self._finished:
                written.set_result(None)
            else:
                self._on_finished = wake
        await written
        if self.dropped:
            print(
                f"hook-inspector: {self.dropped} record(s) not printed: the output fell "
                f"{self._max_backlog} records behind (the journal has every record)",
                file=sys.stderr,
            )

    def _write_all(self) -> None:
        try:
            while batch := self._next_batch():
                if not self._write("".join(self._render(item) for item in batch)):
                    self._reader_left()
                    return
        finally:
            with self._changed:
                self._finished = True
                if self._on_finished is not None:
                    self._on_finished()

    def _next_batch(self) -> list[Item]:
        with self._changed:
            while not self._backlog and not self._closing:
                self._changed.wait()
            batch = list(self._backlog)
            self._backlog.clear()
            return batch

    def _write(self, text: str) -> bool:
        """False when the reader has gone."""
        fd = self._stream.fileno()
        view = memoryview(text.encode(self._stream.encoding or "utf-8", "backslashreplace"))
        try:
            while view:
                try:
                    view = view[os.write(fd, view) :]
                except BlockingIOError:  # someone made the shared descriptor non-blocking
                    select.select([], [fd], [])
        except BrokenPipeError:
            return False
        return True

    def _reader_left(self) -> None:
        """Stop quietly. Python's advice for EPIPE: point stdout at devnull, so the flush at
        interpreter exit has nowhere to fail."""
        with self._changed:
            self.reader_gone = True
            self._backlog.clear()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
