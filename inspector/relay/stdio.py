"""The agent's stdout as the relay writes it, and which of its descriptors the event loop can
watch. An agent gives its hook pipes; a person trying the relay by hand may give it files
(`hook-inspector relay < calls.jsonl > answers.jsonl`) or /dev/null, which it cannot: writes to
those never wait on another process, so they are plain. Reading stdin: see agent_in.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import selectors
import stat
from typing import Protocol


class AgentOut(Protocol):
    def write(self, data: bytes) -> None: ...

    def is_closing(self) -> bool: ...

    async def drain(self) -> None: ...


async def open_agent_stdout() -> AgentOut:
    loop = asyncio.get_running_loop()
    # The transport owns this duplicate and closes it; fd 1 stays open.
    stdout = os.fdopen(os.dup(1), "wb", buffering=0)
    if not watchable(stdout.fileno()):
        return _FileOut(stdout)
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, stdout)
    return asyncio.StreamWriter(transport, protocol, None, loop)


def watchable(fd: int) -> bool:
    """Whether the event loop's selector accepts `fd`: pipes, sockets and terminals do; regular
    files and /dev/null do not (epoll refuses them), and asyncio would find out only later, in
    a callback that logs the error and leaves the relay waiting forever."""
    with selectors.DefaultSelector() as selector:
        try:
            selector.register(fd, selectors.EVENT_READ)
        except (OSError, ValueError):
            return False
    return True


def passable(fd: int) -> bool:
    """Whether the relay can hand `fd` to the inspector: a pipe or a socket, which the inspector
    reads as the relay would (a terminal stays with the relay and its user)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


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
