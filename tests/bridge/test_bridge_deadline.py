"""The one deadline PicoClaw gives the relay for the whole chain behind it: each relayed exchange
records how much of it each hook used and what was left for the next; when it runs out, the agent
reads PicoClaw's own timeout wording and the exchange it received says why. And where the
inspector is kinder than PicoClaw (restarting a crashed hook), that exchange says what PicoClaw
would have done."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.engine import Engine
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.journal.records import Exchange, record_from_json
from inspector.tui.widgets.detail_pane import raw_view
from tests.support.bridge_client import AgentSide, listening, short_socket_path
from tests.support.corpus_cases import INPUTS
from tests.support.scripted import config_of, scripted
from tests.support.waiting import wait_for

CALL, APPROVAL = INPUTS["before_tool"], INPUTS["approve_tool"]  # as PicoClaw wrote them
DEADLINES_MS = {"observer": 500, "interceptor": 30_000, "approval": 30_000}
AGENT = "picoclaw"


@pytest.fixture
def socket_path() -> Iterator[Path]:
    with short_socket_path() as path:
        yield path


def request(rpc_id: int, method: str, params: dict[str, Any]) -> bytes:
    message = {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params}
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def relayed(engine: Engine, method: str) -> list[Exchange]:
    return [e for e in engine.journal.exchanges() if e.hook == AGENT and e.method == method]


async def test_each_relayed_exchange_shows_what_each_hook_used_of_the_deadline(
    socket_path: Path,
) -> None:
    slow = scripted("slow", {"before_tool": {"delay_ms": 300}}, intercept=("before_tool",))
    fast = scripted("fast", {}, intercept=("before_tool",), priority=10)
    async with listening(config_of(slow, fast), socket_path) as engine:
        agent = await AgentSide.connect(socket_path, AGENT, DEADLINES_MS)
        await agent.ask(request(2, "hook.before_tool", CALL))
        await agent.close()
    (exchange,) = relayed(engine, "hook.before_tool")
    assert exchange.deadline_ms == DEADLINES_MS["interceptor"]
    assert exchange.deadline_use is not None
    assert [use["hook"] for use in exchange.deadline_use] == ["slow", "fast"]
    first, second = exchange.deadline_use
    assert first["used_ms"] >= 300  # the hook's own delay
    # what one hook leaves is what the next one starts from, and it only shrinks
    assert second["left_ms"] <= first["left_ms"] <= DEADLINES_MS["interceptor"] - first["used_ms"]
    # written into the record: --json output and a saved journal carry it
    saved = record_from_json(json.loads(json.dumps(exchange.to_json())))
    assert isinstance(saved, Exchange) and saved.deadline_use == exchange.deadline_use
    shown = raw_view(exchange).plain
    assert "the agent's 30000 ms interceptor deadline" in shown
    assert "slow used" in shown and "fast used" in shown


async def test_an_approval_cut_short_reads_as_picoclaws_own_timeout(socket_path: Path) -> None:
    late = scripted("late", {"approve_tool": {"delay_ms": 5000}}, intercept=("approve_tool",))
    async with listening(config_of(late), socket_path) as engine:
        agent = await AgentSide.connect(socket_path, AGENT, {**DEADLINES_MS, "approval": 1200})
        answer = json.loads(await agent.ask(request(2, "hook.approve_tool", APPROVAL)))
        await agent.close()
    assert answer["result"] == {"approved": False, "reason": 'tool approval hook "late" timed out'}
    (exchange,) = relayed(engine, "hook.approve_tool")
    (cut,) = [f for f in exchange.findings if f.code == "agent-deadline"]
    assert '"late"' in cut.message and "1200 ms approval deadline" in cut.message


async def test_a_hook_restarted_after_a_crash_is_flagged_on_the_exchange_the_agent_got(
    socket_path: Path,
) -> None:
    crashing = scripted(
        "crashing",
        {"before_tool": {"echo": "continue", "then_exit": 3}},
        intercept=("before_tool",),
    )
    async with listening(config_of(crashing), socket_path) as engine:
        hook = engine.runtime.hooks["crashing"]
        assert isinstance(hook, ProcessHook)
        agent = await AgentSide.connect(socket_path, AGENT, DEADLINES_MS)
        await agent.ask(request(2, "hook.before_tool", CALL))
        await wait_for(lambda: hook.crashes == 1 and hook.running)
        await agent.ask(request(3, "hook.before_tool", CALL))
        await agent.close()
    before, after = relayed(engine, "hook.before_tool")
    assert not [f for f in before.findings if f.code == "kinder-than-picoclaw"]
    (kinder,) = [f for f in after.findings if f.code == "kinder-than-picoclaw"]
    assert '"crashing"' in kinder.message and "restarted" in kinder.message
    assert "skipped" in kinder.host_does


async def test_an_approval_the_chain_cannot_finish_in_time_reads_as_the_relay_timing_out(
    socket_path: Path,
) -> None:
    approver = scripted("approver", {}, intercept=("approve_tool",))
    async with listening(config_of(approver), socket_path) as engine:
        engine.set_intercept_predicate(lambda exchange: exchange.hook == "approver")
        agent = await AgentSide.connect(socket_path, AGENT, {**DEADLINES_MS, "approval": 1000})
        answer = json.loads(await agent.ask(request(2, "hook.approve_tool", APPROVAL)))
        await agent.close()
    # what PicoClaw itself would say had the relay not answered in time
    reason = f'tool approval hook "{AGENT}" timed out'
    assert answer["result"] == {"approved": False, "reason": reason}
    (exchange,) = relayed(engine, "hook.approve_tool")
    (passed,) = [f for f in exchange.findings if f.code == "agent-deadline"]
    assert passed.message.startswith("deadline passed") and "1000 ms approval" in passed.message
