"""The OpenClaw bridge plugin and the inspector: the plugin runs in a real Node process (the
host-mode harness calls its handlers as the Gateway would) and talks to a real Listener over a
Unix socket. The real Gateway is in tests/real_agents/test_openclaw_*."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from inspector.bridge.listener import Listener
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.hooks.approvals import ALLOW_ONCE, DENY, Verdict
from inspector.hosts.load import load_config
from inspector.journal.records import Decision, Event, Exchange, Noise
from inspector.relay import wire
from tests.support.openclaw_bridge import PLUGINS, Gateway, exec_call, gateway, inspector
from tests.support.paths import EXAMPLES
from tests.support.waiting import wait_for

EXAMPLE = EXAMPLES / "openclaw"


def relayed(engine: Engine) -> list[Exchange]:
    return [r for r in engine.journal.of_type(Exchange) if r.hook == "openclaw"]


async def test_the_inspectors_plugin_blocks_a_live_tool_call(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    async with inspector(engine, socket), gateway(socket) as live:
        result = await live.fire("before_tool_call", *exec_call("rm -rf /"))
    assert result == {"block": True, "blockReason": "refusing to run: rm -rf /"}
    (call,) = relayed(engine)
    assert call.method == "before_tool_call" and call.action == "block"
    assert call.request["event"]["params"] == {"command": "rm -rf /"}
    assert call.response == {"id": call.rpc_id, "result": result}
    handlers = [r for r in engine.journal.of_type(Exchange) if r.hook.startswith("tool-guard#")]
    assert handlers and handlers[0].request["event"]["toolName"] == "exec"
    (decision,) = engine.journal.of_type(Decision)
    assert decision.verdict == "block" and decision.tool == "exec"


async def test_params_the_inspectors_plugin_rewrites_go_back(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    event, ctx = exec_call("curl example.org")
    event["params"]["api_key"] = "sk-123"
    async with inspector(engine, socket), gateway(socket) as live:
        result = await live.fire("before_tool_call", event, ctx)
    assert result == {"params": {"api_key": "[redacted]"}}
    assert relayed(engine)[0].action == "modify"


async def test_an_ordinary_call_gets_no_decision(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    async with inspector(engine, socket), gateway(socket) as live:
        assert await live.fire("before_tool_call", *exec_call("ls")) is None
    assert relayed(engine)[0].action == "continue"


async def test_observed_hooks_are_events_with_functions_and_signals_left_out(
    tmp_path: Path,
) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    event = {"toolName": "exec", "params": {"command": "ls"}, "result": {"content": "a b"}}
    async with inspector(engine, socket), gateway(socket) as live:
        await live.fire("before_tool_call", *exec_call("ls"))  # connected and welcomed
        assert await live.fire("after_tool_call", event, {"agentId": "main"}) is None
        await wait_for(
            lambda: any(e.kind == "after_tool_call" for e in engine.journal.of_type(Event))
        )
    (seen,) = [e for e in engine.journal.of_type(Event) if e.kind == "after_tool_call"]
    assert seen.payload == {"event": event, "ctx": {"agentId": "main"}}
    assert seen.source == "relay:openclaw" and seen.host == "openclaw"


async def connected(live: Gateway, engine: Engine) -> None:
    """Call until the plugin has connected: it tries at most once a second, and answers by
    itself until then."""
    deadline = time.monotonic() + 5
    while not relayed(engine):
        assert time.monotonic() < deadline, "the plugin never connected"
        await live.fire("before_tool_call", *exec_call("ls -l"))
        await asyncio.sleep(0.05)


async def test_with_no_inspector_the_plugin_answers_as_configured_and_keeps_the_calls(
    tmp_path: Path,
) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    async with gateway(socket, noInspector="block") as live:
        result = await live.fire("before_tool_call", *exec_call("ls"))
        assert result == {
            "block": True,
            "blockReason": "hook-inspector is not answering (noInspector: block)",
        }
        async with inspector(engine, socket):
            await connected(live, engine)
    kept = [e for e in engine.journal.of_type(Event) if e.kind == "before_tool_call"]
    assert kept[0].payload["answered"] == result
    assert kept[0].payload["event"]["params"] == {"command": "ls"}
    assert [f.code for f in kept[0].findings] == ["openclaw-fired-without-inspector"]
    assert kept[-1].seq < relayed(engine)[0].seq  # the backlog went first


async def test_the_plugin_keeps_the_last_thousand_calls(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    async with gateway(socket) as live:
        for number in range(1005):
            await live.fire("after_tool_call", {"toolName": "exec", "number": number}, {})
        async with inspector(engine, socket):
            await connected(live, engine)
    kept = [e for e in engine.journal.of_type(Event) if e.findings]
    assert len(kept) == 1000
    numbers = [e.payload["event"]["number"] for e in kept if e.kind == "after_tool_call"]
    assert numbers == list(range(1005 - len(numbers), 1005))


@pytest.mark.parametrize(
    ("verdict", "result"),
    [
        (Verdict(ALLOW_ONCE), None),
        (Verdict(DENY, "not today"), {"block": True, "blockReason": "Denied by user"}),
    ],
)
async def test_a_person_answers_the_inspectors_require_approval_within_the_deadline(
    tmp_path: Path, verdict: Verdict, result: object
) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(PLUGINS / "approver"))
    async with inspector(engine, socket), gateway(socket, timeoutMs=30_000) as live:
        asking = asyncio.create_task(live.fire("before_tool_call", *exec_call("make deploy")))
        await wait_for(lambda: bool(engine.approvals.pending))
        (prompt,) = engine.approvals.pending
        assert (prompt.tool, prompt.arguments) == ("exec", {"command": "make deploy"})
        assert prompt.timeout_s < 30  # the Gateway's deadline, not requireApproval's 120 s
        engine.approvals.decide(prompt.id, verdict)
        assert await asking == result
    assert relayed(engine)[0].action == ("continue" if result is None else "block")


async def test_with_nobody_at_the_inspector_the_gateway_gets_the_require_approval(
    tmp_path: Path,
) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(PLUGINS / "approver"))
    engine.approvals.unattended = True
    async with inspector(engine, socket), gateway(socket) as live:
        result = await live.fire("before_tool_call", *exec_call("make deploy"))
    assert result == {"requireApproval": {"title": "Run exec?", "description": "from the tests"}}
    assert relayed(engine)[0].action == "approval"


async def test_a_held_call_goes_on_with_the_params_a_person_edited(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    engine.set_intercept("method:before_tool_call")
    async with inspector(engine, socket), gateway(socket) as live:
        calling = asyncio.create_task(live.fire("before_tool_call", *exec_call("rm -rf build")))
        await wait_for(lambda: bool(engine.held))
        (held,) = engine.held
        edited = held.params | {"event": held.params["event"] | {"params": {"command": "ls"}}}
        assert engine.forward(held.seq, edited)
        assert await calling == {"params": {"command": "ls"}}
    (call,) = relayed(engine)
    assert call.edited and call.request["event"]["params"] == {"command": "ls"}
    assert call.action == "modify"


async def test_a_held_call_that_is_dropped_gets_no_decision(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    engine.set_intercept("method:before_tool_call")
    async with inspector(engine, socket), gateway(socket) as live:
        calling = asyncio.create_task(live.fire("before_tool_call", *exec_call("rm -rf /")))
        await wait_for(lambda: bool(engine.held))
        assert engine.drop(engine.held[0].seq)
        assert await calling is None


async def test_an_inspector_with_no_openclaw_plugin_says_so(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(Config(hooks=()))
    async with inspector(engine, socket), gateway(socket) as live:
        assert await live.fire("before_tool_call", *exec_call("ls")) is None
    (call,) = relayed(engine)
    assert [f.code for f in call.findings] == ["relay-no-hooks"]


async def test_the_plugin_reaches_an_inspector_on_tcp_with_its_token(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("s3cret\n")
    engine = Engine(load_config(EXAMPLE))
    async with engine:
        listener = Listener(engine, tcp=("127.0.0.1", 0), token="s3cret")
        await listener.start()
        try:
            where = {"tcp": listener.address, "tokenFile": str(token_file)}
            async with gateway(tmp_path / "unused.sock", **where) as live:
                result = await live.fire("before_tool_call", *exec_call("rm -rf /"))
        finally:
            await listener.close()
    assert result == {"block": True, "blockReason": "refusing to run: rm -rf /"}
    assert relayed(engine)[0].source == "relay:openclaw"


async def test_a_wrong_token_is_refused_and_the_plugin_answers_by_itself(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("not it\n")
    engine = Engine(load_config(EXAMPLE))
    async with engine:
        listener = Listener(engine, tcp=("127.0.0.1", 0), token="s3cret")
        await listener.start()
        try:
            where = {"tcp": listener.address, "tokenFile": str(token_file), "noInspector": "block"}
            async with gateway(tmp_path / "unused.sock", **where) as live:
                result = await live.fire("before_tool_call", *exec_call("ls"))
        finally:
            await listener.close()
    assert result["block"] is True and "not answering" in result["blockReason"]
    assert relayed(engine) == []


async def test_a_held_message_goes_out_with_the_content_a_person_edited(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    engine.set_intercept("method:message_sending")
    event = {"to": "telegram:42", "content": "the password is hunter2", "metadata": {}}
    async with inspector(engine, socket), gateway(socket) as live:
        handler = live.handler("message_sending", "full")  # a Gateway hook: full mode
        sending = asyncio.create_task(
            live.harness.call(handler.index, event, {"channelId": "telegram"}, 10_000)
        )
        await wait_for(lambda: bool(engine.held))
        (held,) = engine.held
        edited = {**held.params, "event": {**event, "content": "the password is [redacted]"}}
        assert engine.forward(held.seq, edited)
        reply = await sending
    assert reply.message["result"] == {"content": "the password is [redacted]"}
    assert relayed(engine)[0].action == "modify"


async def test_a_line_nested_deeper_than_json_goes_is_noise_and_the_plugin_is_still_served(
    tmp_path: Path,
) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(EXAMPLE))
    greeting = {"hook_inspector_relay": wire.WIRE_VERSION, "name": "openclaw", "pid": 1}
    event, ctx = exec_call("rm -rf /")
    call = {"id": 1, "hook": "before_tool_call", "event": event, "ctx": ctx, "timeout_ms": 5000}
    async with inspector(engine, socket):
        reader, writer = await asyncio.open_unix_connection(str(socket))
        writer.write(json.dumps({**greeting, "plugin": {"host": "openclaw"}}).encode() + b"\n")
        assert json.loads(await reader.readline())["ok"] is True
        writer.write(b"[" * 20_000 + b"]" * 20_000 + b"\n")  # deeper than json goes
        writer.write(json.dumps(call).encode() + b"\n")
        answer = json.loads(await reader.readline())
        writer.close()
    assert answer == {
        "id": 1,
        "result": {"block": True, "blockReason": "refusing to run: rm -rf /"},
    }
    (noise,) = engine.journal.of_type(Noise)
    assert [f.code for f in noise.findings] == ["relay-not-json"]
