"""An inspector holding the agent's stdin that is frozen (SIGSTOP) or killed must not take the
agent down with it: a fake PicoClaw host runs the real relay, lent to a real `hook-inspector
serve`, and the agent gets the relay's safe answers instead of waiting out its deadlines."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import signal
import struct
import termios
from asyncio.subprocess import Process
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.bridge.test_relay_lent_pipes import BEFORE_TOOL, RELAY, agent, bounded
from tests.bridge.test_relay_lent_pipes import socket_path as socket_path  # a fixture
from tests.support.fake_agent import FakeAgent, go_json
from tests.support.serve import TAGGER_CONFIG, serving
from tests.support.waiting import wait_for

LENT = "(it reads the agent's stdin)"


@asynccontextmanager
async def stopped_after_a_call(
    socket_path: Path, folder: Path
) -> AsyncIterator[tuple[FakeAgent, Process]]:
    """An agent whose relay lent its stdin to `serve`, which answered one call and was then
    stopped (SIGSTOP); `serve` is woken and killed at the end."""
    async with serving(socket_path, folder, TAGGER_CONFIG) as serve, agent(socket_path) as fake:
        await fake.wait_stderr(LENT, timeout_s=30)
        answer = await fake.call("hook.before_tool", BEFORE_TOOL)
        assert answer.result["call"]["arguments"]["tag"] == 1
        serve.send_signal(signal.SIGSTOP)
        yield fake, serve


def said(fake: FakeAgent, text: str) -> int:
    return sum(text in line for line in fake.stderr_lines)


@bounded
async def test_a_stopped_inspector_gives_the_stdin_back_and_takes_it_again_once_woken(
    socket_path: Path,
    tmp_path: Path,
) -> None:
    async with stopped_after_a_call(socket_path, tmp_path) as (fake, serve):
        # the approval's own deadline is 60 s: a relay that waited for the inspector fails this
        frozen = await fake.call("hook.approve_tool", BEFORE_TOOL, timeout_s=20)
        also = await fake.call("hook.before_tool", BEFORE_TOOL, timeout_s=20)
        serve.send_signal(signal.SIGCONT)
        await wait_for(lambda: said(fake, LENT) == 2, timeout=20)  # lent again once it woke
        after = await fake.call("hook.before_tool", BEFORE_TOOL)
        code = await fake.close()

    assert frozen.outcome == "answered" and frozen.result["approved"] is False
    assert frozen.result["reason"].startswith("hook-inspector stopped answering")
    assert also.outcome == "answered" and also.result == {"action": "continue"}
    assert after.result["call"]["arguments"]["tag"] == 1  # the woken inspector, reading again
    assert code == 0
    assert said(fake, "took the agent's stdin back") == 1


@bounded
async def test_a_relay_lent_to_a_stopped_inspector_exits_when_the_agent_closes_stdin(
    socket_path: Path,
    tmp_path: Path,
) -> None:
    async with stopped_after_a_call(socket_path, tmp_path) as (fake, _serve):
        code = await fake.close(wait_s=15)  # killed at 15 s if it lingers
    assert code == 0


@bounded
async def test_a_relay_killed_while_the_inspector_is_stopped_leaves_no_pipe_held_open(
    socket_path: Path,
    tmp_path: Path,
) -> None:
    async with stopped_after_a_call(socket_path, tmp_path) as (fake, _serve):
        call = asyncio.create_task(fake.call("hook.before_tool", BEFORE_TOOL, timeout_s=20))
        await wait_for(lambda: fake.unread_input() > 0)  # written, and nobody reads it
        fake.process.send_signal(signal.SIGKILL)
        ended = await call
    assert ended.outcome == "process exited"  # stdout reached EOF: only the relay held it


def pipe_holds(fd: int) -> int:
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


@bounded
async def test_an_inspector_killed_while_answering_at_length_leaves_no_half_line(
    socket_path: Path,
    tmp_path: Path,
) -> None:
    out_read, out_write = os.pipe()
    relay = await asyncio.create_subprocess_exec(
        *RELAY, "--name", "pico", "--socket", str(socket_path),
        stdin=asyncio.subprocess.PIPE, stdout=out_write, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    os.close(out_write)
    assert relay.stdin is not None and relay.stderr is not None
    big = {**BEFORE_TOOL, "arguments": {"big": "x" * 200_000}}  # echoed back in the answer
    async with serving(socket_path, tmp_path, TAGGER_CONFIG) as serve:
        while LENT not in (await asyncio.wait_for(relay.stderr.readline(), 20)).decode():
            pass
        request = {"jsonrpc": "2.0", "id": 1, "method": "hook.before_tool", "params": big}
        relay.stdin.write(go_json(request))  # and the agent reads nothing for now
        await wait_for(lambda: pipe_holds(out_read) >= 60_000, timeout=20)  # its answer begun
        serve.kill()
        await serve.wait()
    approval = {"jsonrpc": "2.0", "id": 2, "method": "hook.approve_tool", "params": BEFORE_TOOL}
    relay.stdin.write(go_json(approval))
    relay.stdin.close()
    with os.fdopen(out_read, "rb") as agent_reads:
        out = await asyncio.to_thread(agent_reads.read)
    await relay.wait()

    answers = [json.loads(line) for line in out.splitlines()]  # every line whole
    assert [answer["id"] for answer in answers] == [1, 2]
    assert answers[1]["result"]["approved"] is False
