"""Bridge mode, the inspector's side: a live agent (the fake PicoClaw host) runs the real relay,
the relay reaches a running inspector, and the inspector answers through real hook processes."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from inspector.bridge.listener import (
    Listener,
    ListenError,
    ListenOptions,
    listen_for_relays,
    parse_listen,
    reach_beyond_loopback,
)
from inspector.config.model import HookSpec, TimeoutBehaviour
from inspector.engine import Engine
from inspector.hooks.approvals import Verdict
from inspector.hosts.picoclaw.results import ApprovalResult, StageResult
from inspector.journal.records import (
    STATUS_CANCELLED,
    STATUS_DROPPED,
    STATUS_HELD,
    Decision,
    Event,
    Exchange,
    Lifecycle,
    Noise,
)
from inspector.jsonrpc.stages import METHOD_FOR_STAGE, RESULT_KEY
from inspector.relay import wire
from tests.support.fake_agent import FakeAgent, go_json
from tests.support.paths import SCRIPTED
from tests.support.relay_proof import relay_proof
from tests.support.scripted import config_of, scripted
from tests.support.waiting import wait_for

# PicoClaw always writes every HookMeta field (it has no omitempty)
META = {
    "AgentID": "main",
    "TurnID": "turn-1",
    "ParentTurnID": "",
    "SessionKey": "agent:main:main",
    "Iteration": 1,
    "TracePath": "",
    "Source": "",
}
TOOL_RESULT = {"for_llm": "ok", "silent": False, "is_error": False, "async": False}
PARAMS: dict[str, dict[str, Any]] = {
    "before_llm": {
        "meta": META,
        "model": "m1",
        "messages": [{"role": "system", "content": "be nice"}, {"role": "user", "content": "hi"}],
        "options": {"max_tokens": 100},
    },
    "after_llm": {
        "meta": META,
        "model": "m1",
        "response": {"content": "hello", "finish_reason": "stop"},
    },
    "before_tool": {"meta": META, "tool": "exec", "arguments": {"command": "ls"}},
    "approve_tool": {"meta": META, "tool": "exec", "arguments": {"command": "ls"}},
    "after_tool": {
        "meta": META,
        "tool": "exec",
        "arguments": {"command": "ls"},
        "result": TOOL_RESULT,
        "duration": 1000,
    },
}
MODES = ["observe", "llm", "tool", "approve"]
NOBODY = 65534  # the conventional uid and gid of nobody
RELAY = [sys.executable, "-m", "inspector.relay.main"]

StartAgent = Callable[..., Awaitable[FakeAgent]]


def bounded(seconds: float) -> Callable[[Callable[..., Awaitable[None]]], Any]:
    """Fail a test that runs longer than `seconds` instead of hanging the suite."""

    def decorate(test: Callable[..., Awaitable[None]]) -> Any:
        @functools.wraps(test)
        async def run(*args: Any, **kwargs: Any) -> None:
            await asyncio.wait_for(test(*args, **kwargs), seconds)

        return run

    return decorate


@pytest.fixture
def socket_path() -> Iterator[Path]:
    # Unix socket paths are limited to ~100 bytes: pytest's tmp_path can be too long.
    folder = Path(tempfile.mkdtemp(prefix="bridge-", dir="/tmp"))
    yield folder / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
async def agents(socket_path: Path) -> AsyncIterator[StartAgent]:
    """Start fake agents whose process hook is the real relay, connected to `socket_path`."""
    started: list[FakeAgent] = []

    async def start(name: str = "agent", **deadlines_ms: int) -> FakeAgent:
        flags = [f"--{kind}-timeout-ms={ms}" for kind, ms in deadlines_ms.items()]
        command = [*RELAY, "--name", name, "--socket", str(socket_path), *flags]
        agent = FakeAgent(command, deadlines_ms=deadlines_ms)
        await agent.start()
        started.append(agent)
        await agent.wait_stderr("connected to hook-inspector")
        return agent

    yield start
    for agent in started:
        if agent.returncode is None:
            await agent.close(wait_s=1.0)


@asynccontextmanager
async def running_inspector(
    *specs: HookSpec, socket_path: Path
) -> AsyncIterator[tuple[Engine, Listener]]:
    """A running inspector: an engine on `specs` and its listener."""
    async with Engine(config_of(*specs)) as engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        try:
            yield engine, listener
        finally:
            await listener.close()


class StandIn:
    """A relay reduced to the wire, for what the real one never sends: it greets as told, then
    plays the agent's side line by line."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.welcome: dict[str, Any] = {}

    @classmethod
    async def connect(
        cls,
        *,
        path: Path | None = None,
        port: int = 0,
        name: str = "stand-in",
        token: str | None = None,
        deadlines_ms: dict[str, int] | None = None,
        greeting: bytes | None = None,
    ) -> StandIn:
        if path is not None:
            reader, writer = await asyncio.open_unix_connection(path, limit=1 << 24)
        else:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24)
        stand_in = cls(reader, writer)
        deadlines = {**wire.DEFAULT_DEADLINES_MS, **(deadlines_ms or {})}
        proof = await relay_proof(reader, writer, token) if token is not None else None
        writer.write(greeting or wire.greeting(name, proof, deadlines))
        stand_in.welcome = json.loads(await reader.readline())
        return stand_in

    def send(self, line: bytes) -> None:
        self.writer.write(line)

    def request(self, rpc_id: int, method: str, params: Any) -> bytes:
        line = go_json({"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params})
        self.send(line)
        return line

    async def answer(self) -> dict[str, Any]:
        line = await self.reader.readline()
        assert line, "the inspector closed the connection"
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def hung_up(stand_in: StandIn) -> bool:
    """The inspector closed the connection (a reset when it left our greeting unread)."""
    try:
        return await stand_in.reader.read() == b""
    except ConnectionResetError:
        return True


def relay_exchanges(engine: Engine, label: str) -> list[Exchange]:
    return [e for e in engine.journal.exchanges() if e.hook == label]


def lifecycle(engine: Engine, hook: str) -> list[tuple[str, str]]:
    return [(r.state, r.detail) for r in engine.journal.of_type(Lifecycle) if r.hook == hook]


# ---- the same answers as the hooks themselves -------------------------------------------------


def as_the_host_reads(stage: str, sent: dict[str, Any], result: dict[str, Any]) -> tuple[str, Any]:
    """What PicoClaw takes from one hook's answer (reference §4)."""
    if stage == "approve_tool":
        return ("approved" if result.get("approved") is True else "denied", result.get("reason"))
    action = result.get("action") or "continue"
    if action in ("continue", "modify"):
        return "continue", result.get(RESULT_KEY[stage], sent)
    if action == "respond":
        return "respond", result["result"]
    return action, result.get("reason")


def as_the_pipeline_decided(outcome: StageResult | ApprovalResult) -> tuple[str, Any]:
    if isinstance(outcome, ApprovalResult):
        return ("approved" if outcome.approved else "denied", outcome.reason)
    if outcome.action == "respond" and outcome.hook_result is not None:
        return "respond", outcome.hook_result
    if outcome.action in ("deny_tool", "abort_turn", "hard_abort"):
        return outcome.action, outcome.reason
    return "continue", outcome.value


CHAINS = {
    "modify": (
        scripted(
            "llm",
            {
                "before_llm": {"echo": "modify", "patch": {"model": "m2"}},
                "after_llm": {"echo": "continue", "patch": {"response": {"content": "edited"}}},
            },
            intercept=("before_llm",),
        ),
        scripted(
            "redactor",
            {
                "before_tool": {"echo": "modify", "patch": {"arguments": {"command": "ls -a"}}},
                "after_tool": {"echo": "modify", "patch": {"result": {"for_llm": "[redacted]"}}},
            },
            intercept=("before_tool",),
            priority=10,
        ),
        scripted(
            "tagger",
            {"before_tool": {"echo": "continue", "patch": {"arguments": {"tag": 1}}}},
            intercept=("before_tool",),
            priority=20,
        ),
        scripted(
            "gate",
            {"approve_tool": {"result": {"approved": False, "reason": "not today"}}},
            intercept=("approve_tool",),
        ),
    ),
    "stops": (
        scripted(
            "llm",
            {
                "before_llm": {"result": {"action": "hard_abort", "reason": "stop here"}},
                "after_llm": {"result": {"action": "abort_turn", "reason": "bad output"}},
            },
            intercept=("after_llm",),
        ),
        scripted(
            "weather",
            {
                "before_tool": {"result": {"action": "respond", "result": TOOL_RESULT}},
                "after_tool": {"result": {"action": "respond"}},  # not accepted there: discarded
            },
            intercept=("before_tool",),
        ),
        scripted("first", intercept=("approve_tool",)),
        scripted("second", intercept=("approve_tool",), priority=5),
    ),
    "deny": (
        scripted(
            "guard",
            {"before_tool": {"result": {"action": "deny_tool", "reason": "no shell"}}},
            intercept=("before_tool",),
        ),
    ),
}


@pytest.mark.parametrize("chain", sorted(CHAINS))
@bounded(60)
async def test_the_agent_gets_what_the_hooks_would_give_it(
    chain: str, socket_path: Path, agents: StartAgent
) -> None:
    specs = CHAINS[chain]
    async with Engine(config_of(*specs)) as plain:
        expected = {
            stage: as_the_pipeline_decided(
                await plain.send_through_pipeline(METHOD_FOR_STAGE[stage], params)
            )
            for stage, params in PARAMS.items()
        }
    async with running_inspector(*specs, socket_path=socket_path) as (engine, _listener):
        agent = await agents("picoclaw")
        await agent.hello("inspector", MODES)
        calls = {
            stage: await agent.call(METHOD_FOR_STAGE[stage], params)
            for stage, params in PARAMS.items()
        }

    for stage, call in calls.items():
        assert call.outcome == "answered", stage
        assert as_the_host_reads(stage, PARAMS[stage], call.result) == expected[stage], stage
    hello, *relayed = relay_exchanges(engine, "picoclaw")
    assert hello.response is not None and hello.response["result"]["ok"] is True
    for exchange, call in zip(relayed, calls.values(), strict=True):
        assert exchange.source == "relay:picoclaw"
        assert exchange.method == call.method and exchange.rpc_id == call.id
        assert exchange.raw_request is not None and exchange.raw_response is not None
        assert (exchange.raw_request + "\n").encode() == call.request
        assert (exchange.raw_response + "\n").encode() == call.answer
        assert exchange.request == json.loads(call.request)
        assert exchange.status == "ok" and exchange.duration_ms is not None
    assert agent.late == [] and agent.ignored == []


@bounded(30)
async def test_runtime_events_reach_the_observers_and_the_journal(
    socket_path: Path, agents: StartAgent, tmp_path: Path
) -> None:
    record = tmp_path / "observer.jsonl"
    observer = scripted("logger", observe=("*",), env={"HOOK_RECORD": str(record)})
    async with running_inspector(observer, socket_path=socket_path) as (engine, _listener):
        agent = await agents("picoclaw")
        event = {"id": "evt-1", "kind": "agent.turn.start", "payload": {"UserMessage": "hi"}}
        await agent.notify("hook.runtime_event", event)
        await wait_for(lambda: any(e.delivered for e in engine.journal.of_type(Event)))

    (journaled,) = engine.journal.of_type(Event)
    assert (journaled.kind, journaled.source, journaled.payload) == (
        "agent.turn.start",
        "relay:picoclaw",
        event,
    )
    assert journaled.delivered == ["logger"]
    received = [json.loads(line) for line in record.read_text().splitlines()]
    assert received[-1] == {"jsonrpc": "2.0", "method": "hook.runtime_event", "params": event}


# ---- intercept ---------------------------------------------------------------------------


@bounded(30)
async def test_a_held_request_is_forwarded_edited_or_dropped_by_hand(
    socket_path: Path, agents: StartAgent
) -> None:
    tools = scripted("tools", {"before_tool": {"echo": "modify"}}, intercept=("before_tool",))
    async with running_inspector(tools, socket_path=socket_path) as (engine, listener):
        engine.set_intercept_predicate(lambda exchange: exchange.hook == "tools")
        agent = await agents("picoclaw")

        edited_call = asyncio.create_task(agent.call("hook.before_tool", PARAMS["before_tool"]))
        await wait_for(lambda: len(engine.held) == 1)
        (held,) = engine.held
        assert held.exchange.status == STATUS_HELD and held.exchange.source == "relay:picoclaw"
        left = listener.time_left(held.seq)
        assert left is not None and 4.0 < left < 5.0
        assert [f.code for f in held.exchange.findings] == ["held-at-hook", "agent-deadline"]
        assert held.exchange.deadline is not None and held.exchange.deadline > time.time()
        edited = {**PARAMS["before_tool"], "arguments": {"command": "pwd"}}
        assert engine.forward(held.seq, edited)
        assert (await edited_call).result == {"action": "modify", "call": edited}

        dropped_call = asyncio.create_task(agent.call("hook.before_tool", PARAMS["before_tool"]))
        await wait_for(lambda: len(engine.held) == 1)
        assert engine.drop(engine.held[0].seq)
        # the hook never saw it: PicoClaw skips a hook that does not answer; nothing changed, so
        # the object is not sent back
        assert (await dropped_call).result == {"action": "continue"}


@bounded(30)
async def test_a_relayed_call_held_at_the_stage_is_what_every_hook_and_the_agent_get(
    socket_path: Path, agents: StartAgent
) -> None:
    tools = scripted("tools", {"before_tool": {"echo": "continue"}}, intercept=("before_tool",))
    async with running_inspector(tools, socket_path=socket_path) as (engine, _listener):
        engine.set_intercept("tool:exec")  # no @hook: held at the stage's entry
        agent = await agents("picoclaw")
        call = asyncio.create_task(agent.call("hook.before_tool", PARAMS["before_tool"]))
        await wait_for(lambda: len(engine.held) == 1)
        (held,) = engine.held
        assert held.exchange.stage_entry and held.exchange.hook == ""
        assert [f.code for f in held.exchange.findings] == ["held-at-stage", "agent-deadline"]
        assert not [e for e in engine.journal.exchanges() if e.hook == "tools" and e.turn]
        edited = {**PARAMS["before_tool"], "arguments": {"command": "pwd"}}
        assert engine.forward(held.seq, edited)
        # tools answered continue, yet the agent gets the edit: it was made before the chain
        assert (await call).result == {"action": "modify", "call": edited}
        (sent,) = [e for e in engine.journal.exchanges() if e.hook == "tools" and e.turn]
        assert sent.params == edited

        dropped = asyncio.create_task(agent.call("hook.before_tool", PARAMS["before_tool"]))
        await wait_for(lambda: len(engine.held) == 1)
        assert engine.drop(engine.held[0].seq)
        answer = (await dropped).result
        assert answer is not None and answer["action"] == "deny_tool"


@bounded(30)
async def test_a_request_held_past_the_agents_deadline_is_dropped_with_the_fallback(
    socket_path: Path, agents: StartAgent
) -> None:
    tools = scripted("tools", {"before_tool": {"echo": "modify"}}, intercept=("before_tool",))
    async with running_inspector(tools, socket_path=socket_path) as (engine, _listener):
        engine.set_intercept_predicate(lambda exchange: exchange.hook == "tools")
        agent = await agents("picoclaw", interceptor=1000)
        call = await agent.call("hook.before_tool", PARAMS["before_tool"])

    assert call.outcome == "answered" and call.latency_s is not None
    assert call.latency_s < wire.answer_by_ms(1000) / 1000  # before the relay gives up
    assert call.result == {"action": "continue"}
    (held,) = [
        e for e in engine.journal.exchanges() if e.source == "relay:picoclaw" and e.hook == "tools"
    ]
    assert held.status == STATUS_DROPPED and "deadline passed" in (held.error or "")
    (relayed,) = [e for e in relay_exchanges(engine, "picoclaw") if e.method == "hook.before_tool"]
    assert relayed.status == "ok" and [f.code for f in relayed.findings] == ["agent-deadline"]
    assert any(d.by == "deadline" for d in engine.journal.of_type(Decision))
    assert agent.late == [] and not any("late" in line for line in agent.stderr_lines)


# ---- the human ---------------------------------------------------------------------------


def human(on_timeout: TimeoutBehaviour = "deny") -> HookSpec:
    return HookSpec(
        name="reviewer", kind="manual", intercept=("approve_tool",), on_timeout=on_timeout
    )


@bounded(30)
async def test_a_human_approves_and_denies_a_live_agents_tool_call(
    socket_path: Path, agents: StartAgent
) -> None:
    async with running_inspector(human(), socket_path=socket_path) as (engine, _listener):
        agent = await agents("picoclaw", approval=20_000)

        approved = asyncio.create_task(agent.call("hook.approve_tool", PARAMS["approve_tool"]))
        await wait_for(lambda: len(engine.approvals.pending) == 1)
        (prompt,) = engine.approvals.pending
        # the countdown ends before the agent's deadline, not at the hook's own 60 s
        assert 18.0 < prompt.timeout_s < 20.0 and prompt.session_key == "agent:main:main"
        engine.approvals.decide(prompt.id, Verdict("allow_once"))
        assert (await approved).result == {"approved": True, "reason": ""}  # as PicoClaw's chain

        denied = asyncio.create_task(agent.call("hook.approve_tool", PARAMS["approve_tool"]))
        await wait_for(lambda: len(engine.approvals.pending) == 1)
        engine.approvals.decide(engine.approvals.pending[0].id, Verdict("deny", reason="no ls"))
        assert (await denied).result == {"approved": False, "reason": "no ls"}


@bounded(30)
async def test_a_hooks_reading_is_on_record_before_the_next_hook_is_asked(
    socket_path: Path, agents: StartAgent
) -> None:
    first = scripted(
        "first",
        {"approve_tool": {"result": {"approved": True, "extra": 1}}},
        intercept=("approve_tool",),
    )
    async with running_inspector(first, human(), socket_path=socket_path) as (engine, _):
        agent = await agents("picoclaw", approval=20_000)
        call = asyncio.create_task(agent.call("hook.approve_tool", PARAMS["approve_tool"]))
        await wait_for(lambda: len(engine.approvals.pending) == 1)
        # the relayed call's answer is not out yet, and the person deciding sees the first
        # hook's reading already (its bookkeeping waits for the answer only at the chain's end)
        (asked,) = [
            e
            for e in engine.journal.exchanges()
            if e.method == "hook.approve_tool" and e.hook == "first"
        ]
        assert asked.action == "approved"
        assert [f.code for f in asked.findings] == ["unknown-key"]
        engine.approvals.decide(engine.approvals.pending[0].id, Verdict("allow_once"))
        assert (await call).result == {"approved": True, "reason": ""}
    decisions = [d for d in engine.journal.of_type(Decision) if d.source == "relay:picoclaw"]
    assert [(d.verdict, d.by) for d in decisions] == [("allow_once", "human"), ("approved", "")]


@pytest.mark.parametrize("on_timeout", ["deny", "allow"])
@bounded(30)
async def test_an_unanswered_prompt_ends_before_the_agents_deadline(
    on_timeout: TimeoutBehaviour, socket_path: Path, agents: StartAgent
) -> None:
    async with running_inspector(human(on_timeout), socket_path=socket_path) as (engine, _listener):
        agent = await agents("picoclaw", approval=1500)
        call = await agent.call("hook.approve_tool", PARAMS["approve_tool"])

    assert call.outcome == "answered" and call.latency_s is not None
    assert 1.0 < call.latency_s < wire.answer_by_ms(1500) / 1000
    assert call.result["approved"] is (on_timeout == "allow")
    if on_timeout == "deny":
        reason = call.result["reason"]
        assert re.fullmatch(r"no decision within 1\.[12]\d* s \(on_timeout: deny\)", reason)
    (prompted,) = [e for e in engine.journal.exchanges() if e.hook == "reviewer"]
    assert [f.code for f in prompted.findings] == ["agent-deadline"]
    assert engine.approvals.pending == []


# ---- slow hooks --------------------------------------------------------------------------


@bounded(30)
async def test_hooks_too_slow_for_the_agent_give_the_fallback_in_time(
    socket_path: Path, agents: StartAgent
) -> None:
    both = ("before_tool", "approve_tool")
    slow = {"delay_ms": 3000}
    redactor = {"before_tool": {"echo": "modify", "patch": {"arguments": {"x": 1}}}}
    specs = (
        scripted("redactor", redactor, intercept=both),
        scripted("slow", {"before_tool": slow, "approve_tool": slow}, intercept=both, priority=10),
    )
    async with running_inspector(*specs, socket_path=socket_path) as (engine, _listener):
        agent = await agents("picoclaw", interceptor=1000, approval=1200)
        tool, approval = await asyncio.gather(
            agent.call("hook.before_tool", PARAMS["before_tool"]),
            agent.call("hook.approve_tool", PARAMS["approve_tool"]),
        )

    assert tool.latency_s is not None and tool.latency_s < wire.answer_by_ms(1000) / 1000
    assert approval.latency_s is not None and approval.latency_s < wire.answer_by_ms(1200) / 1000
    # the fast hook's change stands, as it would with both hooks in PicoClaw; the slow one is
    # skipped (fail open) and its approval denied (fail closed), saying why
    arguments = {"command": "ls", "x": 1}
    assert tool.result == {
        "action": "modify",
        "call": {**PARAMS["before_tool"], "arguments": arguments},
    }
    assert approval.result["approved"] is False
    assert approval.result["reason"] == 'tool approval hook "slow" timed out'  # as PicoClaw says
    cut = [e for e in engine.journal.exchanges() if e.hook == "slow" and e.method != "hook.hello"]
    assert {e.status for e in cut} == {"timeout"}
    assert all([f.code for f in e.findings] == ["agent-deadline"] for e in cut)
    assert agent.late == []


# ---- several agents, and endings ---------------------------------------------------------


@bounded(30)
async def test_two_agents_at_once_are_labelled_apart(socket_path: Path, agents: StartAgent) -> None:
    tools = scripted("tools", {"before_tool": {"echo": "continue"}}, intercept=("before_tool",))
    async with running_inspector(tools, human(), socket_path=socket_path) as (engine, listener):
        first, second = await agents("picoclaw"), await agents("picoclaw")
        assert sorted(listener.sessions) == ["picoclaw", "picoclaw#2"]
        waiting = asyncio.create_task(second.call("hook.approve_tool", PARAMS["approve_tool"]))
        await wait_for(lambda: len(engine.approvals.pending) == 1)
        # the first agent is not held up by the second one's pending approval
        tool = await first.call("hook.before_tool", PARAMS["before_tool"])
        assert tool.result == {"action": "continue"}  # an echo changes nothing
        engine.approvals.decide(engine.approvals.pending[0].id, Verdict("allow_once"))
        assert (await waiting).result["approved"] is True

    by_source = {e.source for e in engine.journal.exchanges() if e.source.startswith("relay:")}
    assert by_source == {"relay:picoclaw", "relay:picoclaw#2"}
    assert [e.method for e in relay_exchanges(engine, "picoclaw")] == ["hook.before_tool"]
    assert [e.method for e in relay_exchanges(engine, "picoclaw#2")] == ["hook.approve_tool"]
    for label in ("picoclaw", "picoclaw#2"):
        assert [state for state, _ in lifecycle(engine, label)] == ["connected", "disconnected"]


@bounded(30)
async def test_the_inspector_stopping_mid_call_still_answers_the_agent(
    socket_path: Path, agents: StartAgent
) -> None:
    never = scripted("stuck", {"approve_tool": {"never": True}}, intercept=("approve_tool",))
    async with Engine(config_of(never)) as engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        agent = await agents("picoclaw")
        call = asyncio.create_task(agent.call("hook.approve_tool", PARAMS["approve_tool"]))
        await wait_for(
            lambda: any(
                e.source == "relay:picoclaw"
                for e in engine.journal.exchanges()
                if e.hook == "stuck"
            )
        )
        await listener.close()
        answered = await call

    assert answered.outcome == "answered" and answered.latency_s is not None
    assert answered.latency_s < 5.0
    assert answered.result == {
        "approved": False,
        "reason": "hook-inspector stopped before its hooks answered",
    }
    assert lifecycle(engine, "picoclaw")[-1] == (
        "disconnected",
        "the inspector stopped; 1 pending call(s) got the fallback",
    )
    stopped = next(
        e for e in relay_exchanges(engine, "picoclaw") if e.method == "hook.approve_tool"
    )
    assert [f.code for f in stopped.findings] == ["inspector-stopped"]
    assert not socket_path.exists()


@bounded(30)
async def test_a_lone_surrogate_in_an_answer_reaches_the_agent_as_go_reads_it(
    socket_path: Path,
) -> None:
    patch = {"arguments": {"command": "a\ud800b"}}
    tools = scripted(
        "tools", {"before_tool": {"echo": "modify", "patch": patch}}, intercept=("before_tool",)
    )
    async with running_inspector(tools, socket_path=socket_path) as (_engine, _listener):
        stand_in = await StandIn.connect(path=socket_path, name="agent")
        stand_in.request(1, "hook.before_tool", PARAMS["before_tool"])
        first = await stand_in.answer()
        stand_in.request(2, "hook.before_tool", PARAMS["before_tool"])
        second = await stand_in.answer()  # the session survived the first answer
        await stand_in.close()
    for answer in (first, second):  # Go decodes the escaped lone surrogate to U+FFFD
        assert answer["result"]["call"]["arguments"]["command"] == "a\ufffdb"


@bounded(30)
async def test_params_picoclaw_could_not_hold_get_an_error_answer_at_once(
    socket_path: Path,
) -> None:
    tools = scripted("tools", intercept=("before_tool",))
    async with running_inspector(tools, socket_path=socket_path) as (_engine, _listener):
        stand_in = await StandIn.connect(path=socket_path, name="odd")
        stand_in.request(1, "hook.before_tool", {"tool": "exec", "arguments": "rm -rf /"})
        answer = await stand_in.answer()
        stand_in.request(2, "hook.before_tool", PARAMS["before_tool"])
        later = await stand_in.answer()  # the session goes on
        await stand_in.close()
    assert answer["id"] == 1 and "cannot hold" in answer["error"]["message"]
    assert later["result"]["action"] == "continue"


@bounded(30)
async def test_a_relay_that_hangs_up_mid_call_has_its_work_cancelled(socket_path: Path) -> None:
    async with running_inspector(human(), socket_path=socket_path) as (engine, _listener):
        stand_in = await StandIn.connect(path=socket_path, name="gone")
        stand_in.request(7, "hook.approve_tool", PARAMS["approve_tool"])
        await wait_for(lambda: len(engine.approvals.pending) == 1)
        await stand_in.close()
        await wait_for(lambda: lifecycle(engine, "gone")[-1][0] == "disconnected")
        assert engine.approvals.pending == []

    (relayed,) = relay_exchanges(engine, "gone")
    assert relayed.status == STATUS_CANCELLED and relayed.rpc_id == 7
    (prompted,) = [e for e in engine.journal.exchanges() if e.hook == "reviewer"]
    assert prompted.status == STATUS_CANCELLED
    assert lifecycle(engine, "gone")[-1][1] == "the relay hung up; 1 pending call(s) cancelled"


@bounded(30)
async def test_a_relay_that_stops_sending_still_gets_its_answers(socket_path: Path) -> None:
    slow = scripted("slow", {"before_tool": {"delay_ms": 300}}, intercept=("before_tool",))
    async with running_inspector(slow, socket_path=socket_path) as (engine, _listener):
        stand_in = await StandIn.connect(path=socket_path, name="draining")
        stand_in.request(3, "hook.before_tool", PARAMS["before_tool"])
        await wait_for(lambda: any(e.hook == "slow" for e in engine.journal.exchanges()))
        stand_in.writer.write_eof()  # what the relay does when its agent closes stdin
        answer = await stand_in.answer()
        await wait_for(lambda: lifecycle(engine, "draining")[-1][0] == "disconnected")

    assert answer["id"] == 3 and answer["result"]["action"] == "continue"
    assert lifecycle(engine, "draining")[-1][1] == (
        "the relay stopped sending; 1 pending call(s) answered"
    )


# ---- bad input ---------------------------------------------------------------------------


@bounded(30)
async def test_bad_greetings_are_refused_and_recorded(socket_path: Path) -> None:
    async with running_inspector(socket_path=socket_path) as (engine, listener):
        cases = {
            b"hello there\n": "the first line is not a hook-inspector relay greeting",
            json.dumps({wire.GREETING_KEY: 3, "name": "future"}).encode() + b"\n": (
                "wire version 3; this inspector speaks 2: update the relay (or the OpenClaw"
                " plugin) and the inspector to the same hook-inspector"
            ),
            wire.greeting("odd", None, {"interceptor": -1}): (
                "deadlines_ms.interceptor is not a positive number of milliseconds"
            ),
            b"{" + b" " * (2 << 20) + b"\n": "the greeting line is too long",
            b"[" * 20_000 + b"]" * 20_000 + b"\n": (
                "the first line is not a hook-inspector relay greeting"
            ),
        }
        for greeting, reason in cases.items():
            stand_in = await StandIn.connect(path=socket_path, greeting=greeting)
            assert stand_in.welcome == {"hook_inspector": 2, "ok": False, "error": reason}
            assert await hung_up(stand_in)
        assert listener.sessions == {}
        hello = {"jsonrpc": "2.0", "id": 1, "method": "hook.hello", "params": {"modes": MODES}}
        greeting = wire.greeting("fine", None, wire.DEFAULT_DEADLINES_MS, hello)
        good = await StandIn.connect(path=socket_path, greeting=greeting)
        assert good.welcome == {"hook_inspector": 2, "ok": True}
        await wait_for(lambda: lifecycle(engine, "fine") != [])

    refused = [r for r in engine.journal.of_type(Lifecycle) if r.state == "refused"]
    # the same refusal again (the deep line, from a relay with no name) folds into the first
    assert [r.detail.split(" (from")[0] for r in refused] == list(dict.fromkeys(cases.values()))
    assert [r.hook for r in refused] == ["relay", "future", "odd", "relay"]
    (connected, _) = lifecycle(engine, "fine")
    assert connected == (
        "connected",
        "via the Unix socket; the agent's deadlines: observer 500 ms, interceptor 5000 ms, "
        "approval 60000 ms; modes observe, llm, tool, approve",
    )


@bounded(30)
async def test_bad_lines_are_recorded_and_the_relay_is_still_served(socket_path: Path) -> None:
    tools = scripted("tools", intercept=("before_tool",))
    async with Engine(config_of(tools)) as engine:
        listener = Listener(engine, socket_path=socket_path, max_line=64 * 1024)
        await listener.start()
        try:
            stand_in = await StandIn.connect(path=socket_path, name="noisy")
            other = await StandIn.connect(path=socket_path, name="quiet")
            stand_in.send(b"this is not json\n")
            stand_in.send(b"[" * 20_000 + b"]" * 20_000 + b"\n")  # deeper than json can go
            stand_in.send(b"[1, 2, 3]\n")
            stand_in.send(go_json({"jsonrpc": "2.0", "method": "hook.event", "params": {}}))
            huge = stand_in.request(4, "hook.before_llm", {"messages": ["x" * 100_000]})
            stand_in.request(5, "hook.wat", {})
            stand_in.request(6, "hook.before_tool", PARAMS["before_tool"])
            answers = {}
            for _ in range(3):
                answer = await stand_in.answer()
                answers[answer["id"]] = answer
            other.request(1, "hook.before_tool", PARAMS["before_tool"])
            other_answer = await other.answer()
        finally:
            await listener.close()

    assert len(huge) > 64 * 1024
    assert answers[4]["result"] == {"action": "continue"}  # at once: no use waiting for it
    assert answers[5]["error"] == {"code": -32601, "message": "method not found"}
    assert answers[6]["result"] == {"action": "continue"}
    assert other_answer["result"]["action"] == "continue"
    noise = [(n.hook, [f.code for f in n.findings]) for n in engine.journal.of_type(Noise)]
    assert noise == [
        ("noisy", ["relay-not-json"]),
        ("noisy", ["relay-not-json"]),
        ("noisy", ["relay-not-a-request"]),
        ("noisy", ["relay-unknown-notification"]),
    ]
    too_long = next(e for e in relay_exchanges(engine, "noisy") if e.rpc_id == 4)
    assert [f.code for f in too_long.findings] == ["relay-line-too-long"]


# ---- where the inspector listens ---------------------------------------------------------


@bounded(30)
async def test_the_default_socket_is_private_whatever_the_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = Path(tempfile.mkdtemp(prefix="xdg-", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    path = wire.default_socket_path()
    path.parent.mkdir(mode=0o755)
    os.chmod(path.parent, 0o755)  # left open by someone
    with socket.socket(socket.AF_UNIX) as stale:  # what an inspector that died leaves behind
        stale.bind(str(path))
    umask = os.umask(0)
    try:
        async with Engine(config_of()) as engine:
            listener = await listen_for_relays(engine)
            assert listener.address == str(path)
            assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
            assert os.stat(path).st_uid == os.getuid()
            # only the owner may enter the folder or write to the socket: another user cannot
            # even reach it
            with pytest.raises(ListenError, match="another inspector is listening"):
                await listen_for_relays(engine)
            if os.geteuid() == 0:  # root can become another user and knock
                assert await connect_as_nobody(path) == "PermissionError"
            await listener.close()
            assert not path.exists()
    finally:
        os.umask(umask)
        shutil.rmtree(runtime, ignore_errors=True)


async def connect_as_nobody(path: Path) -> str:
    """What another user's process gets when it tries to connect to `path`: a forked child
    drops to nobody and knocks (no exec, so it needs no interpreter nobody may run)."""
    outcomes = {0: "connected", 13: "PermissionError"}
    pid = os.fork()
    if pid == 0:  # the child: a few syscalls, then out, whatever happens
        code = 99
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            socket.socket(socket.AF_UNIX).connect(str(path))
            code = 0
        except PermissionError:
            code = 13
        finally:
            os._exit(code)
    _, status = await asyncio.to_thread(os.waitpid, pid, 0)
    return outcomes.get(os.waitstatus_to_exitcode(status), "something else")


def test_a_socket_in_someone_elses_place_is_not_taken(tmp_path: Path) -> None:
    taken = tmp_path / "relay.sock"
    taken.write_text("not a socket")

    async def listen() -> None:
        async with Engine(config_of()) as engine:
            await listen_for_relays(engine, ListenOptions(socket_path=taken))

    with pytest.raises(ListenError, match="exists and is not a socket"):
        asyncio.run(listen())
    assert taken.read_text() == "not a socket"


def test_tcp_binds_loopback_unless_told_and_needs_a_token() -> None:
    assert parse_listen(":7000") == ("127.0.0.1", 7000)
    assert parse_listen("0.0.0.0:7000") == ("0.0.0.0", 7000)
    assert parse_listen("[::1]:7000") == ("::1", 7000)
    with pytest.raises(ValueError):
        parse_listen("localhost")
    with pytest.raises(ValueError, match="needs a token"):
        Listener(Engine(config_of()), tcp=("127.0.0.1", 0))


@pytest.mark.parametrize(
    ("listen", "warning"),
    [
        (":::7000", ":: is every interface: other machines can reach port 7000"),
        ("[::]:7000", ":: is every interface"),
        ("0.0.0.0:7000", "0.0.0.0 is every interface"),
        ("192.168.1.5:7000", "192.168.1.5 is not a loopback address"),
        ("board.local:7000", "board.local is a name, not a loopback address"),
        (":7000", None),
        ("127.0.0.2:7000", None),
        ("[::1]:7000", None),
        ("[::ffff:127.0.0.1]:7000", None),
        ("localhost:7000", None),
    ],
)
def test_listening_beyond_loopback_is_warned_about(listen: str, warning: str | None) -> None:
    exposure = reach_beyond_loopback(*parse_listen(listen))
    if warning is None:
        assert exposure is None
    else:
        assert exposure is not None and exposure.startswith(warning)
        assert "listen on 127.0.0.1 and use an SSH tunnel" in exposure


@bounded(60)
async def test_serve_on_every_interface_warns_first(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("s3cret\n")
    process = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "inspector", "serve", "--listen", ":::0"],
        *["--token-file", str(tmp_path / "token")],
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    try:
        first = (await process.stderr.readline()).decode()
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()
    assert first.startswith("hook-inspector serve: warning: :: is every interface: ")


@bounded(30)
async def test_tcp_refuses_a_wrong_or_missing_token(tmp_path: Path, socket_path: Path) -> None:
    tools = scripted("tools", intercept=("before_tool",))
    async with Engine(config_of(tools)) as engine:
        listener = await listen_for_relays(
            engine, ListenOptions(tcp=parse_listen(":0"), token="s3cret")
        )
        try:
            host, port = listener.address.rsplit(":", 1)
            assert host == "127.0.0.1"
            wrong = await StandIn.connect(port=int(port), name="intruder", token="guess")
            missing = await StandIn.connect(port=int(port), name="careless")
            right = await StandIn.connect(port=int(port), name="friend", token="s3cret")
            right.request(1, "hook.before_tool", PARAMS["before_tool"])
            answer = await right.answer()
        finally:
            await listener.close()

    assert wrong.welcome == {"hook_inspector": 2, "ok": False, "error": "wrong token"}
    assert missing.welcome["ok"] is False
    assert missing.welcome["error"].startswith("a token is required")
    assert right.welcome["ok"] is True and answer["result"]["action"] == "continue"
    refused = [
        (r.hook, r.detail) for r in engine.journal.of_type(Lifecycle) if r.state == "refused"
    ]
    assert [hook for hook, _ in refused] == ["intruder", "careless"]
    assert all("from 127.0.0.1:" in detail for _, detail in refused)


@bounded(30)
async def test_the_real_relay_over_tcp_with_its_token_file(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("s3cret\n")
    tools = scripted("tools", {"before_tool": {"echo": "modify"}}, intercept=("before_tool",))
    async with Engine(config_of(tools)) as engine:
        listener = await listen_for_relays(
            engine, ListenOptions(tcp=parse_listen(":0"), token="s3cret")
        )
        flags = ["--name", "remote", "--connect", listener.address, "--token-file"]
        agent = FakeAgent([*RELAY, *flags, str(tmp_path / "token")])
        await agent.start()
        try:
            await agent.wait_stderr("connected to hook-inspector")
            call = await agent.call("hook.before_tool", PARAMS["before_tool"])
        finally:
            await agent.close(wait_s=1.0)
            await listener.close()

    assert call.result == {"action": "continue"}
    assert lifecycle(engine, "remote")[0][1].startswith("via 127.0.0.1:")


# ---- `hook-inspector serve` --------------------------------------------------------------


def serve_config(tmp_path: Path, patch: dict[str, Any]) -> Path:
    tools = {"before_tool": {"echo": "modify", "patch": patch}}
    hooks = {
        "tools": {
            "command": [sys.executable, str(SCRIPTED), json.dumps(tools)],
            "intercept": ["before_tool"],
        },
        "stuck": {
            "command": [
                sys.executable,
                str(SCRIPTED),
                json.dumps({"approve_tool": {"never": True}}),
            ],
            "env": {"HOOK_RECORD": str(tmp_path / "stuck.jsonl")},
            "intercept": ["approve_tool"],
        },
    }
    path = tmp_path / "hooks.yaml"
    path.write_text(yaml.safe_dump({"hooks": hooks}))
    return path


@asynccontextmanager
async def serving(*args: str) -> AsyncIterator[asyncio.subprocess.Process]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "inspector",
        "serve",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL,
    )
    try:
        assert process.stderr is not None
        line = await asyncio.wait_for(process.stderr.readline(), 20)
        assert b"listening on" in line, line
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def records_until(
    process: asyncio.subprocess.Process, done: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    assert process.stdout is not None
    seen: list[dict[str, Any]] = []
    while not seen or not done(seen[-1]):
        line = await process.stdout.readline()
        assert line, "serve ended early"
        seen.append(json.loads(line))
    return seen


@bounded(60)
async def test_serve_answers_a_relay_prints_records_and_stops_on_sigterm(
    tmp_path: Path, socket_path: Path, agents: StartAgent
) -> None:
    config = serve_config(tmp_path, {"arguments": {"checked": True}})
    async with serving(str(config), "--socket", str(socket_path), "--json") as process:
        agent = await agents("picoclaw")
        tool = await agent.call("hook.before_tool", PARAMS["before_tool"])
        approval = asyncio.create_task(agent.call("hook.approve_tool", PARAMS["approve_tool"]))
        stuck = tmp_path / "stuck.jsonl"
        await wait_for(lambda: "hook.approve_tool" in stuck.read_text())
        process.send_signal(signal.SIGTERM)
        answered = await approval
        out, _ = await process.communicate()
        assert process.returncode == 0

    assert tool.result["call"]["arguments"] == {"command": "ls", "checked": True}
    assert answered.result == {
        "approved": False,
        "reason": "hook-inspector stopped before its hooks answered",
    }
    records = [json.loads(line) for line in out.splitlines()]
    states = [(r["hook"], r["state"]) for r in records if r["type"] == "lifecycle"]
    assert ("picoclaw", "disconnected") in states
    relayed = [r for r in records if r["type"] == "exchange" and r["hook"] == "picoclaw"]
    assert [r["method"] for r in relayed] == ["hook.before_tool", "hook.approve_tool"]
    assert all(r["source"] == "relay:picoclaw" and r["raw_response"] for r in relayed)


@bounded(60)
async def test_serve_reloads_the_downstream_hooks_on_save(
    tmp_path: Path, socket_path: Path, agents: StartAgent
) -> None:
    config = serve_config(tmp_path, {"arguments": {"version": 1}})
    async with serving(str(config), "--socket", str(socket_path), "--json") as process:
        agent = await agents("picoclaw")
        before = await agent.call("hook.before_tool", PARAMS["before_tool"])
        serve_config(tmp_path, {"arguments": {"version": 2}})
        await records_until(process, lambda r: r["type"] == "reload")
        after = await agent.call("hook.before_tool", PARAMS["before_tool"])
        process.send_signal(signal.SIGINT)
        await process.communicate()
        assert process.returncode == 0

    assert before.result["call"]["arguments"]["version"] == 1
    assert after.result["call"]["arguments"]["version"] == 2


def test_serve_on_tcp_needs_a_token_file() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "serve", "--listen", ":0"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2 and "--listen needs --token-file" in done.stderr


# ---- answers PicoClaw can read -----------------------------------------------------------

BIG_CONVERSATION = {
    **PARAMS["before_llm"],
    "messages": [
        {"role": "system", "content": "be nice"},
        {"role": "user", "content": "x" * 1_100_000},
    ],
}


@bounded(60)
async def test_a_big_conversation_left_unchanged_keeps_later_approvals_working(
    socket_path: Path, agents: StartAgent
) -> None:
    llm = scripted("llm", {"before_llm": {"echo": "continue"}}, intercept=("before_llm",))
    approver = scripted("approver", {}, intercept=("approve_tool",))
    async with running_inspector(llm, approver, socket_path=socket_path) as (_engine, _listener):
        agent = await agents("picoclaw")
        llm_call = await agent.call("hook.before_llm", BIG_CONVERSATION)
        approval = await agent.call("hook.approve_tool", PARAMS["approve_tool"])
    assert len(llm_call.request) > 1024 * 1024
    # nothing changed, so nothing is echoed: a 1.1 MB echo would stop PicoClaw's reader for good
    assert llm_call.result == {"action": "continue"}
    assert not agent.reader_dead
    assert approval.result == {"approved": True, "reason": ""}


@bounded(60)
async def test_a_chain_answer_over_1_mib_becomes_the_fallback_with_a_finding(
    socket_path: Path, agents: StartAgent
) -> None:
    patch = {"model": "m2"}
    llm = scripted(
        "llm", {"before_llm": {"echo": "modify", "patch": patch}}, intercept=("before_llm",)
    )
    approver = scripted("approver", {}, intercept=("approve_tool",))
    async with running_inspector(llm, approver, socket_path=socket_path) as (engine, _listener):
        agent = await agents("picoclaw")
        llm_call = await agent.call("hook.before_llm", BIG_CONVERSATION)
        approval = await agent.call("hook.approve_tool", PARAMS["approve_tool"])
    assert llm_call.result == {"action": "continue"}
    assert not agent.reader_dead
    assert approval.result == {"approved": True, "reason": ""}
    relayed = next(e for e in relay_exchanges(engine, "picoclaw") if e.method == "hook.before_llm")
    (finding,) = [f for f in relayed.findings if f.code == "answer-too-long"]
    assert "over PicoClaw's 1,048,576" in finding.message
    # the journal keeps what the chain decided: the hook's answer, whole
    (hooked,) = [e for e in engine.journal.exchanges() if e.hook == "llm" and e.rpc_id == 2]
    assert hooked.action == "modify" and hooked.response["result"]["request"]["model"] == "m2"
