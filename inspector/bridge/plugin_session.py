"""One agent's bridge plugin (OpenClaw's Gateway: inspector/hosts/openclaw/plugin): a connection
that stays open while the agent runs and carries every hook it fires. The greeting names the
host (`plugin.host`); the registry's host of that name answers its calls.

After the welcome the plugin sends one JSON object a line:

    {"id": 7, "hook": "before_tool_call", "event": {...}, "ctx": {...}, "timeout_ms": 59800}
    {"hook": "after_tool_call", "event": {...}, "ctx": {...}, "at": <epoch ms>}
    {"hook": ..., "event": ..., "ctx": ..., "at": ..., "backlog": true, "answered": {...} | null}

A hook that decides (an id) is an exchange of the relay, answered `{"id": 7, "result": {...} |
null}` within timeout_ms; past that the plugin answers by itself (its noInspector setting), so a
call the inspector could not settle in time gets no answer. A hook that only observes is an
event; so is one the Gateway fired while no inspector listened (with what the plugin answered).

A call that decides can be held at the intercept: forwarded, it goes on to the inspector's own
OpenClaw hooks (the plugin folder hook-inspector runs, merged by OpenClaw's rules) with the event
as it was edited, and what the edit changed goes back as the hook's result (a before_tool_call's
`params`, a message_sending's `content`); dropped, the hook says nothing."""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

from inspector.bridge.greeting import Greeting
from inspector.hosts.deadline import DEADLINE_CODE, CallDeadline
from inspector.hosts.host import ABSENT, HookOutput, Relayed
from inspector.hosts.registry import host_named
from inspector.journal.records import (
    STATUS_CANCELLED,
    STATUS_DROPPED,
    STATUS_HELD,
    STATUS_OK,
    STATUS_PENDING,
    STATUS_TIMEOUT,
    Event,
    Exchange,
    Finding,
    Noise,
)
from inspector.jsonrpc.framing import Line, LineSplitter
from inspector.pipeline.gate import AT_STAGE

if TYPE_CHECKING:
    from inspector.engine import Engine

JSONObject = dict[str, Any]
READ_CHUNK = 1 << 16
ON_ITS_OWN = "The bridge plugin answers by itself, as its noInspector setting says"
NO_HOOKS = (
    "hook-inspector's config has no {label} plugin: the call passes with no decision (start"
    " hook-inspector with an {label} plugin folder to answer it)"
)


class PluginSession:
    """Serves one bridge plugin's connection until the Gateway (or the inspector) closes it."""

    def __init__(
        self,
        engine: Engine,
        label: str,
        greeting: Greeting,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_line: int,
    ) -> None:
        self.engine = engine
        assert greeting.plugin is not None
        self.host = host_named(greeting.plugin)
        self.label = label
        self.source = f"relay:{label}"
        self.pid = greeting.pid
        self._reader = reader
        self._writer = writer
        self._max_line = max_line
        self._deadlines: list[CallDeadline] = []  # of the calls in flight
        self._calls: set[asyncio.Task[None]] = set()
        self._stopping = False

    def deadline_of(self, seq: int) -> CallDeadline | None:
        """The deadline of the call whose held request is `seq`."""
        for deadline in self._deadlines:
            if any(held.seq == seq for held in deadline.held):
                return deadline
        return None

    async def serve(self) -> None:
        splitter = LineSplitter(self._max_line)
        try:
            while chunk := await self._reader.read(READ_CHUNK):
                for line in splitter.feed(chunk):
                    self._take(line)
        except OSError:
            pass  # the Gateway went away: its calls in flight get their own fallback
        await asyncio.gather(*self._calls, return_exceptions=True)

    async def close(self) -> None:
        """The inspector stops: calls in flight end now, and the plugin answers them itself."""
        self._stopping = True
        for call in self._calls:
            call.cancel()
        await asyncio.gather(*self._calls, return_exceptions=True)
        self._writer.close()

    # ---- one line --------------------------------------------------------------------------

    def _take(self, line: Line) -> None:
        try:
            message = json.loads(line.data)
        except (ValueError, RecursionError) as error:
            self._noise(line, "relay-not-json", f"not JSON: {error}")
            return
        hook = message.get("hook") if isinstance(message, dict) else None
        if line.truncated or not isinstance(hook, str):
            problem = "cut short" if line.truncated else "no hook name"
            self._noise(line, "relay-not-a-request", f"not a hook call from the plugin: {problem}")
            return
        call_id = message.get("id")
        if isinstance(call_id, int) and not message.get("backlog"):
            raw = line.data.decode("utf-8", errors="replace")
            task = asyncio.create_task(self._answer(call_id, hook, message, raw))
            self._calls.add(task)
            task.add_done_callback(self._calls.discard)
        else:
            self._observe(hook, message)

    def _observe(self, hook: str, message: JSONObject) -> None:
        payload: JSONObject = {
            "event": _object(message.get("event")),
            "ctx": _object(message.get("ctx")),
        }
        found: list[Finding] = []
        at = message.get("at")
        when = at / 1000 if isinstance(at, int | float) and message.get("backlog") else time.time()
        if message.get("backlog"):
            if "answered" in message:  # a hook that decides: the plugin answered it by itself
                payload["answered"] = message["answered"]
                said = f"it answered {json.dumps(message['answered'])}"
            else:
                said = "it sent this when an inspector came"
            code = f"{self.host.name}-fired-without-inspector"
            found.append(self.host.finding(code, said))
        self.engine.journal.append(
            Event(
                ts=when,
                kind=hook,
                payload=payload,
                source=self.source,
                host=self.host.name,
                findings=found,
            )
        )

    def _noise(self, line: Line, code: str, problem: str) -> None:
        self.engine.journal.append(
            Noise(
                host=self.host.name,
                hook=self.label,
                line=line.data[:4096].decode("utf-8", errors="replace"),
                size=line.size,
                pid=self.pid,
                findings=[Finding(code, "warning", problem)],
            )
        )

    # ---- a call that decides ---------------------------------------------------------------

    async def _answer(self, call_id: int, hook: str, message: JSONObject, raw: str) -> None:
        timeout_ms = message.get("timeout_ms")
        deadline = CallDeadline(
            timeout_ms
            if isinstance(timeout_ms, int) and timeout_ms > 0
            else self.host.default_timeout_ms,
            f"{self.host.label} hook",
        )
        request = {"event": _object(message.get("event")), "ctx": _object(message.get("ctx"))}
        candidate = Exchange(
            host=self.host.name,
            hook=self.label,
            method=hook,
            request=request,
            raw_request=raw,
            source=self.source,
            status=STATUS_HELD,
            rpc_id=call_id,
            deadline=time.time() + deadline.left_s(),
            deadline_ms=deadline.agent_ms,
            turn=self.engine.relayed_turns.turn_of(self.host, request),
        )
        gate = self.engine.gate
        hold = gate.at == AT_STAGE and gate.predicate is not None and gate.predicate(candidate)
        if hold:
            candidate.stage_entry = True  # the Gateway's call, before any of the inspector's hooks
            deadline.held.append(candidate)
        else:
            candidate.status = STATUS_PENDING
            self.engine.journal.append(candidate)
        self._deadlines.append(deadline)
        try:
            await self._settle(call_id, candidate, deadline, hold)
        finally:
            self._deadlines.remove(deadline)

    async def _settle(
        self, call_id: int, candidate: Exchange, deadline: CallDeadline, hold: bool
    ) -> None:
        deciding = asyncio.ensure_future(self._decide(candidate, deadline, hold))
        answer: HookOutput | None = None
        found: list[Finding] = []
        try:
            answer = await asyncio.wait_for(deciding, deadline.left_s())
        except TimeoutError:
            why = f"{deadline.describe()} passed before hook-inspector's hooks answered"
            found.append(Finding(DEADLINE_CODE, "warning", why, ON_ITS_OWN))
        except asyncio.CancelledError:
            if not self._stopping:
                raise
            found.append(Finding("inspector-stopped", "warning", "hook-inspector stopped"))
        if not candidate.seq:  # the deadline came before the gate could journal it as held
            candidate.status = STATUS_CANCELLED
            self.engine.journal.append(candidate)
        changes: dict[str, Any] = {"findings": [*candidate.findings, *found]}
        if candidate.status == STATUS_CANCELLED and not self._stopping:
            changes |= {
                "status": STATUS_DROPPED,
                "error": f"dropped: still held when {deadline.describe()} passed",
            }
        elif answer is not None:
            reply = {"id": call_id, "result": answer.result}
            raw = json.dumps(reply, separators=(",", ":"), ensure_ascii=False)
            sent = self._send(raw)
            changes |= {
                "response": reply,
                "raw_response": raw,
                "action": answer.action,
                "status": STATUS_OK if sent else STATUS_CANCELLED,
                "error": None if sent else "the Gateway hung up first",
            }
        elif self._stopping:
            changes |= {"status": STATUS_CANCELLED, "error": "the plugin answered by itself"}
        else:
            changes |= {"status": STATUS_TIMEOUT, "error": "the plugin answered by itself"}
        changes["duration_ms"] = round((time.monotonic() - deadline.received) * 1000, 3)
        self.engine.journal.amend(candidate, **changes)

    async def _decide(self, candidate: Exchange, deadline: CallDeadline, hold: bool) -> HookOutput:
        """The inspector's own OpenClaw hooks' answer to the call, over what a person changed
        while it was held."""
        request = candidate.request or {}
        sent = None
        if hold:
            held = await self.engine.gate.hold(candidate, request)
            if held is None:
                return ABSENT  # dropped by hand: the hook says nothing
            self.engine.journal.amend(candidate, stage_entry=False)  # now the call itself
            if isinstance(held.params, dict) and held.params != request:
                sent, request = request, held.params
                raw = json.dumps(request, separators=(",", ":"), ensure_ascii=False)
                self.engine.journal.amend(candidate, request=request, raw_request=raw)
        runtime = self.engine.own_runtime(self.host.name)
        if runtime is None:
            no_hooks = NO_HOOKS.format(label=self.host.label)
            self.engine.journal.add_findings(
                candidate, Finding("relay-no-hooks", "warning", no_hooks, ON_ITS_OWN)
            )
        relayed = Relayed(
            candidate.method,
            request,
            self.source,
            ask_by=deadline.hooks_by,
            sent=sent,
            turn=candidate.turn,
        )
        return await self.host.answer_relayed(runtime, relayed)

    def _send(self, line: str) -> bool:
        if self._writer.is_closing():
            return False
        try:
            self._writer.write(line.encode("utf-8", "backslashreplace") + b"\n")
        except OSError:
            return False
        return True


def _object(value: Any) -> JSONObject:
    return value if isinstance(value, dict) else {}
