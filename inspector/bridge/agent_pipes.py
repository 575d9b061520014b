"""The agent's stdin and stdout, lent by its relay (see wire.py): the inspector reads the agent's
requests and writes its answers itself, with no process in between.

Lines are handed to the session as they are read, in the read callback, so a request starts on
the very loop iteration its bytes arrive."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
from collections.abc import Callable

from inspector.protocol.framing import Line, LineSplitter


class _Reading(asyncio.Protocol):
    def __init__(
        self, splitter: LineSplitter, on_line: Callable[[Line], None], already_read: bytes
    ) -> None:
        self.splitter = splitter
        self.on_line = on_line
        self.already_read = already_read
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Called before the first data_received: what the relay read comes first.
        self.data_received(self.already_read)

    def data_received(self, data: bytes) -> None:
        for line in self.splitter.feed(data):
            self.on_line(line)

    def eof_received(self) -> bool | None:
        self.end()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.end()

    def end(self) -> None:
        if not self.ended.done():
            self.ended.set_result(None)


class _Writing(asyncio.streams.FlowControlMixin):
    def __init__(self) -> None:
        super().__init__()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if not self.closed.done():
            self.closed.set_result(None)


class AgentPipes:
    """`stdin_fd` and `stdout_fd` are ours to close. `relay_read`: how many bytes of the agent's
    input the relay read before it lent them; they come on the relay's socket first."""

    def __init__(self, stdin_fd: int, stdout_fd: int, relay_read: int) -> None:
        self.stdin_fd = stdin_fd
        self.stdout_fd = stdout_fd
        self.relay_read = relay_read
        self._splitter: LineSplitter | None = None
        self._reading: _Reading | None = None
        self._in: asyncio.ReadTransport | None = None
        self._out: asyncio.StreamWriter | None = None
        self._owned = False  # the descriptors went to transports (or were closed)
        self._stdin: io.FileIO | None = None
        self._writing: _Writing

    async def open_stdout(self) -> asyncio.StreamWriter:
        """Where answers go; opened before reading starts, so the first answer goes there."""
        loop = asyncio.get_running_loop()
        self._owned = True  # from here the transports own the descriptors and close them
        stdin = os.fdopen(self.stdin_fd, "rb", buffering=0)
        self._stdin = stdin
        stdout = os.fdopen(self.stdout_fd, "wb", buffering=0)
        try:
            transport, protocol = await loop.connect_write_pipe(_Writing, stdout)
        except BaseException:
            stdin.close()
            stdout.close()
            raise
        self._writing = protocol
        self._out = asyncio.StreamWriter(transport, protocol, None, loop)
        return self._out

    async def read(
        self, splitter: LineSplitter, on_line: Callable[[Line], None], already_read: bytes
    ) -> None:
        """Start reading stdin into `splitter` (lines to `on_line`), after `already_read`."""
        loop = asyncio.get_running_loop()
        assert self._stdin is not None
        self._splitter = splitter
        self._reading = reading = _Reading(splitter, on_line, already_read)
        try:
            self._in, _ = await loop.connect_read_pipe(lambda: reading, self._stdin)
        except BaseException:
            self._stdin.close()
            raise

    async def ended(self) -> None:
        """Stdin ended (the agent closed it) or reading stopped."""
        assert self._reading is not None
        await self._reading.ended

    def stop_reading(self) -> bytes:
        """Read no more; returns the input read past the last whole line."""
        if self._in is not None and not self._in.is_closing():
            self._in.close()
        elif self._in is None and self._stdin is not None:
            self._stdin.close()  # lent, and not read yet
        if self._reading is not None:
            self._reading.end()
        return self._splitter.unfinished() if self._splitter else b""

    async def close(self, grace_s: float) -> None:
        """Let go of both: what was written reaches the agent first, within `grace_s`."""
        self.stop_reading()
        out = self._out
        if out is None:
            self._close_unopened()
            return
        out.close()  # once what is buffered is written
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._writing.closed), grace_s)
        self._abort()

    def abandon(self) -> None:
        """The relay is gone: its agent must see our copies closed at once."""
        self.stop_reading()
        if self._out is not None:
            self._abort()
        else:
            self._close_unopened()

    def _abort(self) -> None:
        if self._out is not None and not self._writing.closed.done():
            self._out.transport.abort()

    def _close_unopened(self) -> None:
        if self._owned:
            return
        self._owned = True
        for fd in (self.stdin_fd, self.stdout_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
