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
from typing import Any

from inspector.hooks.pipes import read_pipe

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
        return bool(self.stdin) and self.unread_stdin == len(stdin_bytes(self.stdin))


def stdin_bytes(stdin: str) -> bytes:
    """The context as written: a lone surrogate (JSON's "\\ud800") cannot be UTF-8, and inside
    a JSON string backslashreplace writes back that same escape, as JSON.stringify does."""
    return stdin.encode("utf-8", "backslashreplace")


async def run_command(
    argv: tuple[str, ...],
    stdin: str,
    *,
    timeout_s: float,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> CommandRun:
    """Run `argv` with `stdin` written and then closed; kill its whole process tree at the
    timeout. `env` is added to the inherited environment. Cancelled, it kills the tree and
    returns at once, whatever still holds the pipes."""
    started = time.perf_counter()
    loop = asyncio.get_running_loop()
    outputs = (_Collector(), _Collector())
    readers: list[asyncio.BaseTransport] = []
    stdin_read, stdin_write = os.pipe()
    # A second handle on the read end lets us ask, after the exit, how much was never read.
    watch_end = os.dup(stdin_read)
    child_ends = [stdin_read]
    writer: asyncio.WriteTransport | None = None
    spawning: asyncio.Future[tuple[asyncio.SubprocessTransport, _ExitWatch]] | None = None
    try:
        for collector in outputs:
            read_end, write_end = os.pipe()
            child_ends.append(write_end)
            readers.append(await read_pipe(loop, read_end, collector))
        spawning = asyncio.ensure_future(_spawn(loop, argv, child_ends, cwd, env))
        try:
            # Shielded: a cancel that lands mid-spawn must not wait for the child's whole life.
            process, watch = await asyncio.shield(spawning)
        except asyncio.CancelledError:
            spawning.add_done_callback(_kill_once_started)
            raise
        except OSError as exc:
            return _never_started(argv, stdin, started, f"{argv[0]}: {exc.strerror or exc}")
        try:
            writer = await _write_and_close(loop, stdin_write, stdin_bytes(stdin))
            timed_out = await _wait_or_kill(process, watch, timeout_s)
        except asyncio.CancelledError:  # the caller gave up (a turn or the app ended)
            _kill_group(process.get_pid())
            process.close()
            raise
        # children that outlive the command may hold the pipes open; do not wait for them
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(_all_ended(outputs), KILL_GRACE_S)
        unread = _unread(watch_end) + writer.get_write_buffer_size()
        code = process.get_returncode()
        process.close()
    finally:
        if spawning is None:  # the child's ends are the spawn's to close once it ran
            for fd in child_ends:
                os.close(fd)
        if writer is None:
            os.close(stdin_write)
        elif writer.get_write_buffer_size():  # a command that stopped reading: drop the rest
            writer.abort()
        for reader in readers:
            reader.close()
        os.close(watch_end)
    stdout, stderr = (bytes(collector.data) for collector in outputs)
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


class _Collector(asyncio.Protocol):
    """Keeps what arrives as it arrives, so a killed command's partial output survives."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.ended = asyncio.Event()

    def data_received(self, data: bytes) -> None:
        self.data += data

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended.set()


class _ExitWatch(asyncio.SubprocessProtocol):
    def __init__(self) -> None:
        self.exited = asyncio.Event()

    def process_exited(self) -> None:
        self.exited.set()


async def _spawn(
    loop: asyncio.AbstractEventLoop,
    argv: tuple[str, ...],
    child_ends: list[int],
    cwd: str | None,
    env: Mapping[str, str] | None,
) -> tuple[asyncio.SubprocessTransport, _ExitWatch]:
    """Start the command on our own pipes (stdin, stdout, stderr), so asyncio holds none of
    them; the child's ends are closed here, once it has its copies."""
    stdin, stdout, stderr = child_ends
    try:
        return await loop.subprocess_exec(
            _ExitWatch,
            *argv,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=cwd,
            env={**os.environ, **env} if env else None,
            start_new_session=True,  # its own process group: a timeout kills the tree
        )
    finally:
        for fd in child_ends:
            os.close(fd)


def _kill_once_started(spawning: asyncio.Future[tuple[asyncio.SubprocessTransport, Any]]) -> None:
    if spawning.cancelled() or spawning.exception() is not None:
        return
    process, _ = spawning.result()
    _kill_group(process.get_pid())
    process.close()


async def _write_and_close(
    loop: asyncio.AbstractEventLoop, fd: int, data: bytes
) -> asyncio.WriteTransport:
    """Write all of stdin, then close it, without ever blocking on a command that does not read.
    A command that exits without reading is fine: the hosts ignore write errors too."""
    pipe = open(fd, "wb", buffering=0)  # noqa: SIM115 (the transport owns it and closes it)
    try:
        writer, _ = await loop.connect_write_pipe(asyncio.BaseProtocol, pipe)
    except BaseException:
        pipe.close()
        raise
    writer.write(data)
    writer.write_eof()
    return writer


async def _wait_or_kill(
    process: asyncio.SubprocessTransport, watch: _ExitWatch, timeout_s: float
) -> bool:
    """Wait for the exit; at the timeout kill the tree, wait for the exit, and say so."""
    try:
        await asyncio.wait_for(watch.exited.wait(), timeout_s)
    except TimeoutError:
        _kill_group(process.get_pid())
        await watch.exited.wait()
        return True
    return False


async def _all_ended(outputs: tuple[_Collector, ...]) -> None:
    for collector in outputs:
        await collector.ended.wait()


def _unread(fd: int) -> int:
    buffer = bytearray(4)
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.FIONREAD, buffer)
    return int.from_bytes(buffer, "little")


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


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
        unread_stdin=len(stdin_bytes(stdin)),
        spawn_error=error,
    )
