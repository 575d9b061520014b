"""A same-user flood of descriptors (SCM_RIGHTS) sent with greetings must not use up the
inspector's descriptors: a real `hook-inspector serve`, flooded by 32 connections that each send
hundreds of descriptors and never finish their greeting, keeps its descriptor count bounded and
goes on answering an agent through the real relay."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from pathlib import Path

from tests.bridge.test_relay_lent_pipes import BEFORE_TOOL, agent, bounded
from tests.bridge.test_relay_lent_pipes import socket_path as socket_path  # a fixture
from tests.support.serve import TAGGER_CONFIG, serving
from tests.support.waiting import wait_for

CONNECTIONS = 32
MESSAGES = 200  # each with two descriptors: 12,800 in all, were each one kept


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def flood(socket_path: Path, sent: threading.Barrier) -> None:
    """One connection: a greeting begun, then message after message each carrying two
    descriptors, and never a newline."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(socket_path))
    read_end, write_end = os.pipe()
    try:
        socket.send_fds(sock, [b'{"hook_inspector_relay": 1, "stdin": true'], [read_end])
        for _ in range(MESSAGES):
            socket.send_fds(sock, [b" "], [read_end, write_end])
        sent.wait()  # held open until the inspector's descriptors are counted
        sent.wait()
    finally:
        os.close(read_end)
        os.close(write_end)
        sock.close()


@bounded
async def test_a_descriptor_flood_leaves_the_inspector_its_descriptors(
    socket_path: Path,
    tmp_path: Path,
) -> None:
    async with serving(socket_path, tmp_path, TAGGER_CONFIG) as serve:
        before = open_descriptors(serve.pid)
        sent = threading.Barrier(CONNECTIONS + 1)
        flooders = [
            threading.Thread(target=flood, args=(socket_path, sent), daemon=True)
            for _ in range(CONNECTIONS)
        ]
        for thread in flooders:
            thread.start()
        await asyncio.to_thread(sent.wait, 30)  # every descriptor sent
        during = open_descriptors(serve.pid)
        await asyncio.to_thread(sent.wait, 30)
        for thread in flooders:
            await asyncio.to_thread(thread.join, 30)
        async with agent(socket_path) as fake:
            await fake.wait_stderr("connected to hook-inspector", timeout_s=30)
            answer = await fake.call("hook.before_tool", BEFORE_TOOL)
        # and none left behind once the flood and the agent are gone
        await wait_for(lambda: open_descriptors(serve.pid) <= before, timeout=20)

    # the flood's sockets themselves (32) and a few descriptors each at most, never thousands
    assert during - before < CONNECTIONS * 3, (before, during)
    assert answer.result["call"]["arguments"]["tag"] == 1  # the hook answered, through serve
