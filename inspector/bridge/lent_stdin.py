"""The agent's stdin and stdout, lent by its relay (see wire.py): the inspector reads the agent's
requests and writes its answers itself, with no process in between.

Lines are handed to the session as they are read, in the read callback, so a request starts on
the very loop iteration its bytes arrive. Nothing here waits: reading can stop at any moment and
what was read past the last line goes back to the relay, and so does what the agent has not yet
taken of the answers (an agent that stops reading for a while loses nothing, and no line is cut
in two)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable

from inspector.protocol.framing import Line, LineSplitter

_CHUNK = 1 << 18
# Past this much unsent output, drain() waits for the agent to take some.
HIGH_WATER = 1 << 16


class AgentOut:
    """The agent's stdout, written without blocking the loop."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._loop = asyncio.get_running_loop()
        self._unsent = bytearray()
        self._taken = asyncio.Event()  # everything written so far is in the pipe
        self._taken.set()
        self._closed = False
        self._broken = False  # the agent closed its end

    def write(self, data: bytes) -> None:
        if self.is_closing():
            return
        if not self._unsent:
            try:
                written = os.write(self._fd, data)
            except BlockingIOError:
                written = 0
            except OSError:
                self._broken = True
                return
            if written == len(data):
                return
            data = data[written:]
            self._loop.add_writer(self._fd, self._writable)
            self._taken.clear()
        self._unsent += data

    def is_closing(self) -> bool:
        return self._closed or self._broken

    async def drain(self) -> None:
        if len(self._unsent) > HIGH_WATER:
            await self._taken.wait()

    def close(self) -> bytes:
        """Write no more; returns what the agent has not taken yet."""
        if not self._closed:
            self._closed = True
            self._stop_waiting()
            with contextlib.suppress(OSError):
                os.close(self._fd)
        unsent = bytes(self._unsent)
        self._unsent.clear()
        return unsent

    def _writable(self) -> None:
        try:
            written = os.write(self._fd, self._unsent)
        except BlockingIOError:
            return
        except OSError:
            self._broken = True
            self._unsent.clear()
            written = 0
        del self._unsent[:written]
        if not self._unsent:
            self._stop_waiting()

    def _stop_waiting(self) -> None:
        if not self._taken.is_set():
            self._loop.remove_writer(self._fd)
            self._taken.set()


class AgentPipes:
    """`stdin_fd` and `stdout_fd` are ours to close."""

    def __init__(self, stdin_fd: int, stdout_fd: int) -> None:
        for fd in (stdin_fd, stdout_fd):
            os.set_blocking(fd, False)
        self._in_fd = stdin_fd
        self._loop = asyncio.get_running_loop()
        self.out = AgentOut(stdout_fd)
        self.ended: asyncio.Future[None] = self._loop.create_future()  # reading stopped
        self._splitter: LineSplitter | None = None
        self._on_line: Callable[[Line], None] = lambda line: None
        self._reading = False
        self._closed = False

    def read(
        self, splitter: LineSplitter, on_line: Callable[[Line], None], already_read: bytes
    ) -> None:
        """Read stdin into `splitter`, lines to `on_line`, after `already_read` (the relay's);
        nothing once reading was stopped."""
        if self.ended.done():
            return
        self._splitter, self._on_line = splitter, on_line
        self._feed(already_read)
        if not self.ended.done():
            self._loop.add_reader(self._in_fd, self._readable)
            self._reading = True

    def stop_reading(self) -> bytes:
        """Read no more; returns the input read past the last whole line."""
        if self._reading:
            self._loop.remove_reader(self._in_fd)
            self._reading = False
        if not self.ended.done():
            self.ended.set_result(None)
        return self._splitter.unfinished() if self._splitter is not None else b""

    def let_go(self) -> bytes:
        """Close our copies; returns the answers the agent has not taken yet (for the relay)."""
        self.stop_reading()
        unsent = self.out.close()
        if not self._closed:
            self._closed = True
            with contextlib.suppress(OSError):
                os.close(self._in_fd)
        return unsent

    def _readable(self) -> None:
        try:
            data = os.read(self._in_fd, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            self._feed(data)
        else:  # the agent closed stdin
            self.stop_reading()

    def _feed(self, data: bytes) -> None:
        assert self._splitter is not None
        for line in self._splitter.feed(data):
            self._on_line(line)
