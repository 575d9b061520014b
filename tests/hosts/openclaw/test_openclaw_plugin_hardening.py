"""hook-inspector's OpenClaw plugin in real Node must never take the Gateway down or trust a
socket another user could swap: it runs here in a Gateway-like host (tests/openclaw_gateway_like.js)
that, like the Gateway, has no handler for what the plugin lets escape, so a fault ends it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.bridge.listener import Listener
from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Stderr
from inspector.relay import wire
from tests.support.openclaw_bridge import BRIDGE, exec_call, gateway, inspector
from tests.support.paths import EXAMPLES
from tests.support.waiting import wait_for

if shutil.which("node") is None:
    pytest.skip("node is not installed", allow_module_level=True)

HOST = Path(__file__).with_name("openclaw_gateway_like.js")
EXAMPLE = EXAMPLES / "openclaw"
NOBODY = 65534
MIB = 1024 * 1024
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root can act as another user")


class GatewayLike:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.stderr: list[str] = []
        self._pings = 0
        self._reading = asyncio.create_task(self._read_stderr())

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.stderr.append(line.decode(errors="replace"))

    async def _ask(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(command).encode() + b"\n")
        line = await self.process.stdout.readline()
        assert line, f"the Gateway-like host ended: {''.join(self.stderr)[-2000:]}"
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def fire(self, hook_name: str, event: Any, ctx: Any) -> Any:
        answer = await self._ask({"fire": hook_name, "event": event, "ctx": ctx})
        return answer["result"]

    async def responsive(self) -> bool:
        self._pings += 1
        return (await self._ask({"ping": self._pings})) == {"pong": self._pings}

    def said(self, text: str) -> bool:
        return any(text in line for line in self.stderr)

    def peak_memory_mib(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
        return int(line.split()[1]) // 1024

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()
        await self._reading


@pytest.fixture
async def gateway_like() -> AsyncIterator[Callable[..., Awaitable[GatewayLike]]]:
    started: list[GatewayLike] = []

    async def start(**config: Any) -> GatewayLike:
        process = await asyncio.create_subprocess_exec(
            *("node", str(HOST), str(BRIDGE / "index.js"), json.dumps(config)),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=256 * MIB,  # what an unbounded plugin passes on can be printed, and compared
        )
        host = GatewayLike(process)
        started.append(host)
        return host

    yield start
    for host in started:
        await host.stop()


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="plugin-", dir="/tmp"))  # AF_UNIX paths are short
    yield path
    shutil.rmtree(path, ignore_errors=True)


# ---- faults that took the Gateway down --------------------------------------------------------


async def test_a_missing_token_file_with_nothing_listening_leaves_the_gateway_up(
    gateway_like: Callable[..., Awaitable[GatewayLike]], closed_port: int, tmp_path: Path
) -> None:
    config = {"tcp": f"127.0.0.1:{closed_port}", "tokenFile": str(tmp_path / "missing")}
    host = await gateway_like(**config, noInspector="block")
    result = await host.fire("before_tool_call", *exec_call("ls"))
    assert result["block"] is True and "not answering" in result["blockReason"]
    assert await host.responsive()
    assert await host.responsive()
    assert host.process.returncode is None
    assert host.said("cannot reach hook-inspector") and host.said("missing")


async def test_a_fifo_token_file_is_refused_at_once(
    gateway_like: Callable[..., Awaitable[GatewayLike]], closed_port: int, tmp_path: Path
) -> None:
    fifo = tmp_path / "token"
    os.mkfifo(fifo)
    host = await gateway_like(tcp=f"127.0.0.1:{closed_port}", tokenFile=str(fifo))
    # Bounded only so that the old behaviour (blocked for good) fails instead of hanging.
    result = await asyncio.wait_for(host.fire("before_tool_call", *exec_call("ls")), 20)
    assert result is None
    assert await host.responsive()
    assert host.said("not a regular file")


class HostileInspector:
    """Welcomes the plugin on a Unix socket, then answers each deciding call with `answer(id)`:
    the bytes of one line, sent in pieces."""

    def __init__(self, answer: Callable[[int], bytes]) -> None:
        self.answer = answer
        self.hung_up = asyncio.Event()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()  # the greeting
        writer.write(wire.welcome(True))
        try:
            while line := await reader.readline():
                message = json.loads(line)
                if "id" not in message:
                    continue
                answer = self.answer(message["id"])
                for start in range(0, len(answer), MIB):
                    writer.write(answer[start : start + MIB])
                    await writer.drain()
        except ConnectionError:
            self.hung_up.set()
        finally:
            writer.close()


async def hostile(folder: Path, answer: Callable[[int], bytes]) -> tuple[Path, asyncio.Server]:
    path = folder / "relay.sock"
    server = await asyncio.start_unix_server(HostileInspector(answer).serve, path)
    os.chmod(path, 0o600)
    return path, server


async def test_a_huge_line_from_the_inspector_is_refused_and_memory_stays_bounded(
    gateway_like: Callable[..., Awaitable[GatewayLike]], folder: Path
) -> None:
    def huge(rpc_id: int) -> bytes:
        result = {"params": {"command": "x" * (63 * MIB)}}
        return json.dumps({"id": rpc_id, "result": result}).encode() + b"\n"

    path, server = await hostile(folder, huge)
    async with server:
        host = await gateway_like(socket=str(path))
        result = await host.fire("before_tool_call", *exec_call("ls"))
        assert await host.responsive()
    peak = host.peak_memory_mib()  # 59 MiB measured; 889 MiB before (read by concatenation)
    assert result is None  # the call goes on as asked, not with the 63 MiB params
    assert host.said("sent a line over 16 MiB")
    assert peak < 200


async def test_a_result_nested_too_deep_is_not_passed_on(
    gateway_like: Callable[..., Awaitable[GatewayLike]], folder: Path
) -> None:
    def deep(rpc_id: int) -> bytes:
        nested = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
        return b'{"id": %d, "result": {"params": ' % rpc_id + nested + b"}}\n"

    path, server = await hostile(folder, deep)
    async with server:
        host = await gateway_like(socket=str(path))
        result = await host.fire("before_tool_call", *exec_call("ls"))
        assert await host.responsive()
    assert result is None
    assert host.said("nested deeper than 64")


# ---- a socket path another user could swap ----------------------------------------------------


@as_root
async def test_a_socket_below_a_folder_another_user_owns_is_not_used(folder: Path) -> None:
    """Nobody owns a folder on the path: they could swap what is below it between the plugin's
    check and its connect. The inspector there is real and would answer; the plugin must not
    ask it."""
    theirs = folder / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, NOBODY, NOBODY)
    socket_path = theirs / "inspector" / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    async with inspector(engine, socket_path) as listening, gateway(socket_path) as live:
        result = await live.fire("before_tool_call", *exec_call("rm -rf /"))
        said = [record.line for record in live.journal.of_type(Stderr)]
        plugins = dict(listening.plugin_sessions)
    assert result is None and plugins == {}
    assert any(f"{theirs} belongs to uid {NOBODY}" in line for line in said), said


async def test_with_a_token_file_the_plugin_and_inspector_prove_themselves_on_a_unix_socket(
    folder: Path,
) -> None:
    (folder / "token").write_text("unix-token\n")
    socket_path = folder / "inspector" / "relay.sock"
    async with Engine(load_config(EXAMPLE)) as engine:
        listener = Listener(engine, socket_path=socket_path, token="unix-token")
        await listener.start()
        try:
            async with gateway(socket_path, tokenFile=str(folder / "token")) as live:
                await wait_for(lambda: bool(listener.plugin_sessions))
                result = await live.fire("before_tool_call", *exec_call("rm -rf /"))
        finally:
            await listener.close()
    assert result == {"block": True, "blockReason": "refusing to run: rm -rf /"}


async def test_a_peer_that_never_welcomes_is_left_and_calls_are_answered_by_the_plugin(
    gateway_like: Callable[..., Awaitable[GatewayLike]], folder: Path
) -> None:
    left = asyncio.Event()

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # reads the greeting, answers nothing, until the plugin hangs up
        left.set()
        writer.close()

    path = folder / "relay.sock"
    server = await asyncio.start_unix_server(silent, path)
    os.chmod(path, 0o600)
    async with server:
        host = await gateway_like(socket=str(path), noInspector="block")
        result = await host.fire("before_tool_call", *exec_call("ls"))
        await asyncio.wait_for(left.wait(), 20)  # bounded only so the old behaviour fails
    assert result["block"] is True
    assert host.said("no welcome within 1000 ms")
