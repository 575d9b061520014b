"""Starting a hook child, with its output read line by line straight from the event loop.

asyncio's subprocess transport hands pipe data to its protocol through `call_soon`, one loop
pass after the read, and a stream reader then wakes its reader task one pass after that. Here
stdout and stderr are plain pipes the loop reads itself: a line reaches its handler in the same
pass that read it, so the caller waiting for an answer wakes on the very next one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inspector.protocol.framing import Line, LineSplitter

OnLine = Callable[[Line], None]
UNUSED_READER_LIMIT = 1 << 16  # stdout and stderr never reach the stream protocol's readers


class LineReader(asyncio.Protocol):
    """Splits one pipe into lines and hands each to `on_line` as it arrives; at the end, the
    unterminated tail (if any) as a last line, then `ended` is set."""

    def __init__(self, on_line: OnLine) -> None:
        self._splitter = LineSplitter()
        self._on_line = on_line
        self.ended = asyncio.Event()

    def data_received(self, data: bytes) -> None:
        for line in self._splitter.feed(data):
            self._on_line(line)

    def connection_lost(self, exc: Exception | None) -> None:
        for line in self._splitter.close():
            self._on_line(line)
        self.ended.set()


@dataclass(frozen=True, slots=True)
class HookChild:
    process: asyncio.subprocess.Process
    exited: asyncio.Event  # set when the process exits, whoever still holds its pipes
    stdout: LineReader
    outputs: tuple[tuple[asyncio.BaseTransport, LineReader], ...]  # stdout's and stderr's

    async def close_outputs(self, grace_s: float) -> None:
        """Let each pipe deliver what is left, then stop reading it: a grandchild that left
        the process group may hold the pipes open for as long as it likes."""
        ends = [reader.ended.wait() for _, reader in self.outputs]
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.gather(*ends), grace_s)
        for transport, _ in self.outputs:
            transport.close()


class _ExitWatch(asyncio.subprocess.SubprocessStreamProtocol):
    """stdin as a stream, and an event for the exit. Process.wait() (Python 3.11+) also waits
    for the stdin pipe to close, and a child the hook forked may hold it for as long as it likes."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=UNUSED_READER_LIMIT, loop=loop)
        self.exited = asyncio.Event()

    def process_exited(self) -> None:
        super().process_exited()
        self.exited.set()


async def start_child(
    command: Sequence[str],
    *,
    cwd: str | None,
    env: dict[str, str] | None,
    on_stdout: OnLine,
    on_stderr: OnLine,
) -> HookChild:
    """Start `command` in a session of its own (so a stop also reaches children holding the
    pipes). Raises OSError when it cannot be started."""
    loop = asyncio.get_running_loop()
    stdout_read, stdout_write = os.pipe()
    stderr_read, stderr_write = os.pipe()
    try:
        transport, protocol = await loop.subprocess_exec(
            lambda: _ExitWatch(loop),
            *command,
            cwd=cwd,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=stdout_write,
            stderr=stderr_write,
            start_new_session=True,
        )
    except BaseException:
        os.close(stdout_read)
        os.close(stderr_read)
        raise
    finally:  # the child has its copies; ours would keep the pipes from ever ending
        os.close(stdout_write)
        os.close(stderr_write)
    stdout = await _read_lines(loop, stdout_read, on_stdout)
    stderr = await _read_lines(loop, stderr_read, on_stderr)
    process = asyncio.subprocess.Process(transport, protocol, loop)
    return HookChild(process, protocol.exited, stdout[1], (stdout, stderr))


async def _read_lines(
    loop: asyncio.AbstractEventLoop, fd: int, on_line: OnLine
) -> tuple[asyncio.BaseTransport, LineReader]:
    reader = LineReader(on_line)
    pipe = open(fd, "rb", buffering=0)  # noqa: SIM115 (the transport owns it and closes it)
    transport, _ = await loop.connect_read_pipe(lambda: reader, pipe)
    return transport, reader
