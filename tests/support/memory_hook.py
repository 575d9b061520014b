"""A hook with no process, for tests whose subject is a chain's rules (order, how answers
combine, which answer stops the chain, what a failure or a timeout decides), not a process.

`MemoryHook` is the `Hook` a chain calls (inspector/pipeline/hook.py). It answers from a script
in the language of the process hook tests/hooks/scripted.py, and with that script's own code, so
it answers what the process would: a method's behaviour or a list of them (`result`, `echo` with
`patch`, `error`, and none for a well-behaved hook's answer), plus

    never: true    no answer: the call times out after the timeout the chain gave it
    exit: <code>   the hook dies while the call waits: the call ends as exited

What only a process does (stderr, noise and odd ids on stdout, delays, crashes between calls) is
refused: tests of those run tests/hooks/scripted.py.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspector.config.model import Defaults, HookSpec
from inspector.hosts.picoclaw.chain import Pipeline
from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_ERROR,
    STATUS_EXITED,
    STATUS_INVALID,
    STATUS_OK,
    STATUS_PENDING,
    STATUS_TIMEOUT,
    Exchange,
)
from inspector.jsonrpc import messages as jsonrpc
from inspector.pipeline.hook import Hook
from tests.hooks.scripted import MODIFIER_KEYS, Behaviour, load_script, reply_body

PROCESS_ONLY = MODIFIER_KEYS - {"patch"}


@dataclass(frozen=True, slots=True)
class Sent:
    """One call as the chain made it."""

    method: str
    params: Any
    timeout_ms: int


class MemoryHook:
    """A hook answering from `script`; `sent` and `notified` hold what the chain gave it.
    `journal` is the chain's (picoclaw_chain sets it), where each call is an exchange."""

    def __init__(
        self,
        name: str,
        script: Mapping[str, Any] | None = None,
        *,
        intercept: tuple[str, ...] = (),
        observe: tuple[str, ...] = (),
        priority: int = 0,
    ) -> None:
        self.spec = HookSpec(name=name, intercept=intercept, observe=observe, priority=priority)
        self.journal = Journal()
        self.sent: list[Sent] = []
        self.notified: list[tuple[str, Any]] = []
        self._script = _load(script or {})
        self._calls: dict[str, int] = {}

    @property
    def name(self) -> str:
        return self.spec.name

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
        self.sent.append(Sent(method, params, timeout_ms))
        rpc_id = len(self.sent)
        fields: dict[str, Any] = {
            "hook": self.name,
            "method": method,
            "request": jsonrpc.request(rpc_id, method, params),
            "raw_request": jsonrpc.request_text(rpc_id, method, params),
            "source": source,
            "turn": turn,
            "rpc_id": rpc_id,
            "status": STATUS_PENDING,
        }
        if exchange is None:
            exchange = self.journal.append(Exchange(**fields))
        else:
            self.journal.amend(exchange, **fields)
        started = time.perf_counter()
        behaviour = self._next(method)
        if behaviour.get("never"):
            await asyncio.sleep(timeout_ms / 1000)  # the chain's timeout runs out, as it would
            return self._finish(
                exchange, started, STATUS_TIMEOUT, f"no answer within {timeout_ms} ms"
            )
        if "exit" in behaviour:
            code = behaviour["exit"]  # in the words of ProcessHook
            reason = "process exited" if code == 0 else f"exit status {code}"
            return self._finish(exchange, started, STATUS_EXITED, reason)
        body = reply_body(method, params, behaviour)
        answer = {"jsonrpc": "2.0", "id": rpc_id, **body}
        if "error" in body:
            status, error = STATUS_ERROR, f"{method} failed: {body['error']['message']}"
        elif isinstance(body["result"], dict):
            status, error = STATUS_OK, None
        else:
            status, error = STATUS_INVALID, f"decode {method} result: not an object"
        text = jsonrpc.go_json(answer)
        return self._finish(exchange, started, status, error, response=answer, raw_response=text)

    async def notify(self, method: str, params: Any) -> str | None:
        self.notified.append((method, params))
        return None

    def _next(self, method: str) -> Behaviour:
        """The behaviour for this call, picked as the script's process picks it."""
        key = method if method in self._script else "*"
        behaviours = self._script.get(key, [{}])
        index = self._calls.get(key, 0)
        self._calls[key] = index + 1
        return behaviours[min(index, len(behaviours) - 1)]

    def _finish(
        self, exchange: Exchange, started: float, status: str, error: str | None, **changes: Any
    ) -> Exchange:
        duration_ms = round((time.perf_counter() - started) * 1000, 3)
        self.journal.amend(exchange, duration_ms=duration_ms, status=status, error=error, **changes)
        return exchange


def picoclaw_chain(*hooks: Hook, journal: Journal | None = None, **timeouts: int) -> Pipeline:
    """PicoClaw's chain over `hooks`, with the timeouts given (Defaults' fields), all recording
    in one journal, `pipeline.journal`: `journal` if given (a ManualHook's), else a new one."""
    journal = Journal() if journal is None else journal
    for hook in hooks:
        if isinstance(hook, MemoryHook):
            hook.journal = journal
    return Pipeline(journal, Defaults(**timeouts), lambda: hooks)


def _load(script: Mapping[str, Any]) -> dict[str, list[Behaviour]]:
    """The behaviours per full method name, read and checked by the process hook's own code."""
    methods, on_eof = load_script(json.dumps(script))
    for key, behaviours in methods.items():
        for behaviour in behaviours:
            if on_eof or behaviour.keys() & PROCESS_ONLY:
                raise ValueError(f"{key}: {behaviour} is what only a process does")
    return methods
