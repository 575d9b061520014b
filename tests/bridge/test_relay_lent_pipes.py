"""The relay lends the agent's pipes to the inspector (wire.py): a fake PicoClaw host runs the real
relay, and the inspector reads and answers its pipes itself, until it lets go or one side dies."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import pytest

from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.config.model import HookSpec
from inspector.engine import Engine
from inspector.journal.records import Exchange, Lifecycle
from inspector.relay import wire
from tests.support.bridge_client import listening, short_socket_path
from tests.support.fake_agent import FakeAgent, go_json
from tests.support.scripted import config_of, scripted
from tests.support.serve import serving
from tests.support.waiting import wait_for

RELAY = [sys.executable, "-m", "inspector.relay.main"]
META = {"AgentID": "main", "TurnID": "turn-1", "ParentTurnID": "", "SessionKey": "s"}
BEFORE_TOOL = {"meta": META, "tool": "exec", "arguments": {"command": "ls"}}
LENT = "reading the agent's stdin it lent"
F = TypeVar("F", bound=Callable[..., Awaitable[None]])


def bounded(test: F) -> F:
    """Fail a test that runs past a minute instead of hanging the suite."""

    @wraps(test)
    async def run(*args: Any, **kwargs: Any) -> None:
        await asyncio.wait_for(test(*args, **kwargs), 60)

    return run  # type: ignore[return-value]


@pytest.fixture
def socket_path() -> Iterator[Path]:
    with short_socket_path() as path:
        yield path


def inspector(socket_path: Path, *specs: HookSpec) -> AbstractAsyncContextManager[Engine]:
    return listening(config_of(*specs), socket_path)


@asynccontextmanager
async def agent(socket_path: Path, **deadlines_ms: int) -> AsyncIterator[FakeAgent]:
    flags = [f"--{kind}-timeout-ms={ms}" for kind, ms in deadlines_ms.items()]
    command = [*RELAY, "--name", "pico", "--socket", str(socket_path), *flags]
    fake = FakeAgent(command, deadlines_ms=deadlines_ms)
    await fake.start()
    try:
        yield fake
    finally:
        if fake.returncode is None:
            await fake.close(wait_s=1.0)


def states(engine: Engine) -> list[tuple[str, str]]:
    return [(r.state, r.detail) for r in engine.journal.of_type(Lifecycle) if r.hook == "pico"]


def tagger() -> HookSpec:
    patch = {"arguments": {"tag": 1}}
    return scripted(
        "tagger", {"before_tool": {"echo": "modify", "patch": patch}}, intercept=("before_tool",)
    )


@bounded
async def test_the_inspector_reads_the_agents_pipes_and_the_agent_sees_no_difference(
    socket_path: Path,
) -> None:
    async with inspector(socket_path, tagger()) as engine, agent(socket_path) as fake:
        await fake.wait_stderr("(it reads the agent's stdin)")
        hello = await fake.hello("pico", ["tool"])
        answers = await asyncio.gather(
            *(fake.call("hook.before_tool", BEFORE_TOOL) for _ in range(20))
        )
        code = await fake.close()

    assert hello.result["ok"] is True and code == 0
    assert all(a.result["call"]["arguments"] == {"command": "ls", "tag": 1} for a in answers)
    assert sorted(a.id for a in answers) == list(range(2, 22))
    connected, disconnected = states(engine)
    assert LENT in connected[1]
    assert disconnected[1] == "the relay stopped sending; 0 pending call(s) answered"


@bounded
async def test_pipes_given_back_with_a_line_begun_and_lent_again_to_the_next_inspector(
    socket_path: Path,
) -> None:
    async with agent(socket_path) as fake:
        async with inspector(socket_path, tagger()):
            await fake.wait_stderr("(it reads the agent's stdin)")
            await fake.hello("pico", ["tool", "approve"])
            request = go_json({"jsonrpc": "2.0", "id": 50, "method": "hook.before_tool",
                               "params": BEFORE_TOOL})  # fmt: skip
            await fake.write_raw(request[:30])  # the inspector stops within a line
            await wait_for(lambda: fake.unread_input() == 0)  # it read those 30 bytes
        await fake.wait_stderr("gave the agent's stdin back")
        await fake.write_raw(request[30:])
        await wait_for(
            lambda: any(line.startswith(b'{"jsonrpc":"2.0","id":50') for line in fake.late)
        )
        (answer,) = [json.loads(line) for line in fake.late]
        offline = await fake.call("hook.approve_tool", BEFORE_TOOL)

        async with inspector(socket_path, tagger()) as second:
            await wait_for(lambda: len(states(second)) == 1)
            again = await fake.call("hook.before_tool", BEFORE_TOOL)

    assert answer["result"] == {"action": "continue"}  # the relay's own answer, line intact
    assert offline.result["approved"] is False
    assert offline.result["reason"].startswith("hook-inspector is not running")
    assert again.result["call"]["arguments"]["tag"] == 1
    (connected,) = [detail for state, detail in states(second) if state == "connected"]
    assert LENT in connected and "modes tool, approve" in connected  # the hello came back too


@bounded
async def test_a_relay_killed_while_lent_leaves_the_agent_no_pipe_held_open(
    socket_path: Path,
) -> None:
    slow = scripted("slow", {"before_tool": {"delay_ms": 30_000}}, intercept=("before_tool",))
    async with inspector(socket_path, slow) as engine, agent(socket_path) as fake:
        await fake.wait_stderr("(it reads the agent's stdin)")
        call = asyncio.create_task(fake.call("hook.before_tool", BEFORE_TOOL, timeout_s=20))
        await wait_for(lambda: asked_slow(engine))
        fake.process.send_signal(signal.SIGKILL)
        ended = await call  # stdout reaches EOF only once the inspector's copy is closed too
        await wait_for(lambda: states(engine)[-1][0] == "disconnected")

    assert ended.outcome == "process exited"
    assert states(engine)[-1][1] == "the relay hung up; 1 pending call(s) cancelled"


@bounded
async def test_an_inspector_killed_while_lent_leaves_the_relay_answering_even_its_calls(
    socket_path: Path, tmp_path: Path
) -> None:
    slow, seen = tmp_path / "slow.py", tmp_path / "seen"
    slow.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['method'] == 'hook.hello':\n"
        "        print(json.dumps({'jsonrpc': '2.0', 'id': message['id'], 'result': {}}))\n"
        "        sys.stdout.flush()\n"
        "        continue\n"
        f"    open({str(seen)!r}, 'w').close()\n"
        "    time.sleep(30)\n"
    )
    config = f"hooks:\n  slow:\n    command: [{sys.executable}, {slow}]\n"
    config += "    intercept: [before_tool]\n"
    async with (
        serving(socket_path, tmp_path, config) as serve,
        agent(socket_path, interceptor=1500) as fake,
    ):
        await fake.wait_stderr("(it reads the agent's stdin)")
        stuck = asyncio.create_task(fake.call("hook.before_tool", BEFORE_TOOL))
        await wait_for(seen.exists)  # the inspector read the call and its hook has it
        serve.kill()
        await fake.wait_stderr("is gone")
        after = await fake.call("hook.approve_tool", BEFORE_TOOL, timeout_s=5)
        lost = await stuck

    assert after.result["approved"] is False
    assert after.result["reason"].startswith("the connection to hook-inspector was lost")
    # read by the inspector before it died: it told the relay, which answers it at once (item
    # 9 of issue 24: it used to wait for the agent's own timeout)
    assert lost.outcome == "answered" and lost.result == {"action": "continue"}


def test_the_wire_of_lending() -> None:
    offered = json.loads(wire.greeting("a", None, wire.DEFAULT_DEADLINES_MS, None, True))
    plain: dict[str, Any] = json.loads(wire.greeting("a", None, wire.DEFAULT_DEADLINES_MS))
    assert offered["pipes"] is True and "pipes" not in plain
    assert wire.takes_pipes(wire.welcome(True, pipes=True))
    assert not wire.takes_pipes(wire.welcome(True))
    line, rest = wire.lent(b'{"a":1}\n{"b"', 250).split(b"\n", 1)
    assert wire.read_lent(line) == (12, 250) and rest == b'{"a":1}\n{"b"'
    line, rest = wire.returned(b'{"id":', {"method": "hook.hello"}).split(b"\n", 1)
    assert wire.read_returned(line) == (6, {"method": "hook.hello"})
    assert rest == b'{"id":'
    assert wire.read_returned(b'{"returned": -1}') is None and wire.read_lent(b"[]") is None
    assert wire.read_lent(b'{"lent": 3}') is None  # how often to beat is not optional
    assert wire.read_took(wire.took([("7", "hook.before_tool")])) == [("7", "hook.before_tool")]
    # a stopped inspector noticed in 2.4 to 3 s, within half the 4.8 s the relay has to answer
    assert wire.alive_ms(wire.DEFAULT_DEADLINES_MS) == 600
    assert wire.alive_ms({"interceptor": 400, "approval": 60000}) == 45  # a short deadline
    assert wire.alive_ms({"interceptor": 30000, "approval": 60000}) == 1000  # at least 1/s


class StandInRelay:
    """The relay's side of lending, by hand: the agent's pipes are two os.pipe()s of ours."""

    def __init__(self, socket_path: Path) -> None:
        self.agent_in_read, self.agent_in = os.pipe()  # what the agent writes (its requests)
        self.agent_out, self.agent_out_write = os.pipe()  # what it reads (the answers)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(socket_path))
        self._from_inspector = self.sock.makefile("rb")

    def greet(self) -> None:
        greeting = wire.greeting("pico", None, wire.DEFAULT_DEADLINES_MS, None, True)
        socket.send_fds(self.sock, [greeting], [self.agent_in_read])

    async def line(self) -> bytes:
        return await asyncio.to_thread(self._from_inspector.readline)

    async def read(self, size: int) -> bytes:
        return await asyncio.to_thread(self._from_inspector.read, size)

    def close(self) -> None:
        for fd in (self.agent_in_read, self.agent_in, self.agent_out, self.agent_out_write):
            os.close(fd)
        self._from_inspector.close()
        self.sock.close()


REQUEST = go_json({"jsonrpc": "2.0", "id": 9, "method": "hook.before_tool", "params": BEFORE_TOOL})


@bounded
async def test_a_relay_that_gave_up_on_the_welcome_keeps_its_pipes(socket_path: Path) -> None:
    async with inspector(socket_path, tagger()) as engine:
        relay = StandInRelay(socket_path)
        os.write(relay.agent_in, REQUEST)  # written while the relay waited for the welcome
        relay.greet()
        relay.sock.shutdown(socket.SHUT_RDWR)  # it gave up waiting and reads stdin itself again
        await wait_for(lambda: bool(states(engine)) and states(engine)[-1][0] == "disconnected")
        os.set_blocking(relay.agent_in_read, False)
        left = os.read(relay.agent_in_read, 1000)
        relay.close()
    assert left == REQUEST  # the inspector never touched the pipe without the confirmation
    assert not [e for e in engine.journal.exchanges() if e.hook == "pico"]


@bounded
async def test_the_relay_is_told_of_a_call_whose_line_has_only_begun(socket_path: Path) -> None:
    slow = scripted("slow", {"before_tool": {"delay_ms": 30_000}}, intercept=("before_tool",))
    async with inspector(socket_path, slow):
        relay = StandInRelay(socket_path)
        relay.greet()
        assert wire.takes_pipes(await relay.line())
        relay.sock.sendall(wire.lent(b"", 1000))
        os.write(relay.agent_in, REQUEST[:60])  # the agent is still writing the rest
        while (took := wire.read_took(await relay.line())) is None:
            pass  # heartbeats
        os.write(relay.agent_in, REQUEST[60:])
        while (again := wire.read_took(await relay.line())) is None:
            pass
        relay.close()
    assert took == again == [("9", "hook.before_tool")]  # should the inspector die mid-line


@bounded
async def test_stopping_before_the_relay_confirms_gives_back_all_it_sent(
    socket_path: Path,
) -> None:
    already_read = REQUEST + b'{"jsonrpc"'
    async with Engine(config_of(tagger())) as engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        relay = StandInRelay(socket_path)
        relay.greet()
        assert wire.takes_pipes(await relay.line())
        session = listener.sessions["pico"]
        closing = asyncio.create_task(listener.close())
        await wait_for(lambda: session._stopping)
        relay.sock.sendall(wire.lent(already_read, 250))
        returned = wire.read_returned(await relay.line())
        assert returned is not None
        given_back = await relay.read(returned[0])
        await closing
        relay.close()
    assert returned[0] == len(already_read)
    assert given_back == already_read  # not read, not answered: the relay's again
    assert not [e for e in engine.journal.exchanges() if e.hook == "pico"]


@bounded
async def test_a_relay_killed_while_its_agent_drains_ends_the_pending_call_at_once(
    socket_path: Path,
) -> None:
    slow = scripted("slow", {"before_tool": {"delay_ms": 30_000}}, intercept=("before_tool",))
    async with (
        inspector(socket_path, slow) as engine,
        agent(socket_path, interceptor=15_000) as fake,
    ):
        await fake.wait_stderr("(it reads the agent's stdin)")
        call = asyncio.create_task(fake.call("hook.before_tool", BEFORE_TOOL))
        await wait_for(lambda: asked_slow(engine))
        # PicoClaw's Close(): stdin closed, the hook killed 2 s later
        code = await fake.close(wait_s=2.0)
        ended = await call
        await wait_for(lambda: states(engine)[-1][0] == "disconnected")
    assert code == -signal.SIGKILL
    assert ended.outcome == "process exited"  # not the inspector's answer 30 s later
    assert states(engine)[-1][1] == "the relay hung up; 1 pending call(s) cancelled"


@bounded
async def test_answers_the_agent_had_not_taken_go_back_to_the_relay_whole(
    socket_path: Path,
) -> None:
    count, big = 40, "x" * 8000  # 40 answers of 8 kB: far more than the pipe holds
    out_read, out_write = os.pipe()
    relay = await asyncio.create_subprocess_exec(
        *RELAY, "--name", "pico", "--socket", str(socket_path),
        stdin=asyncio.subprocess.PIPE, stdout=out_write, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    os.close(out_write)
    assert relay.stdin is not None
    reading = asyncio.to_thread(_read_to_the_end, out_read)
    params = {**BEFORE_TOOL, "arguments": {"big": big}}
    async with inspector(socket_path, tagger()) as engine:
        await wait_for(lambda: any(LENT in detail for _, detail in states(engine)))
        requests = (
            go_json({"jsonrpc": "2.0", "id": n, "method": "hook.before_tool", "params": params})
            for n in range(1, count + 1)
        )
        relay.stdin.write(b"".join(requests))  # and the agent reads nothing meanwhile
        await wait_for(lambda: len(answered_ok(engine)) == count)
    hello = {"name": "pico", "version": 1, "modes": ["tool"]}
    relay.stdin.write(
        go_json({"jsonrpc": "2.0", "id": 41, "method": "hook.hello", "params": hello})
    )
    relay.stdin.close()
    out = await asyncio.wait_for(reading, 30)
    await relay.wait()
    lines = [json.loads(line) for line in out.splitlines()]  # every line whole
    assert sorted(line["id"] for line in lines) == list(range(1, count + 2))


def asked_slow(engine: Engine) -> bool:
    """The slow hook has the agent's call (not only the inspector's hello)."""
    return any(
        e.hook == "slow" and e.method == "hook.before_tool" for e in engine.journal.exchanges()
    )


def answered_ok(engine: Engine) -> list[Exchange]:
    return [e for e in engine.journal.exchanges() if e.hook == "pico" and e.status == "ok"]


def _read_to_the_end(fd: int) -> bytes:
    with os.fdopen(fd, "rb") as pipe:
        return pipe.read()


@bounded
async def test_stopping_while_a_relay_greets_neither_waits_for_it_nor_serves_it(
    socket_path: Path,
) -> None:
    async with Engine(config_of(tagger())) as engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        relay = StandInRelay(socket_path)  # connected, its greeting still to come
        await asyncio.wait_for(listener.close(), 5)  # not the 2 s greeting wait, nor its life
        with contextlib.suppress(OSError):
            relay.greet()
        welcome = await relay.line()
        relay.close()
    assert welcome == b"" and states(engine) == []
