"""Over TCP the relay and the inspector prove to each other that they know the token, and the
token never crosses the wire.

A squatter (tests/support/squatter.py, another uid) listens on the inspector's port with no
inspector running: each of the three clients (the PicoClaw relay, the Claude Code command relay,
the OpenClaw plugin in real Node) must send it nothing but its challenge, no token and nothing of
the agent's, and give the agent the safe answers."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from inspector.bridge.listener import Listener
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.journal.records import Lifecycle, Stderr
from inspector.relay import wire
from inspector.relay.command_wire import INSIDE_INSPECTOR
from tests.support.bridge_client import short_socket_path
from tests.support.command_relay import RELAY_ENV, pre_tool_use
from tests.support.fake_agent import FakeAgent
from tests.support.openclaw_bridge import exec_call, gateway
from tests.support.paths import SUPPORT
from tests.support.scripted import config_of, scripted
from tests.support.waiting import wait_for

NOBODY = "65534"
TOKEN = "s3cret-token-of-the-board"
CALL = {"tool": "exec", "arguments": {"command": "ls"}}
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root can act as another user")
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
SQUATTER = SUPPORT / "squatter.py"


@dataclass
class Squatter:
    port: int
    lines: list[dict[str, Any]] = field(default_factory=list)

    def assert_learned_nothing(self) -> None:
        """Every line it got is a bare challenge: no token, no greeting, nothing of the agent's."""
        assert self.lines, "the client never reached the squatter"
        for line in self.lines:
            assert TOKEN not in line["line"]
            assert set(json.loads(line["line"])) == {wire.GREETING_KEY, "challenge"}, line


@pytest.fixture
async def squatter() -> AsyncIterator[Squatter]:
    process = await asyncio.create_subprocess_exec(
        *("setpriv", "--reuid", NOBODY, "--regid", NOBODY, "--clear-groups"),
        *(sys.executable, str(SQUATTER)),
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    started = json.loads(await process.stdout.readline())
    assert started["uid"] == int(NOBODY)
    found = Squatter(started["port"])

    async def read() -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            found.lines.append(json.loads(line))

    reading = asyncio.create_task(read())
    try:
        yield found
    finally:
        process.kill()
        await process.wait()
        await reading


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    path = tmp_path / "token"
    path.write_text(TOKEN + "\n")
    return path


def relay_command(*flags: str) -> list[str]:
    return [sys.executable, "-m", "inspector.relay.main", "--name", "board", *flags]


async def command_relay(event: dict[str, Any], *flags: str) -> tuple[str, str, int]:
    process = await asyncio.create_subprocess_exec(
        *relay_command("--host", "claude", *flags),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**{k: v for k, v in os.environ.items() if k != INSIDE_INSPECTOR}, **RELAY_ENV},
    )
    stdout, stderr = await process.communicate(json.dumps(event).encode() + b"\n")
    assert process.returncode is not None
    return stdout.decode(), stderr.decode(), process.returncode


# ---- a squatter on the port ------------------------------------------------------------------


@as_root
async def test_the_picoclaw_relay_sends_a_squatter_no_token_and_gets_the_safe_answers(
    squatter: Squatter, token_file: Path
) -> None:
    where = f"127.0.0.1:{squatter.port}"
    agent = FakeAgent(relay_command("--connect", where, "--token-file", str(token_file)))
    await agent.start()
    try:
        await agent.wait_stderr("did not prove")
        hello = await agent.hello("inspector", ["tool", "approve"])
        tool = await agent.call("hook.before_tool", CALL)
        approval = await agent.call("hook.approve_tool", CALL)
    finally:
        await agent.close(wait_s=1.0)
    assert hello.result == {}
    assert tool.result == {"action": "continue"}
    assert approval.result["approved"] is False
    assert "did not prove it knows the token" in approval.result["reason"]
    squatter.assert_learned_nothing()


@as_root
async def test_the_claude_command_relay_sends_a_squatter_no_token_and_the_hook_is_absent(
    squatter: Squatter, token_file: Path
) -> None:
    where = f"127.0.0.1:{squatter.port}"
    event = pre_tool_use("rm -rf /")
    stdout, stderr, code = await command_relay(
        event, "--connect", where, "--token-file", str(token_file)
    )
    assert (stdout, code) == ("", 0)  # no allow, no updatedInput
    assert "did not prove it knows the token" in stderr and stderr.count("\n") == 1
    squatter.assert_learned_nothing()


@as_root
@needs_node
async def test_the_openclaw_plugin_sends_a_squatter_no_token_and_the_call_is_not_rewritten(
    squatter: Squatter, token_file: Path, tmp_path: Path
) -> None:
    where = {"tcp": f"127.0.0.1:{squatter.port}", "tokenFile": str(token_file)}
    async with gateway(tmp_path / "unused.sock", **where) as live:
        await wait_for(lambda: bool(squatter.lines))
        result = await live.fire("before_tool_call", *exec_call("ls"))
        approval = await live.fire("before_tool_call", *exec_call("ls"))
    assert result is None and approval is None  # OpenClaw runs the call as asked
    squatter.assert_learned_nothing()
    said = [record.line for record in live.journal.of_type(Stderr)]
    assert any("did not prove it knows the token" in line for line in said), said


# ---- a real inspector with another token ------------------------------------------------------


@pytest.fixture
async def tcp_inspector() -> AsyncIterator[tuple[Engine, Listener]]:
    async with Engine(Config(hooks=())) as engine:
        listener = Listener(engine, tcp=("127.0.0.1", 0), token=TOKEN)
        await listener.start()
        try:
            yield engine, listener
        finally:
            await listener.close()


def refusals(engine: Engine) -> list[str]:
    return [r.detail for r in engine.journal.of_type(Lifecycle) if r.state == "refused"]


async def test_a_relay_with_another_token_does_not_trust_the_inspector(
    tcp_inspector: tuple[Engine, Listener], tmp_path: Path
) -> None:
    engine, listener = tcp_inspector
    (tmp_path / "other").write_text("another token\n")
    flags = ("--connect", listener.address, "--token-file", str(tmp_path / "other"))
    stdout, stderr, code = await command_relay(pre_tool_use("ls"), *flags)
    assert (stdout, code) == ("", 0)
    assert "did not prove it knows the token" in stderr
    await wait_for(lambda: bool(refusals(engine)))
    assert "hung up after the inspector's proof" in refusals(engine)[0]


async def replies(listener: Listener, *lines: dict[str, Any]) -> list[dict[str, Any]]:
    """The inspector's answer to each line, sent one at a time; then it must hang up."""
    host, port = listener.address.rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    answers = []
    try:
        for line in lines:
            writer.write(json.dumps(line).encode() + b"\n")
            answers.append(json.loads(await reader.readline()))
        assert await reader.read() == b""
    finally:
        writer.close()
    return answers


async def test_an_inspector_refuses_a_relay_whose_proof_is_wrong(
    tcp_inspector: tuple[Engine, Listener],
) -> None:
    engine, listener = tcp_inspector
    challenge = {wire.GREETING_KEY: wire.WIRE_VERSION, "challenge": "ab" * 32}
    greeting = {wire.GREETING_KEY: wire.WIRE_VERSION, "name": "guess", "proof": "00" * 32}
    reply, answer = await replies(listener, challenge, greeting)
    assert set(reply) == {wire.WELCOME_KEY, "challenge", "proof"}
    assert answer["ok"] is False and answer["error"] == "wrong token"
    assert "wrong token" in refusals(engine)[0]


async def test_an_inspector_with_a_token_refuses_a_greeting_that_proves_nothing(
    tcp_inspector: tuple[Engine, Listener],
) -> None:
    greeting = json.loads(wire.greeting("bare", None, dict(wire.DEFAULT_DEADLINES_MS)))
    (answer,) = await replies(tcp_inspector[1], greeting)
    assert answer["ok"] is False and "prove" in answer["error"]


# ---- older peers ------------------------------------------------------------------------------


async def test_an_older_relay_sending_its_token_is_told_to_update(
    tcp_inspector: tuple[Engine, Listener],
) -> None:
    old = {wire.GREETING_KEY: 1, "name": "old", "pid": 1, "token": TOKEN}
    (answer,) = await replies(tcp_inspector[1], old)
    assert answer["ok"] is False
    assert f"wire version 1; this inspector speaks {wire.WIRE_VERSION}" in answer["error"]
    assert "update" in answer["error"]


async def old_inspector(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """An inspector of wire version 1, as it answered any other version."""
    greeting = json.loads(await reader.readline())
    version = greeting.get(wire.GREETING_KEY)
    error = f"wire version {json.dumps(version)}; this inspector speaks 1"
    writer.write(json.dumps({wire.WELCOME_KEY: 1, "ok": False, "error": error}).encode() + b"\n")
    await writer.drain()
    writer.close()


async def test_a_relay_meeting_an_older_inspector_says_so_and_answers_by_itself(
    token_file: Path,
) -> None:
    server = await asyncio.start_server(old_inspector, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    flags = ("--connect", f"127.0.0.1:{port}", "--token-file", str(token_file))
    agent = FakeAgent(relay_command(*flags))
    await agent.start()
    try:
        approval = await agent.call("hook.approve_tool", CALL)
        await agent.wait_stderr("this inspector speaks 1")
        stdout, stderr, code = await command_relay(pre_tool_use("ls"), *flags)
    finally:
        await agent.close(wait_s=1.0)
        server.close()
    assert approval.result["approved"] is False
    assert (stdout, code) == ("", 0) and "this inspector speaks 1" in stderr


# ---- a Unix socket with a token: the proof first, the agent's pipes still lent -----------------


async def test_with_a_token_on_a_unix_socket_the_relay_proves_itself_and_still_lends_the_pipes(
    token_file: Path,
) -> None:
    tagger = scripted(
        "tagger",
        {"before_tool": {"echo": "modify", "patch": {"arguments": {"tag": 1}}}},
        intercept=("before_tool",),
    )
    with short_socket_path() as path:
        async with Engine(config_of(tagger)) as engine:
            listener = Listener(engine, socket_path=path, token=TOKEN)
            await listener.start()
            agent = FakeAgent(relay_command("--socket", str(path), "--token-file", str(token_file)))
            await agent.start()
            try:
                await agent.wait_stderr("(it reads the agent's")
                call = await agent.call("hook.before_tool", CALL)
            finally:
                await agent.close(wait_s=1.0)
                await listener.close()
    assert call.result["call"]["arguments"] == {"command": "ls", "tag": 1}
