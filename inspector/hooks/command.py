"""One process per call: the context JSON on stdin, the result on stdout, an exit code.
This module only runs the command and reports what happened; what an exit code or an output
means is the host's business (j-cli and Claude Code read them differently)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import termios
import time
from collections.abc import Mapping
from dataclasses import dataclass

KILL_GRACE_S = 0.5  # after the exit, how long output may still arrive through the pipes


@dataclass(frozen=True, slots=True)
class CommandRun:
    """Everything one run left behind, as the Raw tab shows it."""

    argv: tuple[str, ...]
    stdin: str
    stdout: str
    stderr: str
    exit_code: int | None  # None when it was killed or never started
    signal: int | None  # the signal that ended it, if one did
    timed_out: bool
    duration_ms: float
    unread_stdin: int  # bytes of stdin the command never read (all of it: it ignores stdin)
    spawn_error: str | None = None

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    @property
    def ignored_stdin(self) -> bool:
        return bool(self.stdin) and self.unread_stdin == len(self.stdin.encode())


async def run_command(
    argv: tuple[str, ...],
    stdin: str,
    *,
    timeout_s: float,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> CommandRun:
    """Run `argv` with `stdin` written and then closed; kill its whole process tree at the
    timeout. `env` is added to the inherited environment."""
    started = time.perf_counter()
    read_end, write_end = os.pipe()
    # A second handle on the read end lets us ask, after the exit, how much was never read.
    watch_end = os.dup(read_end)
    try:
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                stdin=read_end,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env={**os.environ, **env} if env else None,
                start_new_session=True,  # its own process group: a timeout kills the tree
            )
        except OSError as exc:
            os.close(write_end)
            return _never_started(argv, stdin, started, f"{argv[0]}: {exc.strerror or exc}")
        finally:
            os.close(read_end)
        writing = asyncio.create_task(_write_and_close(write_end, stdin.encode()))
        stdout, stderr = bytearray(), bytearray()
        readers = asyncio.gather(_collect(proc.stdout, stdout), _collect(proc.stderr, stderr))
        timed_out = False
        try:
            await asyncio.wait_for(proc.wait(), timeout_s)
        except asyncio.TimeoutError:
            timed_out = True
            _kill_group(proc.pid)
            await proc.wait()
        except asyncio.CancelledError:  # the caller gave up (a turn or the app ended)
            _kill_group(proc.pid)
            readers.cancel()
            writing.cancel()
            await asyncio.shield(proc.wait())
            raise
        # children that outlive the command may hold the pipes open; do not wait for them
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(readers), KILL_GRACE_S)
        readers.cancel()
        writing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writing
        unread = _unread(watch_end)
    finally:
        os.close(watch_end)
    code = proc.returncode
    return CommandRun(
        argv=argv,
        stdin=stdin,
        stdout=stdout.decode("utf-8", errors="replace"),
        stderr=stderr.decode("utf-8", errors="replace"),
        exit_code=code if code is not None and code >= 0 else None,
        signal=-code if code is not None and code < 0 else None,
        timed_out=timed_out,
        duration_ms=round((time.perf_counter() - started) * 1000, 3),
        unread_stdin=unread,
    )


async def _write_and_close(fd: int, data: bytes) -> None:
    """Write all of stdin, then close it. A command that exits without reading is fine: the
    hosts ignore write errors too."""
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(None, _write_all, fd, data)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    with contextlib.suppress(BrokenPipeError, OSError):
        while view:
            view = view[os.write(fd, view) :]


def _unread(fd: int) -> int:
    buffer = bytearray(4)
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.FIONREAD, buffer)
    return int.from_bytes(buffer, "little")


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def _collect(stream: asyncio.StreamReader | None, into: bytearray) -> None:
    """Keep what arrives as it arrives, so a killed command's partial output survives."""
    assert stream is not None
    while chunk := await stream.read(1 << 16):
        into += chunk


def _never_started(argv: tuple[str, ...], stdin: str, started: float, error: str) -> CommandRun:
    return CommandRun(
        argv=argv,
        stdin=stdin,
        stdout="",
        stderr="",
        exit_code=None,
        signal=None,
        timed_out=False,
        duration_ms=round((time.perf_counter() - started) * 1000, 3),
        unread_stdin=len(stdin.encode()),
        spawn_error=error,
    )
