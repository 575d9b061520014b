"""A hook child's output pipes: every line reaches its handler, and nothing is left open."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector.hooks.pipes import LineReader, start_child
from inspector.jsonrpc.framing import Line
from tests.support.fds import needs_proc, open_fds
from tests.support.waiting import wait_for


def live_children() -> set[int]:
    """Our child processes that have not exited (a zombie has)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            if int(parent) == os.getpid() and state != "Z":
                found.add(int(entry.name))
    return found


class Collected:
    """Lines handed over, and the errors the loop was told about."""

    def __init__(self, fail_on: bytes = b"") -> None:
        self.lines: list[bytes] = []
        self.errors: list[dict[str, Any]] = []
        self._fail_on = fail_on

    def __call__(self, line: Line) -> None:
        if line.data == self._fail_on:
            raise RuntimeError(f"cannot handle {line.data!r}")
        self.lines.append(line.data)


async def reading(collected: Collected) -> tuple[LineReader, int]:
    """A LineReader on a real pipe; returns it and the pipe's write end."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: collected.errors.append(context))
    read_end, write_end = os.pipe()
    reader = LineReader(collected)
    pipe = open(read_end, "rb", buffering=0)  # noqa: SIM115 (the transport closes it)
    await loop.connect_read_pipe(lambda: reader, pipe)
    return reader, write_end


async def test_a_failing_handler_costs_no_other_line() -> None:
    collected = Collected(fail_on=b"boom")
    reader, write_end = await reading(collected)
    os.write(write_end, b"a\nboom\nc\n")  # one read: the line after the failure is in it
    await wait_for(lambda: collected.lines == [b"a", b"c"])
    os.write(write_end, b"d\ntail without newline")
    os.close(write_end)
    await wait_for(reader.ended.is_set)
    assert collected.lines == [b"a", b"c", b"d", b"tail without newline"]
    assert [str(error["exception"]) for error in collected.errors] == ["cannot handle b'boom'"]


async def test_the_end_is_told_even_when_the_last_line_fails() -> None:
    collected = Collected(fail_on=b"last")
    reader, write_end = await reading(collected)
    os.write(write_end, b"first\nlast")
    os.close(write_end)
    await wait_for(reader.ended.is_set)
    assert collected.lines == [b"first"] and len(collected.errors) == 1


@needs_proc
async def test_a_cancelled_close_still_stops_reading_a_pipe_someone_holds() -> None:
    before = open_fds()
    pids = Collected()
    # The grandchild leaves the session and keeps both pipes: they never end by themselves.
    script = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid(); print(os.getpid(), flush=True); time.sleep(60)\n"
    )
    child = await start_child(
        [sys.executable, "-c", script], cwd=None, env=None, on_stdout=pids, on_stderr=pids
    )
    try:
        await child.process.wait()
        await wait_for(lambda: pids.lines != [])
        closing = asyncio.create_task(child.close_outputs(60.0))
        await asyncio.sleep(0)  # let it start waiting for pipes that will not end
        closing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await closing
        await wait_for(lambda: open_fds() <= before)
    finally:
        for pid in pids.lines:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), 9)


@needs_proc
@pytest.mark.parametrize("passes", range(6))
async def test_a_start_cancelled_at_any_point_leaves_no_child_and_no_pipe(passes: int) -> None:
    before_fds, before_children = open_fds(), live_children()
    starting = asyncio.create_task(
        start_child(
            [sys.executable, "-c", "import sys; sys.stdin.read()"],
            cwd=None,
            env=None,
            on_stdout=Collected(),
            on_stderr=Collected(),
        )
    )
    for _ in range(passes):
        await asyncio.sleep(0)
    starting.cancel()
    try:
        child = await starting
    except asyncio.CancelledError:
        pass
    else:  # it got there first: a started child is the caller's to stop
        assert child.process.stdin is not None
        child.process.stdin.close()
        await child.process.wait()
        await child.close_outputs(5.0)
    await wait_for(lambda: live_children() <= before_children)
    await wait_for(lambda: open_fds() <= before_fds)
