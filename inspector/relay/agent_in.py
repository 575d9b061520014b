"""The agent's side of the relay, read a line at a time: its requests arrive on stdin.

The relay can stop reading at any moment and hand the pipe, with the bytes it read past the last
whole line, to the inspector (see wire.py); it takes the pipe back the same way. An agent gives
its hook pipes; a person trying the relay by hand may give it a file or /dev/null, which the event
loop cannot watch: a thread reads those, and they are never handed over.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable

HEAD_BYTES = 4096  # enough of an oversized line to name its method and id
_CHUNK = 1 << 16


class AgentIn:
    """Calls `on_line(line)` for each line with its newline (the last may lack it),
    `on_oversized(head)` for a line over `limit` bytes (only its first HEAD_BYTES are kept, so
    memory stays bounded whatever the agent sends), and `on_end()` once stdin ends."""

    def __init__(
        self,
        fd: int,
        limit: int,
        on_line: Callable[[bytes], None],
        on_oversized: Callable[[bytes], None],
        on_end: Callable[[], None],
        *,
        watchable: bool,
    ) -> None:
        self.fd = fd
        self.watchable = watchable  # False: read by a thread, and never handed over
        self._limit = limit
        self._on_line = on_line
        self._on_oversized = on_oversized
        self._on_end = on_end
        self._buffer = bytearray()
        self._oversized_head: bytes | None = None  # skipping the rest of a line over the limit
        self.reading = False
        self._ended = False
        self._loop = asyncio.get_running_loop()

    def start(self, already_read: bytes = b"") -> None:
        """Read on, after `already_read` (bytes taken from the pipe by whoever had it before)."""
        if self.reading or self._ended:
            return
        if already_read:
            self._feed(already_read)
        self.reading = True
        if self.watchable:
            self._loop.add_reader(self.fd, self._readable)
        else:
            threading.Thread(target=self._read_in_thread, daemon=True).start()

    @property
    def skipping(self) -> bool:
        """In the middle of a line over the limit (what follows is its tail)."""
        return self._oversized_head is not None

    def stop(self) -> bytes:
        """Stop reading (a watchable pipe only) and return what was read past the last line."""
        assert self.watchable
        if self.reading:
            self._loop.remove_reader(self.fd)
            self.reading = False
        assert not self.skipping, "stopped within an oversized line"
        rest = bytes(self._buffer)
        self._buffer.clear()
        return rest

    def _readable(self) -> None:
        try:
            chunk = os.read(self.fd, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if chunk:
            self._feed(chunk)
        else:
            self._loop.remove_reader(self.fd)
            self._end()

    def _read_in_thread(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, _CHUNK)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self._loop.call_soon_threadsafe(self._end)
                return
            self._loop.call_soon_threadsafe(self._feed, chunk)

    def _feed(self, chunk: bytes) -> None:
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            self._take(chunk[start : end + 1])
            start = end + 1
        if start < len(chunk):
            self._keep(chunk[start:])

    def _take(self, tail: bytes) -> None:
        """The end of a line (newline included) arrived."""
        head = self._oversized_head
        if head is not None:
            self._oversized_head = None
            self._on_oversized(head)
        elif self._buffer:
            self._buffer += tail
            line = bytes(self._buffer)
            self._buffer.clear()
            self._deliver(line)
        else:
            self._deliver(tail)

    def _deliver(self, line: bytes) -> None:
        if len(line) > self._limit:
            self._on_oversized(line[:HEAD_BYTES])
        else:
            self._on_line(line)

    def _keep(self, piece: bytes) -> None:
        if self._oversized_head is not None:
            return
        self._buffer += piece
        if len(self._buffer) > self._limit:
            self._oversized_head = bytes(self._buffer[:HEAD_BYTES])
            self._buffer.clear()

    def _end(self) -> None:
        if self._ended:
            return
        self.reading, self._ended = False, True
        if self._oversized_head is not None:
            self._take(b"")
        elif self._buffer:
            line = bytes(self._buffer)
            self._buffer.clear()
            self._on_line(line)
        self._on_end()
