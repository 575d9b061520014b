"""A persistent JSON-RPC hook process, hosted the way PicoClaw hosts it, but supervised."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import signal
import time
from dataclasses import dataclass
from typing import Any

from inspector.config.model import Defaults, HookSpec
from inspector.hooks.pipes import HookChild, start_child
from inspector.hosts.picoclaw import line_findings
from inspector.hosts.picoclaw.decode import hello_findings, read_message, remember_reading
from inspector.hosts.picoclaw.gojson.decode import json_kind
from inspector.hosts.picoclaw.gojson.syntax import go_text
from inspector.hosts.picoclaw.outcome import RpcLine
from inspector.hosts.picoclaw.templates import hello_params
from inspector.journal.journal import Journal
from inspector.journal.records import (
    EXITED,
    FAILED,
    READY,
    RESTARTING,
    STARTING,
    STATUS_CANCELLED,
    STATUS_ERROR,
    STATUS_EXITED,
    STATUS_INVALID,
    STATUS_NOT_SENT,
    STATUS_OK,
    STATUS_PENDING,
    STATUS_TIMEOUT,
    STOPPED,
    STOPPING,
    Exchange,
    Finding,
    Lifecycle,
    Noise,
    Stderr,
)
from inspector.jsonrpc import messages as jsonrpc
from inspector.jsonrpc.framing import Line
from inspector.jsonrpc.stages import HELLO

CLOSE_GRACE_S = 2.0  # PicoClaw: close stdin, wait 2 s, then kill
EXIT_DRAIN_S = 0.2  # after exit, how long stdout may still deliver answers (a child may hold it)
BACKOFF_START_S = 0.25
BACKOFF_MAX_S = 30.0
STABLE_AFTER_S = 10.0  # a run this long resets the restart backoff
NO_RESTART_NOTE = (
    "PicoClaw never restarts a crashed hook: until a config reload its interceptors are "
    "skipped, its approvals deny and its observers miss events"
)


class ProcessHook:
    """One hook child. Calls are matched to answers by id, any number in flight at once;
    every line in either direction ends up in the journal."""

    def __init__(
        self,
        spec: HookSpec,
        journal: Journal,
        defaults: Defaults,
        *,
        restart: bool = True,
    ) -> None:
        self.spec = spec
        self.journal = journal
        self.defaults = defaults
        self.restart_enabled = restart
        self.state = STOPPED
        self.pid: int | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._child: HookChild | None = None
        self._run = _Run()
        self._next_id = 0
        self._pending: dict[int, tuple[asyncio.Future[_Answered], Exchange]] = {}
        self._finished: dict[int, Exchange] = {}  # answered or timed out, for late/duplicate ids
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self._backoff = BACKOFF_START_S
        self._restart_task: asyncio.Task[None] | None = None
        self._started_at = 0.0
        self.crashes = 0  # PicoClaw would have left the hook dead after the first

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def running(self) -> bool:
        return self.state == READY

    # ---- lifecycle -------------------------------------------------------------------------

    async def start(self) -> bool:
        """Spawn and handshake. True when the hook is ready for calls."""
        self._stopping = False
        if not await self._spawn():
            return False
        exchange = await self._call(
            HELLO,
            hello_params(self.spec.name, self.spec.modes),
            timeout_s=self.defaults.handshake_timeout_ms / 1000,
            source="host",
            turn=None,
            timeout_ms=self.defaults.handshake_timeout_ms,
        )
        problem = _hello_problem(exchange, self.defaults.handshake_timeout_ms)
        if problem is None:
            self._set_state(READY, detail=f"modes {', '.join(self.spec.modes)}")
            return True
        if self._proc is not None and self._proc.returncode is None:
            self._set_state(
                FAILED,
                detail=problem,
                picoclaw="PicoClaw fails to load every configured hook when one hello fails",
            )
            await self._close_process()
        return False

    def follow(self, defaults: Defaults) -> None:
        self.defaults = defaults

    async def stop(self) -> None:
        """Close stdin, give the hook 2 s to exit, then kill it (PicoClaw sends no SIGTERM)."""
        self._stopping = True
        if self._restart_task is not None:
            self._restart_task.cancel()
            self._restart_task = None
        if self._proc is None or self._proc.returncode is not None:
            self._set_state(STOPPED)
            return
        self._set_state(STOPPING)
        await self._close_process()
        for task in self._tasks:
            task.cancel()
        self._set_state(STOPPED)

    async def _spawn(self) -> bool:
        env = {**os.environ, **self.spec.env_dict} if self.spec.env else None
        run = _Run()
        try:
            child = await start_child(
                self.spec.command,
                cwd=self.spec.dir,
                env=env,
                on_stdout=functools.partial(self._on_stdout_line, run),
                on_stderr=functools.partial(self._on_stderr_line, run),
            )
        except OSError as exc:
            self._set_state(FAILED, detail=f"cannot start {self.spec.command[0]!r}: {exc}")
            return False
        proc = child.process
        run.pid = proc.pid
        self._run = run
        self._child = child
        self._proc = proc
        self.pid = proc.pid
        self._next_id = 0
        self._finished.clear()
        self._started_at = time.monotonic()
        self._set_state(STARTING, detail=" ".join(self.spec.command))
        self._tasks = [asyncio.create_task(self._watch_exit(child))]
        return True

    async def _close_process(self) -> None:
        proc, self._proc = self._proc, None  # an exit we caused is not a crash
        child, self._child = self._child, None
        if proc is None or child is None:
            return
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(child.exited.wait(), CLOSE_GRACE_S)
        _kill_group(proc.pid)
        with contextlib.suppress(asyncio.TimeoutError):  # reaped: its exit status is known
            await asyncio.wait_for(child.exited.wait(), CLOSE_GRACE_S)
        await child.close_outputs(CLOSE_GRACE_S)

    async def _watch_exit(self, child: HookChild) -> None:
        try:
            await self._handle_exit(child)
        finally:  # after a restart is on its way, not before; also when stopped meanwhile
            await child.close_outputs(CLOSE_GRACE_S)

    async def _handle_exit(self, child: HookChild) -> None:
        proc = child.process
        await child.exited.wait()
        code = proc.returncode
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(child.stdout.ended.wait(), EXIT_DRAIN_S)
        _kill_group(proc.pid)  # its children would hold the pipes and outlive every stop
        reason = "process exited" if code == 0 else f"exit status {code}"
        self._fail_pending(STATUS_EXITED, reason)
        if self._stopping or proc is not self._proc:
            return
        self.crashes += 1
        self._set_state(EXITED, detail=reason, exit_code=code, picoclaw=NO_RESTART_NOTE)
        restarting = self._restart_task is not None and not self._restart_task.done()
        if self.restart_enabled and not restarting:  # a crash at hello: that loop goes on
            self._restart_task = asyncio.create_task(self._restart_later())

    async def _restart_later(self) -> None:
        """Start the hook again until it is ready or stopped, each wait twice the last: a
        respawn that fails (no file descriptor left, a hello that times out or crashes) is no
        reason to leave the hook dead for good."""
        if time.monotonic() - self._started_at > STABLE_AFTER_S:
            self._backoff = BACKOFF_START_S
        while not self._stopping:
            delay = self._backoff
            self._backoff = min(self._backoff * 2, BACKOFF_MAX_S)
            self._set_state(RESTARTING, detail=f"in {delay:.2f} s")
            await asyncio.sleep(delay)
            if self._stopping:
                return
            if await self.start():
                return

    def _set_state(
        self,
        state: str,
        *,
        detail: str = "",
        exit_code: int | None = None,
        picoclaw: str = "",
    ) -> None:
        self.state = state
        self.journal.append(
            Lifecycle(
                hook=self.name,
                state=state,
                pid=self.pid,
                detail=detail,
                exit_code=exit_code,
                picoclaw=picoclaw,
            )
        )

    # ---- calls -----------------------------------------------------------------------------

    async def call(
        self,
        method: str,
        params: Any,
        *,
        timeout_ms: int,
        source: str,
        turn: str | None = None,
        exchange: Exchange | None = None,
    ) -> Exchange:
        """Send one request and wait for its answer, its timeout, or the process's exit.
        `exchange` is a record already in the journal (a request that was held) to fill in."""
        if not self.running:
            return self._not_sent(method, params, source, turn, exchange)
        return await self._call(
            method,
            params,
            timeout_s=timeout_ms / 1000,
            source=source,
            turn=turn,
            timeout_ms=timeout_ms,
            exchange=exchange,
        )

    async def notify(self, method: str, params: Any) -> str | None:
        """Send a notification. Returns an error text when it could not be written."""
        if not self.running or self._proc is None or self._proc.stdin is None:
            return f"hook {self.name!r} is {self.state}"
        stdin = self._proc.stdin
        if stdin.is_closing():
            return f"hook {self.name!r} closed its stdin"
        try:
            line = jsonrpc.encode(jsonrpc.notification(method, params))
        except UnicodeEncodeError as exc:
            return _unsendable(exc)
        try:
            stdin.write(line)
            if stdin.transport.get_write_buffer_size():  # the pipe is full: wait, within limits
                await asyncio.wait_for(stdin.drain(), self.defaults.observer_timeout_ms / 1000)
        except TimeoutError:
            return f"write timed out after {self.defaults.observer_timeout_ms} ms"
        except (BrokenPipeError, ConnectionResetError) as exc:
            return f"write failed: {exc}"
        return None

    async def _call(
        self,
        method: str,
        params: Any,
        *,
        timeout_s: float,
        source: str,
        turn: str | None,
        timeout_ms: int,
        exchange: Exchange | None = None,
    ) -> Exchange:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        rpc_id = self._next_id + 1
        message = jsonrpc.request(rpc_id, method, params)
        text = jsonrpc.request_text(rpc_id, method, params)
        try:
            line = (text + "\n").encode()
        except UnicodeEncodeError as exc:
            return self._not_sent(method, params, source, turn, exchange, _unsendable(exc))
        self._next_id = rpc_id
        started = time.perf_counter()
        # Written before the bookkeeping below, which then overlaps the hook's work: no answer
        # can be read before this coroutine next yields, and write() itself never raises (a
        # broken pipe surfaces in drain, or as the hook's exit).
        proc.stdin.write(line)
        fields: dict[str, Any] = {
            "hook": self.name,
            "method": method,
            "request": message,
            "source": source,
            "turn": turn,
            "rpc_id": rpc_id,
            "raw_request": text,
        }
        if exchange is None:
            exchange = self.journal.append(Exchange(**fields))
        else:
            self.journal.amend(exchange, **fields, status=STATUS_PENDING)
        future: asyncio.Future[_Answered] = asyncio.get_running_loop().create_future()
        self._pending[rpc_id] = (future, exchange)
        try:
            answered = await _answer(proc.stdin, future, timeout_s)
        except TimeoutError:
            reason = f"no answer within {timeout_ms} ms"
            if self._child is not None and self._child.stdout.ended.is_set():
                reason += " (the hook closed its stdout: no answer can arrive)"
            self._finish(exchange, started, STATUS_TIMEOUT, reason)
        except (BrokenPipeError, ConnectionResetError) as exc:
            self._finish(exchange, started, STATUS_EXITED, f"write failed: {exc}")
        except _CallFailed as failure:
            self._finish(exchange, started, failure.status, failure.reason)
        except asyncio.CancelledError:
            self._finish(exchange, started, STATUS_CANCELLED, "the caller gave up")
            raise
        else:
            # What PicoClaw makes of a stage's answer depends on the chain it is part of: the
            # pipeline reads it (pipeline.answers) and adds those findings.
            found = hello_findings(answered.line, self.name) if method == HELLO else []
            duration_ms = (time.perf_counter() - started) * 1000
            found += line_findings.slow_answer(method, duration_ms, timeout_ms)
            status, error = _answer_status(method, answered.line)
            self._finish(
                exchange,
                started,
                status,
                error,
                response=answered.message,
                raw_response=answered.text,
                findings=[*exchange.findings, *found],
            )
        finally:
            self._pending.pop(rpc_id, None)
            self._finished[rpc_id] = exchange
        return exchange

    def _finish(
        self, exchange: Exchange, started: float, status: str, error: str | None, **changes: Any
    ) -> None:
        duration_ms = round((time.perf_counter() - started) * 1000, 3)
        self.journal.amend(exchange, duration_ms=duration_ms, status=status, error=error, **changes)

    def _not_sent(
        self,
        method: str,
        params: Any,
        source: str,
        turn: str | None,
        exchange: Exchange | None,
        reason: str | None = None,
    ) -> Exchange:
        fields: dict[str, Any] = {
            "hook": self.name,
            "method": method,
            "request": jsonrpc.request(0, method, params),
            "source": source,
            "turn": turn,
            "status": STATUS_NOT_SENT,
            "error": reason or f"hook {self.name!r} is {self.state}",
            "duration_ms": 0.0,
        }
        if exchange is None:
            exchange = self.journal.append(Exchange(**fields))
        else:
            self.journal.amend(exchange, **fields)
        return exchange

    def _fail_pending(self, status: str, reason: str) -> None:
        for future, _exchange in list(self._pending.values()):
            if not future.done():
                future.set_exception(_CallFailed(status, reason))

    # ---- reading ---------------------------------------------------------------------------

    def _on_stdout_line(self, run: _Run, line: Line) -> None:
        """Each line is read as PicoClaw's reader reads it (read_message), except that the
        inspector reads on past a line over 1 MiB (PicoClaw's reader stops for good there)."""
        size = line.size
        extra: list[Finding] = (
            line_findings.oversized_line(size) if line.over_picoclaw_limit else []
        )
        rpc = read_message(line.data)
        if run is not self._run:  # an earlier run's straggler: its ids are not this run's
            exchange_seq, found = None, _straggler_findings(rpc, run.pid)
        else:
            pending = self._pending.get(rpc.rpc_id) if rpc.kind == "answer" else None
            if pending is not None and not pending[0].done():
                future, exchange = pending
                found = [*extra, *line_findings.invalid_utf8(rpc)]
                if found:
                    self.journal.add_findings(exchange, *found)
                # The text Go decodes (a U+FFFD per byte that is not UTF-8): reading the
                # recorded answer again gives what PicoClaw read.
                text = go_text(line.data)
                remember_reading(text, rpc)
                future.set_result(_Answered(rpc, json.loads(text), text))
                return
            exchange_seq, found = self._exchange_for(rpc), self._noise_findings(rpc)
        self.journal.append(
            Noise(
                hook=self.name,
                line=line.data.decode("utf-8", errors="replace"),
                size=size,
                pid=run.pid,
                exchange=exchange_seq,
                findings=extra + found,
            )
        )

    def _exchange_for(self, rpc: RpcLine) -> int | None:
        if rpc.kind == "answer" and rpc.rpc_id in self._finished:
            return self._finished[rpc.rpc_id].seq
        return None

    def _noise_findings(self, rpc: RpcLine) -> list[Finding]:
        if rpc.kind != "answer":
            return line_findings.unread(rpc)
        if rpc.rpc_id in self._pending:  # answered, and its caller not yet resumed
            return line_findings.duplicate_id(rpc.rpc_id)
        earlier = self._finished.get(rpc.rpc_id)
        if earlier is None:
            return line_findings.unknown_id(rpc.rpc_id)
        if earlier.status == STATUS_TIMEOUT:
            return line_findings.late_answer(rpc.rpc_id, earlier.seq)
        return line_findings.duplicate_id(rpc.rpc_id)

    def _on_stderr_line(self, run: _Run, line: Line) -> None:
        self.journal.append(
            Stderr(hook=self.name, line=line.data.decode("utf-8", errors="replace"), pid=run.pid)
        )


@dataclass(frozen=True, slots=True)
class _Answered:
    """The line that answered a call: as PicoClaw's reader took it, as a dict, and as text."""

    line: RpcLine
    message: dict[str, Any]
    text: str


def _straggler_findings(rpc: RpcLine, pid: int | None) -> list[Finding]:
    if rpc.kind == "answer":
        return line_findings.from_earlier_run(rpc.rpc_id, pid)
    return line_findings.unread(rpc)


@dataclass(slots=True)
class _Run:
    """One start of the hook. A grandchild of an earlier run may still write after a restart,
    and ids begin at 1 again: its lines must not be taken for this run's."""

    pid: int | None = None


def _unsendable(exc: UnicodeEncodeError) -> str:
    """Python strings may hold a lone surrogate (JSON's "\\ud800"); a UTF-8 pipe cannot."""
    code = ord(exc.object[exc.start])
    return (
        f"not sent: the message holds a lone surrogate (U+{code:04X}), which UTF-8 cannot "
        "carry (a Go host never has one: it decodes it to U+FFFD)"
    )


def _kill_group(pid: int) -> None:
    """Kill what is left of a hook's process group (it is its own session's leader)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


class _CallFailed(Exception):
    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


async def _answer(
    stdin: asyncio.StreamWriter, future: asyncio.Future[_Answered], timeout_s: float
) -> _Answered:
    """Wait for the answer with the write inside the deadline. Most requests fit in the pipe at
    once, and then a timer on the future is enough: no task per call, fewer loop passes."""
    if stdin.transport.get_write_buffer_size():
        return await asyncio.wait_for(_drain_then(stdin, future), timeout_s)
    timer = asyncio.get_running_loop().call_later(timeout_s, _expire, future)
    try:
        return await future
    finally:
        timer.cancel()


async def _drain_then(stdin: asyncio.StreamWriter, future: asyncio.Future[_Answered]) -> _Answered:
    await stdin.drain()
    return await future


def _expire(future: asyncio.Future[_Answered]) -> None:
    if not future.done():
        future.set_exception(TimeoutError())


def _answer_status(method: str, line: RpcLine) -> tuple[str, str | None]:
    """How PicoClaw's call() would classify an answer that matched its id. A result that is an
    object of the wrong shape is the reading host's to judge (it is still `ok` here)."""
    if line.error is not None:
        return STATUS_ERROR, f"{method} failed: {line.error['message']}"
    if line.result is not None and not line.result.is_object():
        return STATUS_INVALID, f"decode {method} result: a JSON {json_kind(line.result.node)}"
    return STATUS_OK, None


def _hello_problem(exchange: Exchange, timeout_ms: int) -> str | None:
    if exchange.status == STATUS_OK:
        return None
    if exchange.status == STATUS_TIMEOUT:
        return (
            f"no answer to hook.hello within {timeout_ms} ms "
            "(handshake_timeout_ms; PicoClaw would wait forever and block start-up)"
        )
    if exchange.status == STATUS_PENDING:
        return "hook.hello never finished"
    return f"hook.hello {exchange.status}: {exchange.error}"
