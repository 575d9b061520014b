"""A hook whose respawn fails comes back once it can; a crowd of idle connections cannot starve
the inspector of file descriptors, and the accept loop never prints a traceback.

The descriptors really run out here: the test lowers RLIMIT_NOFILE (of itself, or of a running
`hook-inspector serve`) and fills what is left."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import shutil
import signal
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from inspector.bridge.listener import MAX_UNGREETED, ListenOptions, listen_for_relays
from inspector.config.model import Defaults
from inspector.engine import Engine
from inspector.hosts.picoclaw.process import READY, ProcessHook
from inspector.journal.journal import Journal
from inspector.journal.records import Lifecycle
from inspector.relay import wire
from tests.support.fake_agent import FakeAgent
from tests.support.fds import needs_proc, open_fds
from tests.support.paths import SCRIPTED
from tests.support.scripted import config_of, scripted
from tests.support.waiting import wait_for

CALL = {"tool": "exec", "arguments": {"command": "ls"}}
RELAY = [sys.executable, "-m", "inspector.relay.main"]


@contextlib.contextmanager
def descriptors_used_up(spare: int = 32) -> Iterator[list[int]]:
    """Lower this process's RLIMIT_NOFILE to `spare` above the highest descriptor in use, then
    open /dev/null until the kernel says EMFILE. Yields the fillers; closing them gives the
    descriptors back, and the old limit comes back at the end."""
    limits = resource.getrlimit(resource.RLIMIT_NOFILE)
    highest = max(int(fd) for fd in open_fds())
    resource.setrlimit(resource.RLIMIT_NOFILE, (highest + spare, limits[1]))
    fillers: list[int] = []
    try:
        fill(fillers)
        yield fillers
    finally:
        for fd in fillers:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, limits)


def fill(fillers: list[int]) -> None:
    while True:
        try:
            fillers.append(os.open(os.devnull, os.O_RDONLY))
        except OSError:
            return


def states(journal: Journal, hook: str) -> list[Lifecycle]:
    return [r for r in journal.of_type(Lifecycle) if r.hook == hook]


@needs_proc
async def test_a_respawn_that_finds_no_descriptor_is_tried_again_until_it_works() -> None:
    spec = scripted("tools", {"before_tool": {"echo": "continue"}}, intercept=("before_tool",))
    hook = ProcessHook(spec, Journal(), Defaults(), restart=True)
    assert await hook.start()
    first_pid = hook.pid
    assert first_pid is not None
    try:
        with descriptors_used_up() as fillers:
            os.kill(first_pid, signal.SIGKILL)
            await wait_for(lambda: hook.state == "restarting")
            fill(fillers)  # what the dead process's pipes gave back
            await wait_for(
                lambda: [r.state for r in states(hook.journal, "tools")].count("failed") >= 2
            )
            while_dead = await hook.call("hook.before_tool", CALL, timeout_ms=5000, source="t")
        await wait_for(lambda: hook.running, timeout=30)
        answer = await hook.call("hook.before_tool", CALL, timeout_ms=5000, source="t")
    finally:
        await hook.stop()

    failed = [r.detail for r in states(hook.journal, "tools") if r.state == "failed"]
    assert all("Too many open files" in detail for detail in failed)
    waits = [
        float(re.fullmatch(r"in (\S+) s", r.detail)[1])  # type: ignore[index]
        for r in states(hook.journal, "tools")
        if r.state == "restarting"
    ]
    assert len(waits) >= 3 and waits == sorted(waits) and waits[0] < waits[-1]
    assert while_dead.status == "not_sent"
    assert answer.status == "ok" and hook.pid != first_pid


# ---- `hook-inspector serve` under a crowd of idle connections -------------------------------


@pytest.fixture
def socket_path() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="respawn-", dir="/tmp"))
    yield folder / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


class Serve:
    """`hook-inspector serve --json` as a child, its records and stderr read as they come."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.records: list[dict[str, Any]] = []
        self.stderr: list[str] = []
        self._readers = [
            asyncio.create_task(self._read_records()),
            asyncio.create_task(self._read_stderr()),
        ]

    def lifecycle(self, hook: str) -> list[dict[str, Any]]:
        return [r for r in self.records if r["type"] == "lifecycle" and r["hook"] == hook]

    def fd_count(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    async def stop(self) -> int:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.process.wait(), 30)
        await asyncio.gather(*self._readers)
        return code

    async def _read_records(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            self.records.append(json.loads(line))

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.stderr.append(line.decode(errors="replace"))


@pytest.fixture
async def serve(tmp_path: Path, socket_path: Path) -> AsyncIterator[Serve]:
    tools = {"before_tool": {"echo": "modify", "patch": {"arguments": {"checked": True}}}}
    hooks = {
        "tools": {
            "command": [sys.executable, str(SCRIPTED), json.dumps(tools)],
            "intercept": ["before_tool"],
        }
    }
    config = tmp_path / "hooks.yaml"
    config.write_text(yaml.safe_dump({"hooks": hooks}))
    process = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "inspector", "serve", str(config)],
        *["--socket", str(socket_path), "--json"],
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    running = Serve(process)
    try:
        await wait_for(lambda: any("listening on" in line for line in running.stderr), 30)
        yield running
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def idle_connections(path: Path, count: int) -> list[socket.socket]:
    """Connections that never greet. Past the listener's backlog a connect would block: those
    are given up."""
    crowd = []
    for _ in range(count):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect(str(path))
        except BlockingIOError:
            sock.close()
            continue
        crowd.append(sock)
    return crowd


@needs_proc
async def test_idle_connections_cannot_starve_the_hooks_and_print_no_traceback(
    serve: Serve, socket_path: Path
) -> None:
    await wait_for(lambda: any(r["state"] == READY for r in serve.lifecycle("tools")), 30)
    hook_pid = serve.lifecycle("tools")[-1]["pid"]
    baseline = serve.fd_count()
    hard = resource.prlimit(serve.process.pid, resource.RLIMIT_NOFILE)[1]
    resource.prlimit(serve.process.pid, resource.RLIMIT_NOFILE, (baseline + 64, hard))

    crowd = idle_connections(socket_path, 200)
    try:
        await wait_for(lambda: serve.fd_count() >= baseline + MAX_UNGREETED)
        os.kill(hook_pid, signal.SIGKILL)
        await wait_for(
            lambda: (
                [r["state"] for r in serve.lifecycle("tools")][-1:] == [READY]
                and serve.lifecycle("tools")[-1]["pid"] != hook_pid
            ),
            timeout=30,
        )
        assert serve.fd_count() < baseline + 64
        # the idle ones are hung up on by the inspector itself
        await wait_for(lambda: any(r["state"] == "refused" for r in serve.lifecycle("relay")))
    finally:
        for sock in crowd:
            sock.close()

    agent = FakeAgent([*RELAY, "--name", "agent", "--socket", str(socket_path)])
    await agent.start()
    try:
        await agent.wait_stderr("connected to hook-inspector", timeout_s=30)
        call = await agent.call("hook.before_tool", CALL)
    finally:
        await agent.close(wait_s=1.0)
    assert await serve.stop() == 0

    assert call.result["call"]["arguments"] == {"command": "ls", "checked": True}
    assert not [line for line in serve.stderr if "Traceback" in line or "Errno" in line]
    idle = [r for r in serve.lifecycle("relay") if r["state"] == "refused"]
    assert all("no greeting in time" in r["detail"] for r in idle)


# ---- the accept loop itself, out of descriptors ---------------------------------------------


@needs_proc
async def test_an_accept_without_a_descriptor_waits_and_is_said_once_never_a_traceback(
    socket_path: Path,
) -> None:
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    try:
        async with Engine(config_of()) as engine:
            listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.setblocking(False)
            try:
                with descriptors_used_up():
                    client.connect(str(socket_path))  # queued: the inspector cannot accept it
                    await wait_for(lambda: cannot_accept(engine) != [])
                reader, writer = await asyncio.open_unix_connection(sock=client)
                writer.write(wire.greeting("late", None, wire.DEFAULT_DEADLINES_MS))
                welcome = json.loads(await reader.readline())
                writer.close()
            finally:
                await listener.close()
    finally:
        loop.set_exception_handler(None)

    assert welcome == {"hook_inspector": wire.WIRE_VERSION, "ok": True}
    (said,) = cannot_accept(engine)
    assert "Too many open files" in said and "relays wait in the queue" in said
    assert reported == []


def cannot_accept(engine: Engine) -> list[str]:
    return [
        r.detail
        for r in engine.journal.of_type(Lifecycle)
        if r.state == "refused" and "cannot accept" in r.detail
    ]
