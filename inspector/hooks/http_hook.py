"""An HTTP hook in the journal: each call is an exchange whose Raw tab shows the body POSTed, the
answer's body, its HTTP status and the duration. What the answer means is decided by the host's
chain; the headers (which may carry secrets) are not journalled."""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from inspector.config.model import CommandHookSpec
from inspector.hooks.command_hook import parse_stdout
from inspector.hooks.run_http import HttpRun, post_json, request_headers
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
# The headers one call sends, from the environment its header values may read.
HeaderMaker = Callable[[Mapping[str, str]], list[tuple[str, str]]]


class HttpHook:
    """POSTs the event's JSON to `spec.http.url` once per call."""

    def __init__(
        self,
        spec: CommandHookSpec,
        journal: Journal,
        headers: HeaderMaker,
        *,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if spec.http is None:
            raise ValueError(f"{spec.name} is not an http hook")
        self.spec = spec
        self.url = spec.http.url
        self.journal = journal
        self.headers = headers
        self.env = dict(env or {})
        self.cwd: str | None = None  # nothing runs in a folder
        self.state = READY  # nothing runs between calls, so an http hook is always ready
        self.pid: int | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    def exchange_for(
        self,
        context: Mapping[str, Any],
        *,
        source: str,
        turn: str | None,
        cwd: str | None = None,
    ) -> Exchange:
        """The record of a request with `context` as its body, not yet in the journal."""
        return Exchange(
            hook=self.name,
            method=self.spec.event,
            request=dict(context),
            raw_request=json.dumps(context, separators=(",", ":"), ensure_ascii=False),
            source=source,
            turn=turn,
            status=STATUS_PENDING,
            cwd=cwd,
        )

    def never_ran(self, exchange: Exchange) -> HttpRun:
        """What the host reads of a request never sent (dropped at the intercept)."""
        error = exchange.error or "never sent"
        duration = exchange.duration_ms or 0.0
        body = exchange.raw_request or ""
        return HttpRun(self.url, body, None, "", error, False, duration, reached=False)

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
    ) -> tuple[Exchange, HttpRun]:
        """One POST of `context` as compact JSON. The exchange is in the journal as pending
        while the request is out, and updated when it ends. `env` is added to the environment
        the header values read; `exchange` is a record already in the journal (a call that was
        held) to fill in."""
        sent = self.exchange_for(context, source=source, turn=turn, cwd=cwd)
        if exchange is None:
            exchange = self.journal.append(sent)
        else:
            self.journal.amend(
                exchange, request=sent.request, raw_request=sent.raw_request, status=STATUS_PENDING
            )
        run = await post_json(
            self.url,
            sent.raw_request or "",
            headers=self.headers({**os.environ, **self.env, **(env or {})}),
            timeout_s=(timeout_ms if timeout_ms is not None else self.spec.timeout_ms) / 1000,
        )
        status, error = _status(run)
        self.journal.amend(
            exchange,
            raw_response=run.answer if run.answered else None,
            response=parse_stdout(run.answer) if run.answered else None,
            http_status=run.status,
            duration_ms=run.duration_ms,
            status=status,
            error=error,
        )
        return exchange, run

    def one_liner(self, raw_request: str) -> str:
        """The same body POSTed with curl. A header value that reads a variable keeps its
        $VAR for the shell to fill in (the shell does not ask whether the name is allowed)."""
        assert self.spec.http is not None
        headers = request_headers(self.spec.http.headers)
        options = " ".join(
            f"-H {_shell_word(f'{name}: {value}')}" for name, value in headers.items()
        )
        curl = f"curl -sS -X POST {options} --data-binary @- {shlex.quote(self.url)}"
        return f"printf '%s' {shlex.quote(raw_request)} | {curl}"


def _shell_word(text: str) -> str:
    """`text` quoted for the shell, its $VAR and ${VAR} left for the shell to fill in."""
    if "$" not in text:
        return shlex.quote(text)
    return '"' + re.sub(r'([\\"`])', r"\\\1", text) + '"'


def _status(run: HttpRun) -> tuple[str, str | None]:
    if run.timed_out:
        return STATUS_TIMEOUT, run.error
    if not run.answered:
        return (STATUS_ERROR if run.reached else STATUS_NOT_SENT), run.error
    if not run.ok:
        return STATUS_ERROR, f"HTTP {run.status}"
    return STATUS_OK, None
