"""A command hook in the journal: each call is an exchange whose Raw tab shows stdin, stdout,
stderr, the exit code and the duration. What the run means is decided by the host's chain."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from typing import Any

from inspector.config.model import CommandHookSpec
from inspector.hooks.run_command import CommandRun, run_command
from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_ERROR,
    STATUS_NOT_SENT,
    STATUS_OK,
    STATUS_PENDING,
    STATUS_TIMEOUT,
    Exchange,
)

READY = "ready"


class CommandHook:
    """Runs `spec.command` through `shell` (argv prefix, e.g. ("bash", "-lc")) once per call."""

    def __init__(
        self,
        spec: CommandHookSpec,
        journal: Journal,
        shell: tuple[str, ...],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin_newline: bool = False,
    ) -> None:
        self.spec = spec
        self.journal = journal
        self.shell = shell
        self.cwd = cwd
        self.env = dict(env or {})
        self.stdin_newline = stdin_newline  # the host ends the JSON with a newline (Claude Code)
        self.state = READY  # nothing runs between calls, so a command hook is always ready
        self.pid: int | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def argv(self) -> tuple[str, ...]:
        return (*self.shell, self.spec.command)

    def exchange_for(
        self,
        context: Mapping[str, Any],
        *,
        source: str,
        turn: str | None,
        cwd: str | None = None,
    ) -> Exchange:
        """The record of a run with `context` on stdin, in `cwd` (else the hook's own folder),
        not yet in the journal."""
        return Exchange(
            hook=self.name,
            method=self.spec.event,
            request=dict(context),
            raw_request=json.dumps(context, separators=(",", ":"), ensure_ascii=False),
            source=source,
            turn=turn,
            status=STATUS_PENDING,
            cwd=cwd or self.cwd,
        )

    def one_liner(self, raw_request: str) -> str:
        """The same stdin into the same command, through its shell (with the newline the host
        ends it with, if it does)."""
        run = " ".join(shlex.quote(part) for part in self.argv)
        prefix = f"cd {shlex.quote(self.cwd)} && " if self.cwd else ""
        form = "%s\\n" if self.stdin_newline else "%s"
        return f"{prefix}printf '{form}' {shlex.quote(raw_request)} | {run}"

    def never_ran(self, exchange: Exchange) -> CommandRun:
        """What the host reads of a run that never started (dropped at the intercept): no
        output, no exit code, `exchange.error` as the reason."""
        return CommandRun(
            argv=self.argv,
            stdin=exchange.raw_request or "",
            stdout="",
            stderr="",
            exit_code=None,
            signal=None,
            timed_out=False,
            duration_ms=exchange.duration_ms or 0.0,
            unread_stdin=0,  # nothing was offered to a process, so nothing was left unread
            spawn_error=exchange.error or "never started",
        )

    async def call(
        self,
        context: Mapping[str, Any],
        *,
        source: str,
        turn: str | None = None,
        timeout_ms: int | None = None,
        env: Mapping[str, str] | None = None,
        exchange: Exchange | None = None,
        cwd: str | None = None,
    ) -> tuple[Exchange, CommandRun]:
        """One run with `context` as compact JSON on stdin, in `cwd` (else the hook's own
        folder). The exchange is in the journal as pending while the command runs, and updated
        when it ends. `exchange` is a record already in the journal (a run that was held) to
        fill in."""
        sent = self.exchange_for(context, source=source, turn=turn, cwd=cwd)
        # the W3C trace context a live host gave the event, which this run gets too: its
        # spans join the host's trace (otel/)
        sent.traceparent = (env or {}).get("TRACEPARENT")
        sent.tracestate = (env or {}).get("TRACESTATE")
        if exchange is None:
            exchange = self.journal.append(sent)
        else:
            self.journal.amend(
                exchange,
                request=sent.request,
                raw_request=sent.raw_request,
                status=STATUS_PENDING,
                cwd=sent.cwd,
                traceparent=sent.traceparent,
                tracestate=sent.tracestate,
            )
        run = await run_command(
            self.argv,
            (sent.raw_request or "") + ("\n" if self.stdin_newline else ""),
            timeout_s=(timeout_ms if timeout_ms is not None else self.spec.timeout_ms) / 1000,
            cwd=sent.cwd,
            env={**self.env, **(env or {})},
        )
        status, error = _status(run)
        self.journal.amend(
            exchange,
            raw_response=run.stdout,
            response=parse_stdout(run.stdout),
            stderr=run.stderr,
            exit_code=run.exit_code,
            duration_ms=run.duration_ms,
            status=status,
            error=error,
        )
        return exchange, run


def parse_stdout(stdout: str) -> dict[str, Any] | None:
    """The whole of stdout as a JSON object, or None when it is not exactly one."""
    try:
        value = json.loads(stdout)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _status(run: CommandRun) -> tuple[str, str | None]:
    if run.spawn_error:
        return STATUS_NOT_SENT, run.spawn_error
    if run.timed_out:
        return STATUS_TIMEOUT, f"killed after {run.duration_ms:.0f} ms (timeout)"
    if run.exit_code != 0:
        how = (
            f"exit status {run.exit_code}" if run.exit_code is not None else f"signal {run.signal}"
        )
        return STATUS_ERROR, how
    return STATUS_OK, None
