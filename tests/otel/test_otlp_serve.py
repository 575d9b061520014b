"""`serve --otlp`: a live agent's calls, through its relay and the downstream hooks, arrive at
the collector as spans of the agent's turn."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.otel.serving import serving
from tests.otel.session_run import CONFIG
from tests.support.bridge_client import short_socket_path
from tests.support.fake_agent import FakeAgent
from tests.support.otlp_receiver import otlp_receiver

RELAY = [sys.executable, "-m", "inspector.relay.main", "--name", "pico"]
META = {"AgentID": "pico-agent", "TurnID": "live-turn-7", "SessionKey": "s"}
BEFORE_TOOL = {"meta": META, "tool": "exec", "arguments": {"command": "ls"}}


@pytest.fixture
def socket_path() -> Iterator[Path]:
    with short_socket_path() as path:
        yield path


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])  # SIGHUP: its terminal closed
async def test_a_relayed_turn_arrives_as_its_own_trace(
    socket_path: Path, stop: signal.Signals
) -> None:
    with otlp_receiver() as (url, received):
        async with serving(CONFIG, socket_path, url, stop) as stderr:
            agent = FakeAgent([*RELAY, "--socket", str(socket_path)])
            await agent.start()
            await agent.hello("inspector", ["tool", "approve"])
            called = await agent.call("hook.before_tool", BEFORE_TOOL)
            approved = await agent.call("hook.approve_tool", BEFORE_TOOL)
            await agent.close(wait_s=1.0)
    [said] = stderr
    assert called.result is not None and approved.result is not None
    assert f"span(s) sent to {url}/v1/traces" in said, said
    turn = [s for s in received.spans if s.name == "turn live-turn-7"]
    assert len(turn) == 1 and turn[0].resource["gen_ai.agent.name"] == "pico-agent"
    relayed = [
        s for s in received.spans if s.trace_id == turn[0].trace_id and "rpc.method" in s.attributes
    ]
    methods = {s.attributes["rpc.method"] for s in relayed}
    assert methods == {"hook.before_tool", "hook.approve_tool"}
    assert all(s.attributes["hook_inspector.source"].startswith("relay") for s in relayed)
