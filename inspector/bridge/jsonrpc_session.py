"""One connected relay of JSON-RPC process hooks (PicoClaw's, the registry's NATIVE host): its
agent's JSON-RPC lines come in, the inspector's answers go out over the relay's socket. The
lines come through that socket too, or straight from the agent's stdin when the relay lent it
(see wire.py: the socket then also carries which calls were taken, and a heartbeat, and ends
when the relay takes its stdin back).

Each request is answered on its own task, so a slow approval never holds up another call; every
request and its answer are journaled as an exchange of the relay (source `relay:<label>`) with
the exact lines, so the views show precisely what the agent sent and got."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import select
import socket
import time
from typing import TYPE_CHECKING, Any

from inspector.bridge.greeting import Greeting
from inspector.bridge.lent_stdin import LentStdin
from inspector.hosts.after_answer import answer_first
from inspector.hosts.deadline import CallDeadline
from inspector.hosts.host import HookOutput, Relayed
from inspector.hosts.registry import NATIVE
from inspector.hosts.runtime import Runtime
from inspector.journal.records import (
    STATUS_CANCELLED,
    STATUS_ERROR,
    STATUS_OK,
    Exchange,
    Finding,
    Lifecycle,
    Noise,
)
from inspector.jsonrpc.framing import Line, LineSplitter
from inspector.jsonrpc.messages import go_json
from inspector.jsonrpc.stages import HELLO, RUNTIME_EVENT, STAGE_FOR_METHOD
from inspector.relay import wire
from inspector.relay.wire import deadline_kind

if TYPE_CHECKING:
    from inspector.engine import Engine

READ_CHUNK = 1 << 20
CLOSE_GRACE_S = 2.0
LENT_WAIT_S = 10.0  # for the relay's confirmation that it lent its stdin, sent with the welcome
CONNECTED, DISCONNECTED = "connected", "disconnected"
STOPPED_REASON = "hook-inspector stopped before its hooks answered"
# PicoClaw writes {"jsonrpc":"2.0","id":N,"method":"...",...}: the head of a line too long to keep
# still says which call to answer.
REQUEST_HEAD = re.compile(rb'^\{"jsonrpc":"2\.0","id":(\d+),"method":"([a-z_.]+)"')


class RelaySession:
    """Serves one relay until it hangs up or the inspector closes it."""

    def __init__(
        self,
        engine: Engine,
        label: str,
        greeting: Greeting,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        peer: str,
        max_line: int,
        lent_stdin: int | None = None,
    ) -> None:
        self.engine = engine
        self.label = label
        self.source = f"relay:{label}"
        self._host = NATIVE
        self.greeting = greeting
        self.peer = peer
        self._reader = reader  # the relay's socket
        self._link = writer  # where answers go
        self._pipes: LentStdin | None = None  # the agent's stdin, when the relay lent it
        if lent_stdin is not None:
            self._pipes = LentStdin(
                lent_stdin, writer.get_extra_info("socket").fileno(), writer.write
            )
        self._relay_gone = False
        self._watch: asyncio.Task[None] | None = None  # the relay's socket, while lent
        self._heartbeat: asyncio.Task[None] | None = None
        self._unread = b""  # lent input handed back as it was, never read
        self._splitter = LineSplitter(max_line)
        self._hello = greeting.hello  # given back with the stdin, for the relay's next greeting
        self._max_line = max_line
        self._calls: dict[asyncio.Task[None], CallDeadline | None] = {}
        self._events: set[asyncio.Task[object]] = set()
        self._stopping = False
        self._answered_on_stop = 0
        self._done = asyncio.Event()

    def deadline_of(self, seq: int) -> CallDeadline | None:
        """The deadline of the call a held request (by its exchange seq) belongs to."""
        for deadline in self._calls.values():
            if deadline is not None and any(held.seq == seq for held in deadline.held):
                return deadline
        return None

    async def serve(self) -> None:
        self._lifecycle(CONNECTED, self._describe())
        gone = True
        try:
            if self._pipes is None:
                while chunk := await self._reader.read(READ_CHUNK):
                    for line in self._splitter.feed(chunk):
                        self._on_line(line)
                gone = _hung_up(self._link)
            else:
                gone = await self._serve_pipes(self._pipes)
        except OSError:
            pass  # reset by the relay: it is gone
        finally:
            pending = len(self._calls)
            if not gone and await self._calls_answered():
                # its agent closed stdin: the relay still reads the answers it waits for
                detail = f"the relay stopped sending; {pending} pending call(s) answered"
            else:
                cancelled = await self._cancel_calls()
                detail = f"{self._how_it_ended()}; {cancelled} pending call(s) cancelled"
            if self._stopping:
                answered = self._answered_on_stop
                detail = f"the inspector stopped; {answered} pending call(s) got the fallback"
            self._let_go()
            self._lifecycle(DISCONNECTED, detail)
            self._done.set()

    async def close(self) -> None:
        """The inspector stops: each pending call gets its fallback answer, then the line closes
        (lent pipes go back to the relay)."""
        self._stopping = True
        if self._pipes is not None:
            self._pipes.stop_reading()
        self._answered_on_stop = await self._cancel_calls()
        if self._pipes is None:
            self._link.close()
            with contextlib.suppress(OSError, TimeoutError):
                await asyncio.wait_for(self._link.wait_closed(), CLOSE_GRACE_S)
        await self._done.wait()

    # ---- the agent's stdin, lent (wire.py) -------------------------------------------------

    async def _serve_pipes(self, pipes: LentStdin) -> bool:
        """Read the agent's lent stdin until it ends; True when the relay went first (or took
        its stdin back)."""
        lent = await self._lent()
        if lent is None:  # it gave up waiting for the welcome: the stdin stays its own
            self._relay_gone = True
            return True
        already_read, alive_ms = lent
        if self._stopping:  # close() came first: the relay gets back all it gave
            self._unread = already_read
            return False
        self._watch = asyncio.create_task(self._watch_relay(pipes))
        self._heartbeat = asyncio.create_task(self._beat(alive_ms / 1000))
        pipes.read(self._splitter, self._on_line, already_read)
        await pipes.ended
        return self._relay_gone

    async def _lent(self) -> tuple[bytes, int] | None:
        """The input the relay had read and how often to show it we are alive (its
        confirmation); None when it sends none."""
        try:
            lent = wire.read_lent(await asyncio.wait_for(self._reader.readline(), LENT_WAIT_S))
            if lent is None:
                return None
            size, alive_ms = lent
            return await asyncio.wait_for(self._reader.readexactly(size), LENT_WAIT_S), alive_ms
        except (TimeoutError, asyncio.IncompleteReadError, ValueError, OSError):
            return None

    async def _beat(self, every_s: float) -> None:
        """The relay takes its stdin back from an inspector it has not heard from for a while."""
        while not self._link.is_closing():
            await asyncio.sleep(every_s)
            self._link.write(wire.ALIVE_LINE)

    async def _watch_relay(self, pipes: LentStdin) -> None:
        """A relay that lent its stdin sends nothing more: the socket ends when it goes, or when
        it takes its stdin back."""
        with contextlib.suppress(OSError):
            while await self._reader.read(READ_CHUNK):
                pass
        self._relay_gone = True
        pipes.stop_reading()

    async def _calls_answered(self) -> bool:
        """Wait for the pending calls; False if the relay went first (lent pipes: nobody is left
        to read their answers, and the agent must see its pipes closed at once)."""
        answered: asyncio.Future[Any] = asyncio.gather(
            *self._calls, *self._events, return_exceptions=True
        )
        if self._watch is None:
            await answered
            return True
        await asyncio.wait([answered, self._watch], return_when=asyncio.FIRST_COMPLETED)
        return not self._relay_gone

    def _let_go(self) -> None:
        for task in (self._watch, self._heartbeat):
            if task is not None:
                task.cancel()
        pipes = self._pipes
        if pipes is not None:
            unread = self._unread + pipes.stop_reading()
            pipes.let_go()
            if not self._relay_gone:
                self._link.write(wire.returned(unread, self._hello))
        self._link.close()

    def _how_it_ended(self) -> str:
        if self._pipes is not None and self._relay_gone and not _hung_up(self._link):
            return "the relay took its stdin back (this inspector had stopped answering)"
        return "the relay hung up"

    async def _cancel_calls(self) -> int:
        calls = list(self._calls)
        for task in calls:
            task.cancel()
        await asyncio.gather(*calls, *self._events, return_exceptions=True)
        return len(calls)

    # ---- lines from the relay --------------------------------------------------------------

    def _on_line(self, line: Line) -> None:
        received = time.monotonic()
        if line.truncated:
            self._too_long(line, received)
            return
        try:
            message = json.loads(line.data)
        except (ValueError, RecursionError) as exc:
            self._noise(line, "relay-not-json", f"a line from the agent that is not JSON: {exc}")
            return
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            self._noise(line, "relay-not-a-request", "neither a request nor a notification")
            return
        if message["method"] == HELLO:
            self._hello = message
        text = line.data.decode("utf-8", errors="replace")
        if message.get("id") is None:
            self._notification(line, message)
            return
        deadline = None
        if message["method"] in STAGE_FOR_METHOD:
            kind = deadline_kind(message["method"])
            deadline = CallDeadline(self.greeting.deadlines_ms[kind], kind, received, self.label)
        task = asyncio.create_task(self._call(message, text, deadline, received))
        self._calls[task] = deadline
        task.add_done_callback(self._calls.pop)

    def _notification(self, line: Line, message: dict[str, Any]) -> None:
        params = message.get("params")
        if message["method"] != RUNTIME_EVENT or not isinstance(params, dict):
            problem = f"notification {message['method']!r}: PicoClaw sends only {RUNTIME_EVENT}"
            self._noise(line, "relay-unknown-notification", problem)
            return
        runtime = self._runtime()
        task = asyncio.create_task(runtime.fire(RUNTIME_EVENT, params, source=self.source))
        self._events.add(task)
        task.add_done_callback(self._events.discard)

    def _too_long(self, line: Line, received: float) -> None:
        problem = f"a line of {line.size:,} bytes is over the inspector's {self._max_line:,}"
        head = REQUEST_HEAD.match(line.data)
        if head is None:
            self._noise(line, "relay-line-too-long", problem)
            return
        rpc_id, method = int(head[1]), head[2].decode()
        exchange = self._record_request(method, rpc_id)
        self.engine.journal.add_findings(
            exchange, Finding("relay-line-too-long", "warning", problem)
        )
        request = {"id": rpc_id, "method": method}
        self._send(exchange, self._unanswered(request, problem), received)

    def _noise(self, line: Line, code: str, problem: str) -> None:
        self.engine.journal.append(
            Noise(
                host=NATIVE.name,
                hook=self.label,
                line=line.data.decode("utf-8", errors="replace"),
                size=line.size,
                pid=self.greeting.pid,
                findings=[Finding(code, "warning", problem)],
            )
        )

    # ---- answering -------------------------------------------------------------------------

    async def _call(
        self,
        message: dict[str, Any],
        text: str,
        deadline: CallDeadline | None,
        received: float,
    ) -> None:
        exchange = self._record_request(message["method"], message["id"], message, text)
        with answer_first() as answered:
            try:
                answer = await self._answer(exchange, message, deadline)
            except asyncio.CancelledError:
                if not self._stopping:
                    self._finish(exchange, received, STATUS_CANCELLED, "the relay hung up first")
                    raise
                stopped = Finding("inspector-stopped", "warning", STOPPED_REASON)
                self.engine.journal.add_findings(exchange, stopped)
                self._send(exchange, self._unanswered(message, STOPPED_REASON), received)
                return
            sent = self._send(exchange, answer, received)
            answered()
        if sent:
            with contextlib.suppress(OSError):
                await self._link.drain()

    async def _answer(
        self, exchange: Exchange, message: dict[str, Any], deadline: CallDeadline | None
    ) -> HookOutput:
        relayed = Relayed(
            message["method"],
            message,
            self.source,
            deadline=deadline,
            call=exchange,
            turn=exchange.turn,
        )
        return await self._host.answer_relayed(self._runtime(), relayed)

    def _unanswered(self, request: dict[str, Any], reason: str) -> HookOutput:
        relayed = Relayed(str(request.get("method", "")), request, self.source)
        return self._host.unanswered(relayed, reason)

    def _runtime(self) -> Runtime:
        """The session's PicoClaw hooks; none when it runs another host's, so the relayed calls
        still meet the intercept and are journalled."""
        return self.engine.runtime_of(NATIVE.name)

    def _record_request(
        self,
        method: str,
        rpc_id: Any,
        message: dict[str, Any] | None = None,
        text: str | None = None,
    ) -> Exchange:
        return self.engine.journal.append(
            Exchange(
                host=NATIVE.name,
                hook=self.label,
                method=method,
                request=message,
                raw_request=text,
                source=self.source,
                turn=self.engine.relayed_turns.turn_of(NATIVE, message) if message else None,
                rpc_id=rpc_id if type(rpc_id) is int else None,
            )
        )

    def _send(self, exchange: Exchange, output: HookOutput, received: float) -> bool:
        """Write the answer and record it; False when the relay is already gone."""
        answer = output.result or {}
        if self._link.is_closing():
            self._finish(exchange, received, STATUS_CANCELLED, "the relay hung up first")
            return False
        text = go_json(answer)
        # A lone surrogate from a hook's answer cannot be UTF-8; inside a JSON string
        # backslashreplace writes its escape back, which Go reads as U+FFFD.
        self._link.write(text.encode("utf-8", "backslashreplace") + b"\n")
        error = answer.get("error")
        if isinstance(error, dict):
            status, why, action = STATUS_ERROR, str(error.get("message")), exchange.action
        else:
            status, why, action = STATUS_OK, None, output.action or None
        self._finish(
            exchange, received, status, why, response=answer, raw_response=text, action=action
        )
        return True

    def _finish(
        self,
        exchange: Exchange,
        received: float,
        status: str,
        error: str | None,
        **changes: Any,
    ) -> None:
        duration_ms = round((time.monotonic() - received) * 1000, 3)
        self.engine.journal.amend(
            exchange, status=status, error=error, duration_ms=duration_ms, **changes
        )

    def _describe(self) -> str:
        deadlines = ", ".join(f"{kind} {ms} ms" for kind, ms in self.greeting.deadlines_ms.items())
        modes = f"; modes {', '.join(self.greeting.modes)}" if self.greeting.modes else ""
        lent = "; reading the agent's stdin it lent" if self._pipes else ""
        return f"via {self.peer}{lent}; the agent's deadlines: {deadlines}{modes}"

    def _lifecycle(self, state: str, detail: str) -> None:
        self.engine.journal.append(
            Lifecycle(
                host=NATIVE.name, hook=self.label, state=state, pid=self.greeting.pid, detail=detail
            )
        )


def _hung_up(writer: asyncio.StreamWriter) -> bool:
    """After EOF: did the relay close the whole connection, or only its sending side (its agent
    closed stdin; answers are still read)? A Unix socket tells at once (POLLHUP); over TCP the
    pending calls run to their deadlines and a failed write ends them."""
    if writer.is_closing():
        return True
    sock = writer.get_extra_info("socket")
    if sock is None or sock.family != socket.AF_UNIX:
        return False
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLHUP)
    return bool(poller.poll(0))
