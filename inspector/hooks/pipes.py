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

from inspector.jsonrpc.framing import Line, LineSplitter

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
            self._hand_over(line)

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            for line in self._splitter.close():
                self._hand_over(line)
        finally:
            self.ended.set()

    def _hand_over(self, line: Line) -> None:
        try:
            self._on_line(line)
        except Exception as exc:  # a failing handler must not cost the lines after it
            asyncio.get_running_loop().call_exception_handler(
                {"message": "a hook output line could not be handled", "exception": exc}
            )


@dataclass(frozen=True, slots=True)
class HookChild:
    process: asyncio.subprocess.Process
    exited: asyncio.Event  # set when the process exits, whoever still holds its pipes
    stdout: LineReader
    outputs: tuple[tuple[asyncio.BaseTransport, LineReader], ...]  # stdout's and stderr's

    async def close_outputs(self, grace_s: float) -> None:
        """Let each pipe deliver what is left, then stop reading it: a grandchild that left
        the process group may hold the pipes open for as long as it likes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace_s
        try:
            for _, reader in self.outputs:
                if not reader.ended.is_set():
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(reader.ended.wait(), deadline - loop.time())
        finally:
            for transport, _ in self.outputs:
                transport.close()


class _ExitWatch(asyncio.subprocess.SubprocessStreamProtocol):
    """stdin as a stream, and an event set at the exit, for the several places that wait on it."""

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
    pipes). Raises OSError when it cannot be started. The output pipes are connected first:
    once the child exists nothing is awaited, so a cancellation cannot orphan it."""
    loop = asyncio.get_running_loop()
    outputs: list[tuple[asyncio.BaseTransport, LineReader]] = []
    write_ends: list[int] = []
    try:
        for on_line in (on_stdout, on_stderr):
            read_end, write_end = os.pipe()
            write_ends.append(write_end)
            reader = LineReader(on_line)
            outputs.append((await read_pipe(loop, read_end, reader), reader))
        transport, protocol = await loop.subprocess_exec(
            lambda: _ExitWatch(loop),
            *command,
            cwd=cwd,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=write_ends[0],
            stderr=write_ends[1],
            start_new_session=True,
        )
    except BaseException:
        for pipe, _ in outputs:
            pipe.close()
        raise
    finally:  # the child has its copies; ours would keep the pipes from ever ending
        for fd in write_ends:
            os.close(fd)
    process = asyncio.subprocess.Process(transport, protocol, loop)
    return HookChild(process, protocol.exited, outputs[0][1], tuple(outputs))


async def read_pipe(
    loop: asyncio.AbstractEventLoop, fd: int, protocol: asyncio.Protocol
) -> asyncio.BaseTransport:
    """Have the loop itself read the pipe `fd` into `protocol`; the transport owns `fd`."""
    pipe = open(fd, "rb", buffering=0)  # noqa: SIM115 (the transport owns it and closes it)
    try:
        transport, _ = await loop.connect_read_pipe(lambda: protocol, pipe)
    except BaseException:
        pipe.close()
        raise
    return transport
