"""The relay lends the agent's pipes to the inspector (wire.py): a fake PicoClaw host runs the real
relay, and the inspector reads and answers its pipes itself, until it lets go or one side dies."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import pytest
from bridge_client import listening, short_socket_path
from conftest import config_of, scripted, wait_for
from fake_agent import FakeAgent, go_json

from inspector.config.model import HookSpec
from inspector.engine import Engine
from inspector.journal.records import Lifecycle

RELAY = [sys.executable, "-m", "inspector.relay.main"]
META = {"AgentID": "main", "TurnID": "turn-1", "ParentTurnID": "", "SessionKey": "s"}
BEFORE_TOOL = {"meta": META, "tool": "exec", "arguments": {"command": "ls"}}
LENT = "reading the agent's pipes it lent"
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
        await fake.wait_stderr("(it reads the agent's pipes)")
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
            await fake.wait_stderr("(it reads the agent's pipes)")
            await fake.hello("pico", ["tool", "approve"])
            request = go_json({"jsonrpc": "2.0", "id": 50, "method": "hook.before_tool",
                               "params": BEFORE_TOOL})  # fmt: skip
            await fake.write_raw(request[:30])  # the inspector stops within a line
            await wait_for(lambda: fake.unread_input() == 0)  # it read those 30 bytes
        await fake.wait_stderr("gave the agent's pipes back")
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
        await fake.wait_stderr("(it reads the agent's pipes)")
        call = asyncio.create_task(fake.call("hook.before_tool", BEFORE_TOOL, timeout_s=20))
        await wait_for(lambda: any(e.hook == "slow" for e in engine.journal.exchanges()))
        fake.process.send_signal(signal.SIGKILL)
        ended = await call  # stdout reaches EOF only once the inspector's copy is closed too
        await wait_for(lambda: states(engine)[-1][0] == "disconnected")

    assert ended.outcome == "process exited"
    assert states(engine)[-1][1] == "the relay hung up; 1 pending call(s) cancelled"


@bounded
async def test_an_inspector_killed_while_lent_leaves_the_relay_answering(
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
    config = tmp_path / "hooks.yaml"
    config.write_text(
        f"hooks:\n  slow:\n    command: [{sys.executable}, {slow}]\n    intercept: [before_tool]\n"
    )
    serve = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "inspector", "serve", str(config), "--socket", str(socket_path),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert serve.stderr is not None
    assert b"listening on" in await asyncio.wait_for(serve.stderr.readline(), 20)
    try:
        async with agent(socket_path, interceptor=1500) as fake:
            await fake.wait_stderr("(it reads the agent's pipes)")
            stuck = asyncio.create_task(fake.call("hook.before_tool", BEFORE_TOOL))
            await wait_for(seen.exists)  # the inspector read the call and its hook has it
            serve.kill()
            await fake.wait_stderr("is gone")
            after = await fake.call("hook.approve_tool", BEFORE_TOOL, timeout_s=5)
            lost = await stuck
    finally:
        if serve.returncode is None:
            serve.kill()
        await serve.wait()

    assert after.result["approved"] is False
    assert after.result["reason"].startswith("the connection to hook-inspector was lost")
    # read by the inspector before it died: answered by nobody, as a dead hook's call is
    assert lost.outcome == "timeout"


def test_the_greeting_offers_pipes_only_with_descriptors_to_send(socket_path: Path) -> None:
    from inspector.relay import wire

    offered = json.loads(wire.greeting("a", None, wire.DEFAULT_DEADLINES_MS, None, 12))
    plain: dict[str, Any] = json.loads(wire.greeting("a", None, wire.DEFAULT_DEADLINES_MS))
    assert offered["pipes"] == 12 and "pipes" not in plain
    assert wire.takes_pipes(wire.welcome(True, pipes=True))
    assert not wire.takes_pipes(wire.welcome(True))
    line, rest = wire.returned(b'{"id":', {"method": "hook.hello"}).split(b"\n", 1)
    assert wire.read_returned(line) == (6, {"method": "hook.hello"}) and rest == b'{"id":'
