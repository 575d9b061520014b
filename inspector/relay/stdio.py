"""The agent's side of the relay: its hook pipes as asyncio streams, read a line at a time.

An agent gives its hook pipes; a person trying the relay by hand may give it files
(`hook-inspector relay < calls.jsonl > answers.jsonl`) or /dev/null, which the event loop cannot
watch. Reads and writes of those never wait on another process, so for them a thread reads and
writes are plain.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import selectors
import threading
from typing import Protocol

HEAD_BYTES = 4096  # enough of an oversized line to name its method and id
_CHUNK = 1 << 16


class AgentOut(Protocol):
    def write(self, data: bytes) -> None: ...

    def is_closing(self) -> bool: ...

    async def drain(self) -> None: ...


async def open_agent_stdio(line_limit: int) -> tuple[asyncio.StreamReader, AgentOut]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=line_limit)
    # The transports own these duplicates and close them; fds 0 and 1 stay open.
    stdin = os.fdopen(os.dup(0), "rb", buffering=0)
    if _watchable(stdin.fileno()):
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
    else:
        threading.Thread(target=_feed, args=(stdin, reader, loop), daemon=True).start()
    stdout = os.fdopen(os.dup(1), "wb", buffering=0)
    if not _watchable(stdout.fileno()):
        return reader, _FileOut(stdout)
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, stdout)
    return reader, asyncio.StreamWriter(transport, protocol, None, loop)


def _watchable(fd: int) -> bool:
    """Whether the event loop's selector accepts `fd`: pipes, sockets and terminals do; regular
    files and /dev/null do not (epoll refuses them), and asyncio would find out only later, in
    a callback that logs the error and leaves the relay waiting forever."""
    with selectors.DefaultSelector() as selector:
        try:
            selector.register(fd, selectors.EVENT_READ)
        except (OSError, ValueError):
            return False
    return True


def _feed(stdin: io.FileIO, reader: asyncio.StreamReader, loop: asyncio.AbstractEventLoop) -> None:
    while chunk := stdin.read(_CHUNK):
        loop.call_soon_threadsafe(reader.feed_data, chunk)
    loop.call_soon_threadsafe(reader.feed_eof)


class _FileOut:
    def __init__(self, file: io.FileIO) -> None:
        self._file = file

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[self._file.write(view) or 0 :]

    def is_closing(self) -> bool:
        return False

    async def drain(self) -> None:
        return None


def restore_blocking() -> None:
    """Pipe transports make stdin/stdout non-blocking, which a terminal shared with a shell must
    not keep after the relay exits."""
    for fd in (0, 1):
        with contextlib.suppress(OSError):
            os.set_blocking(fd, True)


async def read_line(reader: asyncio.StreamReader) -> tuple[bytes, bool]:
    """The next line with its newline (the last one may lack it; b"" at the end), and whether it
    is whole. A line over the reader's limit is skipped; its first HEAD_BYTES come back instead,
    with False, so memory stays bounded whatever the agent sends."""
    try:
        return await reader.readuntil(b"\n"), True
    except asyncio.IncompleteReadError as end:
        return end.partial, True
    except asyncio.LimitOverrunError as over:
        head = (await reader.readexactly(over.consumed))[:HEAD_BYTES]
    while True:
        try:
            await reader.readuntil(b"\n")
            return head, False
        except asyncio.IncompleteReadError:
            return head, False
        except asyncio.LimitOverrunError as over:
            await reader.readexactly(over.consumed)
