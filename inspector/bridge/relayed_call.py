"""One command-hook event a live Claude Code or j-cli sent the inspector, by the command relay
(command_session.py) or as Claude Code's own HTTP hook (http_hooks.py): answered from the
inspector's own config's hooks for that host and from the person, by the host's deadline.

The event is an exchange (source `relay:<name>`, the host's event as its method, the host's
stdin as its request) in the same journal as everything else. The intercept can hold it:
forwarded as it was, it goes on to the hooks; with a PreToolUse's tool_input edited, the edit goes
back to Claude Code as updatedInput (a PermissionRequest's too, when it is allowed); dropped, the
host reads a hook that said nothing. It is held as the stage's entry (the intercept's default
target); `@hook` holds the hooks' own runs. The answer goes out before the exchange is amended
with it; how it goes out is the transport's (`_reply`)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from inspector.hooks.command_hook import parse_stdout
from inspector.hosts.deadline import DEADLINE_CODE, CallDeadline
from inspector.hosts.host import ABSENT, HookOutput, Relayed
from inspector.hosts.registry import host_label, host_named
from inspector.journal.records import (
    STATUS_CANCELLED,
    STATUS_DROPPED,
    STATUS_HELD,
    STATUS_OK,
    STATUS_PENDING,
    Exchange,
    Finding,
    Noise,
)
from inspector.pipeline.gate import AT_STAGE
from inspector.relay.command_wire import TRACEPARENT, TRACESTATE

if TYPE_CHECKING:
    from inspector.engine import Engine

READ_CHUNK = 1 << 16
HEAD = 4096  # what a journaled non-event keeps of a long one
STOPPED_REASON = "hook-inspector stopped before its hooks answered"
NO_ANSWER = "Without an answer it goes on as if the hook were absent"


class RelayedEvent(NamedTuple):
    payload: dict[str, Any]  # the host's stdin, parsed
    stdin: str  # as the host wrote it, without its last newline
    env: dict[str, str]  # the host's own variables (CLAUDE_*, JCLI_*) the hook started with
    cwd: str | None  # the folder the host ran the hook in (None: the relay did not say)


class NotAnEvent(ValueError):
    """What the relay sent (`raw`, or its head) is not one of its host's events; the message
    says why."""

    def __init__(self, problem: str, raw: bytes) -> None:
        super().__init__(problem)
        self.raw = raw


async def read_event(read: Callable[[int], Awaitable[bytes]], limit: int) -> bytes:
    """All that `read` gives until its end, at most `limit` bytes, else NotAnEvent with the
    head of it."""
    data = bytearray()
    while chunk := await read(READ_CHUNK):
        data += chunk
        if len(data) > limit:
            raise NotAnEvent(f"an event of over {limit:,} bytes", bytes(data[:HEAD]))
    return bytes(data)


def event_payload(host: str, stdin: str, raw: bytes) -> dict[str, Any]:
    """The host's stdin (or an HTTP hook's body), parsed: one of `host`'s events, else
    NotAnEvent."""
    try:
        payload = json.loads(stdin)
    except (ValueError, RecursionError) as error:
        raise NotAnEvent(f"the host's stdin is not JSON: {error}", raw) from None
    field = host_named(host).event_field
    if not isinstance(payload, dict) or not isinstance(payload.get(field), str):
        raise NotAnEvent(f"the host's stdin is not a {host_label(host)} event (no {field})", raw)
    return payload


class RelayedCall:
    """Answers one event of `host`, `timeout_ms` being the handler's own timeout; a transport
    says how the answer goes back (`_reply`)."""

    def __init__(
        self, engine: Engine, host: str, label: str, timeout_ms: int, pid: int | None = None
    ) -> None:
        self.engine = engine
        self.host = host
        self.label = label
        self.source = f"relay:{label}"
        self.pid = pid
        self.deadline = CallDeadline(timeout_ms, f"{host_label(host)} hook")
        self._deciding: asyncio.Task[HookOutput] | None = None
        self._stopping = False
        self._done = asyncio.Event()

    def deadline_of(self, seq: int) -> CallDeadline | None:
        """The deadline of the event when it is the held request `seq`."""
        return self.deadline if any(held.seq == seq for held in self.deadline.held) else None

    async def close(self) -> None:
        """The inspector stops: the event gets the answer of an absent hook, now."""
        self._stopping = True
        if self._deciding is not None:
            self._deciding.cancel()
        await self._done.wait()

    async def _reply(self, output: HookOutput) -> bool:
        """Send the answer; False when the host is already gone."""
        raise NotImplementedError

    def _noise(self, raw: bytes, problem: str) -> None:
        code = "relay-not-json" if "JSON" in problem else "relay-not-a-request"
        self.engine.journal.append(
            Noise(
                host=self.host,
                hook=self.label,
                line=raw.decode("utf-8", errors="replace"),
                size=len(raw),
                pid=self.pid,
                findings=[Finding(code, "warning", problem)],
            )
        )

    async def _answer(self, event: RelayedEvent) -> None:
        host = host_named(self.host)
        candidate = Exchange(
            host=self.host,
            hook=self.label,
            method=event.payload[host.event_field],
            request=event.payload,
            raw_request=event.stdin,
            source=self.source,
            status=STATUS_HELD,
            deadline=time.time() + self.deadline.left_s(),
            cwd=event.cwd,
            traceparent=event.env.get(TRACEPARENT),
            tracestate=event.env.get(TRACESTATE),
            turn=self.engine.relayed_turns.turn_of(host, event.payload),
        )
        gate = self.engine.gate
        hold = gate.at == AT_STAGE and gate.predicate is not None and gate.predicate(candidate)
        if hold:
            candidate.stage_entry = True  # the host's call, before any of the inspector's hooks
            self.deadline.held.append(candidate)
        else:
            candidate.status = STATUS_PENDING
            self.engine.journal.append(candidate)
        self._deciding = asyncio.create_task(self._decide(candidate, event, hold))
        unanswered: list[Finding] = []
        try:
            output = await asyncio.wait_for(self._deciding, self.deadline.left_s())
        except TimeoutError:
            output = ABSENT
            why = f"{self.deadline.describe()} passed before hook-inspector's hooks answered"
            unanswered.append(Finding(DEADLINE_CODE, "warning", why, NO_ANSWER))
        except asyncio.CancelledError:
            if not self._stopping:
                raise
            output = ABSENT
            unanswered.append(Finding("inspector-stopped", "warning", STOPPED_REASON))
        if not candidate.seq:  # the deadline came before the gate could journal it as held
            candidate.status = STATUS_CANCELLED
            self.engine.journal.append(candidate)
        changes: dict[str, Any] = {"findings": [*candidate.findings, *unanswered]}
        if candidate.status == STATUS_CANCELLED and not self._stopping:
            changes["status"] = STATUS_DROPPED
            changes["error"] = f"dropped: still held when {self.deadline.describe()} passed"
        sent = await self._reply(output)
        changes["duration_ms"] = round((time.monotonic() - self.deadline.received) * 1000, 3)
        if changes.get("status", candidate.status) not in (STATUS_DROPPED, STATUS_CANCELLED):
            changes.update(
                raw_response=output.stdout,
                response=parse_stdout(output.stdout),
                stderr=output.stderr,
                exit_code=output.exit_code,
                action=output.action,
                status=STATUS_OK if sent else STATUS_CANCELLED,
                error=None if sent else "the relay hung up first",
            )
        self.engine.journal.amend(candidate, **changes)

    async def _decide(self, candidate: Exchange, event: RelayedEvent, hold: bool) -> HookOutput:
        payload = event.payload
        if hold:
            held = await self.engine.gate.hold(candidate, payload)
            if held is None:
                return ABSENT  # dropped by hand: the host reads a hook that said nothing
            # forwarded: from here on it is the relayed call itself
            self.engine.journal.amend(candidate, stage_entry=False)
            sent = payload if candidate.edited else None
            if isinstance(held.params, dict) and held.params != payload:  # as it went on
                payload = held.params
                raw = json.dumps(payload, separators=(",", ":"))
                self.engine.journal.amend(candidate, request=payload, raw_request=raw)
        else:
            sent = None
        host = host_named(self.host)
        runtime = self.engine.own_runtime(host.name)
        if runtime is None:
            self._no_hooks(candidate)
        relayed = Relayed(
            candidate.method,
            payload,
            self.source,
            ask_by=self.deadline.hooks_by,
            env=event.env,  # the real session's, for the hooks behind the inspector
            sent=sent,
            cwd=event.cwd,
            turn=candidate.turn,
        )
        return await host.answer_relayed(runtime, relayed)

    def _no_hooks(self, exchange: Exchange) -> None:
        label = host_label(self.host)
        message = (
            f"hook-inspector's config has no {label} hooks: the event passes as if the relay"
            f" were absent (start hook-inspector with a {label} config)"
        )
        self.engine.journal.add_findings(
            exchange, Finding("relay-no-hooks", "warning", message, NO_ANSWER)
        )
