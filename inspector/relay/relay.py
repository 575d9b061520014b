"""The relay: the process an agent runs as its hook. Over a Unix socket it lends the agent's stdin
to hook-inspector, which then reads the requests itself and sends its answers back for the relay
to write; otherwise (TCP, files, an inspector that does not take it) it copies the agent's lines
to the inspector and its answers back, unchanged. Whenever the inspector cannot answer (none is
running, it refuses, the connection drops, it stops answering, an answer would be later than the
agent's deadline) the relay answers by itself. See `inspector.relay.wire` for the other side of
the socket."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
from dataclasses import dataclass
from typing import Any

from inspector.relay import answers, wire
from inspector.relay.agent_in import AgentIn
from inspector.relay.lending import GONE, GivenBack, Lending
from inspector.relay.lines import NotAnAnswer, answer_id, classify
from inspector.relay.link import Endpoint, Link, Refused, open_link
from inspector.relay.log import Log
from inspector.relay.stdio import AgentOut, open_agent_stdout, passable, restore_blocking, watchable
from inspector.relay.trust import Untrusted

LINE_LIMIT = 16 * 1024 * 1024
# Past this much unsent data the inspector has stopped reading: the relay lets it go rather than
# block the agent or grow without bound.
OUTBOX_LIMIT = 32 * 1024 * 1024
RECENT_FALLBACKS = 4096


@dataclass(frozen=True)
class Settings:
    endpoint: Endpoint
    name: str
    deadlines_ms: dict[str, int]
    keep_events: int = 1000
    retry_s: float = 1.0
    refused_retry_s: float = 5.0


@dataclass(frozen=True)
class Pending:
    method: str
    timer: asyncio.TimerHandle


class Relay:
    def __init__(self, settings: Settings, log: Log) -> None:
        self._settings = settings
        self._log = log
        self._link: Link | None = None
        self._offline_why = answers.NOT_RUNNING
        self._pending: dict[str, Pending] = {}
        self._all_answered = asyncio.Event()
        self._all_answered.set()
        # Ids the relay answered while the inspector still had them, to name a late answer as such.
        self._gave_up: dict[str, None] = {}
        self._events: collections.deque[bytes] = collections.deque(maxlen=settings.keep_events)
        self._dropped_events = 0
        self._hello: dict[str, Any] | None = None
        self._closing = False
        self._stdout: AgentOut
        self._stdin: AgentIn
        self._stdin_ended = asyncio.Event()
        self._lendable = False  # stdin is a pipe or socket the inspector can take
        self._lending = False  # the inspector holds the agent's stdin: it says which calls it took
        self._offered: bytes | None = None  # input read past the last line, while offered

    async def run(self) -> int:
        try:
            self._stdout = await open_agent_stdout()
            self._stdin = AgentIn(
                0,
                LINE_LIMIT,
                self._from_agent,
                self._oversized,
                self._stdin_ended.set,
                watchable=watchable(0),
            )
            self._lendable = self._stdin.watchable and passable(0)
            connector = asyncio.create_task(self._stay_connected())
            await self._stdin_ended.wait()
            await self._finish(connector)
            return 0
        finally:
            restore_blocking()

    def _from_agent(self, line: bytes) -> None:
        call = classify(line)
        if call.method == "hook.hello":
            self._remember_hello(line)
        link = self._link
        if link is None:
            if call.id_json is not None:
                self._answer_myself(call.id_json, call.method, self._offline_why)
            elif call.method:
                if len(self._events) == self._events.maxlen:
                    self._dropped_events += 1
                self._events.append(line)
            return
        if call.id_json is not None:
            self._track(call.id_json, call.method)
        link.writer.write(line)
        if link.writer.transport.get_write_buffer_size() > OUTBOX_LIMIT:
            self._lose(link, f"it stopped reading ({OUTBOX_LIMIT >> 20} MiB unsent)")

    def _oversized(self, head: bytes) -> None:
        limit = f"over {LINE_LIMIT >> 20} MiB"
        self._log.once("oversized", f"a line from the agent is {limit}: not forwarded")
        call = classify(head)
        if call.id_json is not None:
            why = f"hook-inspector relay: the request line is {limit}"
            self._answer_myself(call.id_json, call.method, why)

    def _remember_hello(self, line: bytes) -> None:
        try:
            hello = json.loads(line)
        except (ValueError, RecursionError):
            return
        if isinstance(hello, dict):
            self._hello = hello

    def _track(self, id_json: str, method: str) -> None:
        answer_by = wire.answer_by_ms(self._settings.deadlines_ms[wire.deadline_kind(method)])
        timer = asyncio.get_running_loop().call_later(
            answer_by / 1000, self._expire, id_json, answer_by
        )
        self._pending[id_json] = Pending(method, timer)
        self._all_answered.clear()

    def _expire(self, id_json: str, answer_by: int) -> None:
        pending = self._pending.pop(id_json, None)
        if pending:
            self._give_up(id_json, pending.method, answers.too_late(answer_by))

    def _give_up(self, id_json: str, method: str, why: str) -> None:
        self._answer_myself(id_json, method, why)
        self._gave_up[id_json] = None
        if len(self._gave_up) > RECENT_FALLBACKS:
            del self._gave_up[next(iter(self._gave_up))]
        if not self._pending:
            self._all_answered.set()

    def _answer_myself(self, id_json: str, method: str, why: str) -> None:
        self._write_out(answers.fallback(id_json, method, why))

    def _write_out(self, line: bytes) -> None:
        if not self._stdout.is_closing():
            self._stdout.write(line)

    async def _stay_connected(self) -> None:
        """Connect, and reconnect whenever the inspector is gone. Stdin is read from the end of
        the first attempt on (so the first lines reach the inspector), except while lent."""
        endpoint = self._settings.endpoint
        while not self._closing:
            retry_s = self._settings.retry_s
            try:
                link = await open_link(endpoint, self._greeting, LINE_LIMIT)
            except Refused as refusal:
                retry_s = self._settings.refused_retry_s
                self._offline_why = answers.refused(refusal.reason)
                self._log.state(
                    f"refused:{refusal.reason}",
                    f"hook-inspector at {endpoint} refused this relay: {refusal.reason};"
                    " answering by myself (interceptors continue, approvals denied)",
                )
            except Untrusted as distrust:
                retry_s = self._settings.refused_retry_s
                self._offline_why = answers.untrusted(str(distrust))
                self._log.state(
                    f"untrusted:{distrust}",
                    f"not trusting the socket {endpoint}: {distrust}; sent it nothing, answering"
                    " by myself (interceptors continue, approvals denied)",
                )
            except (TimeoutError, OSError):
                self._offline_why = answers.NOT_RUNNING
                self._log.state(
                    "offline",
                    f"no hook-inspector at {endpoint}: answering by myself (interceptors"
                    f" continue, approvals denied); trying again every {retry_s:g} s",
                )
            else:
                if link.took_pipes:
                    self._read_on(await self._lend_stdin(link))
                else:
                    self._adopt(link)
                    self._read_on()
                    self._lose(link, await self._read_inspector(link))
            self._read_on()
            await asyncio.sleep(retry_s)

    def _greeting(self, proof: str | None, unix: bool) -> tuple[bytes, list[int]]:
        """The greeting, with the agent's stdin when the inspector can take it: the relay
        stops reading stdin first, and keeps what it read past the last line for its
        confirmation (wire.lent) or for itself."""
        settings = self._settings
        # Not in the middle of a line too long to pass on: the inspector would read its tail.
        lend = unix and self._lendable and not self._stdin.skipping
        if lend:
            self._offered = self._stdin.stop()
        greeting = wire.greeting(settings.name, proof, settings.deadlines_ms, self._hello, lend)
        return greeting, [0] if lend else []

    def _read_on(self, already_read: bytes = b"") -> None:
        """Read stdin (again), after the input an offer or the inspector gave back."""
        offered, self._offered = self._offered or b"", None
        self._stdin.start(offered + already_read)

    async def _lend_stdin(self, link: Link) -> bytes:
        """The inspector took the agent's stdin: give it what was read of it, then write its
        answers and track the calls it took until it lets go, dies, or stops answering.
        Returns the input it gives back."""
        endpoint = self._settings.endpoint
        alive_ms = wire.alive_ms(self._settings.deadlines_ms)
        link.writer.write(wire.lent(b"".join(self._events) + (self._offered or b""), alive_ms))
        self._events.clear()
        self._offered = None
        self._log.state(
            "lent", f"connected to hook-inspector at {endpoint} (it reads the agent's stdin)"
        )
        self._report_dropped_events()
        lending = Lending(self._from_lent, alive_ms, LINE_LIMIT)
        lending.adopt(link.writer.transport)
        self._lending = True
        try:
            outcome = await lending.outcome
            self._lending = False
            back, why = b"", "gave the agent's stdin back"
            if isinstance(outcome, GivenBack):
                back = outcome.input
                self._hello = outcome.hello or self._hello
                self._offline_why = answers.NOT_RUNNING
                self._give_up_all(answers.NOT_RUNNING)  # it answers all it took before letting go
            elif outcome == GONE:
                self._offline_why = answers.LOST
                self._give_up_all(answers.LOST)
                why = "is gone (the calls it had taken were answered by the relay)"
            else:
                await self._take_back(link, lending, alive_ms * wire.ALIVE_MISSES)
                why = "stopped answering, and its connection has ended"
        finally:
            self._lending = False
            lending.close()
        self._log.state(
            "offline", f"hook-inspector at {endpoint} {why}: answering by myself until it is back"
        )
        return back

    async def _take_back(self, link: Link, lending: Lending, silence_ms: int) -> None:
        """The inspector sent nothing for `silence_ms` (stopped, or stuck): read stdin again,
        answer what it took, and wait for that connection to end before lending again. The
        half-close tells it, whenever it wakes, that the stdin is no longer its own; what it
        sends then is still read (calls it took are answered at once, answers are late)."""
        why = answers.stalled(silence_ms)
        self._offline_why = why
        if link.writer.can_write_eof():
            link.writer.write_eof()
        self._give_up_all(why)
        self._read_on()
        self._log.state(
            "stalled",
            f"hook-inspector at {self._settings.endpoint} sent nothing for {silence_ms} ms: took"
            " the agent's stdin back, answering by myself until it is back",
        )
        await lending.closed

    def _from_lent(self, line: bytes) -> tuple[int, dict[str, Any] | None] | None:
        """A line from the inspector holding the stdin; the `returned` line's fields."""
        if line.startswith(b'{"jsonrpc"'):
            self._from_inspector(line)
        elif line != wire.ALIVE_LINE:
            calls = wire.read_took(line)
            if calls is None:
                returned = wire.read_returned(line)
                if returned is not None:
                    return returned
                self._from_inspector(line)
            for id_json, method in calls or ():
                self._took(id_json, method)
        return None

    def _took(self, id_json: str, method: str) -> None:
        """The inspector read this call: track it, or answer it at once when the stdin is no
        longer its own. A call announced twice (its line begun, then whole) is tracked once."""
        if id_json in self._pending or id_json in self._gave_up:
            return
        if self._lending:
            self._track(id_json, method)
        else:
            self._give_up(id_json, method, self._offline_why)

    def _adopt(self, link: Link) -> None:
        for line in self._events:
            link.writer.write(line)
        self._events.clear()
        self._link = link
        self._log.state("online", f"connected to hook-inspector at {self._settings.endpoint}")
        self._report_dropped_events()

    def _report_dropped_events(self) -> None:
        if self._dropped_events:
            self._log.say(
                f"dropped {self._dropped_events} runtime events while no inspector was connected"
                f" (kept the newest {self._settings.keep_events})"
            )
            self._dropped_events = 0

    async def _read_inspector(self, link: Link) -> str:
        """Forward the inspector's answers until the connection ends; returns why it ended."""
        while True:
            try:
                line = await link.reader.readuntil(b"\n")
            except asyncio.IncompleteReadError:
                return "it closed the connection"
            except asyncio.LimitOverrunError:
                return f"it sent a line over {LINE_LIMIT >> 20} MiB"
            except OSError as exc:
                return str(exc)
            self._from_inspector(line)
            with contextlib.suppress(OSError):  # the agent is gone; its stdin closes too
                await self._stdout.drain()

    def _from_inspector(self, line: bytes) -> None:
        try:
            id_json = answer_id(line)
        except NotAnAnswer as problem:
            self._log.once(problem.kind, f"dropped a line from hook-inspector: {problem.kind}")
            return
        pending = self._pending.pop(id_json, None)
        if pending is None:
            if id_json in self._gave_up:
                self._log.once(
                    "late", f"dropped a late answer from hook-inspector (id {id_json} was answered)"
                )
            else:
                self._log.once(
                    "unknown id", f"dropped an answer from hook-inspector to unknown id {id_json}"
                )
            return
        pending.timer.cancel()
        self._write_out(line)
        if not self._pending:
            self._all_answered.set()

    def _lose(self, link: Link, why: str) -> None:
        if self._link is not link:
            return
        self._link = None
        link.writer.close()
        self._offline_why = answers.LOST
        self._log.state(
            "offline",
            f"lost hook-inspector at {self._settings.endpoint} ({why}): answering by myself"
            " until it is back",
        )
        self._give_up_all(answers.LOST)

    def _give_up_all(self, why: str) -> None:
        pending, self._pending = self._pending, {}
        for id_json, call in pending.items():
            call.timer.cancel()
            self._give_up(id_json, call.method, why)
        self._all_answered.set()

    async def _finish(self, connector: asyncio.Task[None]) -> None:
        """The agent closed stdin: answer what is pending (by its deadline at the latest), tell
        the inspector, and go."""
        self._closing = True
        link = self._link
        if link is not None and link.writer.can_write_eof():
            link.writer.write_eof()
        await self._all_answered.wait()
        connector.cancel()
        if self._link is not None:
            self._link.writer.close()
        self._report_dropped_events()
        with contextlib.suppress(OSError):
            await self._stdout.drain()
