"""One relayed command-hook event (Claude Code, j-cli): the relay sends the event and waits; the
inspector answers from its own config's hooks for that host and from the person, by the
relay's deadline, and the answer becomes the hook's stdout, stderr and exit code.

The event is an exchange of the relay (source `relay:<name>`, the host's event as its method, the
host's stdin as its request) in the same journal as everything else. The intercept can hold it:
forwarded as it was, it goes on to the hooks; with a PreToolUse's tool_input edited, the edit goes
back to Claude Code as updatedInput (a PermissionRequest's too, when it is allowed); dropped, the
host reads a hook that said nothing. It is held as the stage's entry (the intercept's default
target); `@hook` holds the hooks' own runs."""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from inspector.bridge.command_greeting import CommandGreeting
from inspector.bridge.greeting import Greeting
from inspector.hooks.command_hook import parse_stdout
from inspector.host_names import host_label
from inspector.hosts.deadline import DEADLINE_CODE, CallDeadline
from inspector.hosts.host import ABSENT, HookOutput, Relayed
from inspector.hosts.registry import host_named
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
from inspector.relay import command_wire

if TYPE_CHECKING:
    from inspector.engine import Engine

READ_CHUNK = 1 << 16
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


class CommandSession:
    """Answers the one event of one command relay."""

    def __init__(
        self,
        engine: Engine,
        greeting: Greeting,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_line: int,
    ) -> None:
        assert greeting.command is not None
        self.engine = engine
        self.command: CommandGreeting = greeting.command
        self.label = greeting.name
        self.source = f"relay:{self.label}"
        self.pid = greeting.pid
        kind = f"{host_label(self.command.host)} hook"
        self.deadline = CallDeadline(self.command.timeout_ms, kind)
        self._reader = reader
        self._writer = writer
        self._max_line = max_line
        self._deciding: asyncio.Task[HookOutput] | None = None
        self._stopping = False
        self._done = asyncio.Event()

    def deadline_of(self, seq: int) -> CallDeadline | None:
        """The deadline of the event when it is the held request `seq`."""
        return self.deadline if any(held.seq == seq for held in self.deadline.held) else None

    async def serve(self) -> None:
        try:
            await self._serve()
        finally:
            self._done.set()

    async def _serve(self) -> None:
        try:
            raw = await asyncio.wait_for(self._read_event(), self.deadline.left_s())
            event = self._event(raw)
        except (TimeoutError, OSError):
            return  # it never finished sending: whatever it waits for, nothing is owed
        except NotAnEvent as problem:
            self._noise(problem.raw, str(problem))
            await self._reply(ABSENT)
            return
        await self._answer(event)

    async def close(self) -> None:
        """The inspector stops: the event gets the answer of an absent hook, now."""
        self._stopping = True
        if self._deciding is not None:
            self._deciding.cancel()
        await self._done.wait()

    # ---- reading the event -----------------------------------------------------------------

    async def _read_event(self) -> bytes:
        data = bytearray()
        while chunk := await self._reader.read(READ_CHUNK):
            data += chunk
            if len(data) > self._max_line:
                raise NotAnEvent(f"an event of over {self._max_line:,} bytes", bytes(data[:4096]))
        return bytes(data)

    def _event(self, raw: bytes) -> RelayedEvent:
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError) as error:
            raise NotAnEvent(f"not JSON: {error}", raw) from None
        stdin = message.get("stdin") if isinstance(message, dict) else None
        if not isinstance(stdin, str):
            raise NotAnEvent("no stdin in what the relay sent", raw)
        try:
            payload = json.loads(stdin)
        except (ValueError, RecursionError) as error:
            raise NotAnEvent(f"the host's stdin is not JSON: {error}", raw) from None
        field = host_named(self.command.host).event_field
        if not isinstance(payload, dict) or not isinstance(payload.get(field), str):
            label = host_label(self.command.host)
            raise NotAnEvent(f"the host's stdin is not a {label} event (no {field})", raw)
        env = message.get("env")
        env = {k: v for k, v in env.items() if isinstance(v, str)} if isinstance(env, dict) else {}
        host_env = command_wire.host_env(self.command.host, env)
        cwd = message.get("cwd")
        folder = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None
        return RelayedEvent(payload, stdin.removesuffix("\n"), host_env, folder)

    def _noise(self, raw: bytes, problem: str) -> None:
        code = "relay-not-json" if "JSON" in problem else "relay-not-a-request"
        self.engine.journal.append(
            Noise(
                host=self.command.host,
                hook=self.label,
                line=raw.decode("utf-8", errors="replace"),
                size=len(raw),
                pid=self.pid,
                findings=[Finding(code, "warning", problem)],
            )
        )

    # ---- answering -------------------------------------------------------------------------

    async def _answer(self, event: RelayedEvent) -> None:
        candidate = Exchange(
            host=self.command.host,
            hook=self.label,
            method=event.payload[host_named(self.command.host).event_field],
            request=event.payload,
            raw_request=event.stdin,
            source=self.source,
            status=STATUS_HELD,
            deadline=time.time() + self.deadline.left_s(),
            cwd=event.cwd,
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
        host = host_named(self.command.host)
        runtime = self.engine.runtime if self.engine.runtime.host_name == host.name else None
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
        )
        return await host.answer_relayed(runtime, relayed)

    def _no_hooks(self, exchange: Exchange) -> None:
        label = host_label(self.command.host)
        message = (
            f"hook-inspector's config has no {label} hooks: the event passes as if the relay"
            f" were absent (start hook-inspector with a {label} config)"
        )
        self.engine.journal.add_findings(
            exchange, Finding("relay-no-hooks", "warning", message, NO_ANSWER)
        )

    async def _reply(self, output: HookOutput) -> bool:
        """Send the answer and hang up; False when the relay is already gone."""
        if self._writer.is_closing():
            return False
        answer = command_wire.answer(output.stdout, output.stderr, output.exit_code)
        try:
            self._writer.write(answer)
            await self._writer.drain()
        except OSError:
            return False
        finally:
            self._writer.close()
        return True
