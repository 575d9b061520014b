"""Intercept: hold, edit, forward and drop requests on their way to real hook processes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import HookSpec
from inspector.engine import Engine
from inspector.hooks.approvals import Verdict
from inspector.journal.records import Decision, Exchange
from inspector.pipeline.gate import STATUS_HELD
from tests.support.recorded import recorded_lines
from tests.support.scripted import config_of, scripted
from tests.support.waiting import wait_for

META = {
    "AgentID": "",
    "TurnID": "t1",
    "ParentTurnID": "",
    "SessionKey": "",
    "Iteration": 0,
    "TracePath": "",
    "Source": "",
}  # every field: PicoClaw writes HookMeta whole
CALL = {"meta": META, "tool": "exec", "arguments": {"command": "ls"}}
EDITED = {"meta": META, "tool": "exec", "arguments": {"command": "pwd"}}


def recording(name: str, record: Path, script: dict[str, Any] | None = None, **kw: Any) -> HookSpec:
    return scripted(name, script, env={"HOOK_RECORD": str(record)}, **kw)


def received(record: Path) -> list[str]:
    """The methods a hook process was sent, hello included."""
    return [line["method"] for line in recorded_lines(record)]


def human_decisions(engine: Engine) -> list[tuple[str, str, str | None]]:
    return [
        (d.stage, d.verdict, d.tool) for d in engine.journal.of_type(Decision) if d.by == "human"
    ]


async def held(engine: Engine, count: int = 1) -> list[Any]:
    await wait_for(lambda: len(engine.held) >= count)
    return engine.held


def hold_hook(name: str) -> Any:
    return lambda exchange: exchange.hook == name


async def test_only_matching_requests_are_held_and_the_hook_sees_nothing_until_forwarded(
    tmp_path: Path,
) -> None:
    tools, approvals = tmp_path / "tools.jsonl", tmp_path / "approvals.jsonl"
    specs = (
        recording("tools", tools, intercept=("before_tool",)),
        recording("gate", approvals, intercept=("approve_tool",)),
    )
    async with Engine(config_of(*specs)) as engine:
        engine.set_intercept_predicate(hold_hook("gate"))
        result = await engine.runtime.pipeline.before_tool(CALL, source="test", turn="t1")
        assert result.action == "continue" and engine.held == []
        task = asyncio.create_task(
            engine.runtime.pipeline.approve_tool(CALL, source="test", turn="t1")
        )
        (waiting,) = await held(engine)
        exchange = waiting.exchange
        assert (exchange.hook, exchange.method, exchange.status) == (
            "gate",
            "hook.approve_tool",
            STATUS_HELD,
        )
        assert exchange.request == {
            "jsonrpc": "2.0",
            "id": None,
            "method": "hook.approve_tool",
            "params": CALL,
        }
        assert (exchange.source, exchange.turn) == ("test", "t1")
        assert engine.journal.get(exchange.seq) is exchange
        assert received(approvals) == ["hook.hello"]
        assert waiting.age_s >= 0
        assert engine.forward(exchange.seq)
        outcome = await task
    assert outcome.approved
    assert received(approvals) == ["hook.hello", "hook.approve_tool"]
    assert received(tools) == ["hook.hello", "hook.before_tool"]


async def test_forwarding_unchanged_turns_the_held_record_into_the_real_call() -> None:
    spec = scripted("gate", {}, intercept=("approve_tool",))
    async with Engine(config_of(spec)) as engine:
        engine.set_intercept_predicate(lambda exchange: True)
        task = asyncio.create_task(
            engine.runtime.pipeline.approve_tool(CALL, source="test", turn="t1")
        )
        (waiting,) = await held(engine)
        seq = waiting.seq
        engine.forward(seq, dict(CALL))  # the same params given back are no edit
        assert (await task).approved
    exchange = engine.journal.get(seq)
    assert isinstance(exchange, Exchange)
    assert (exchange.status, exchange.rpc_id, exchange.edited) == ("ok", 2, False)
    assert exchange.request is not None and exchange.request["id"] == 2
    assert [e.seq for e in engine.journal.exchanges() if e.method != "hook.hello"] == [seq]
    assert engine.gate.originals == {}
    assert human_decisions(engine) == [("approve_tool", "forwarded", "exec")]


async def test_forwarding_edited_sends_the_edit_and_keeps_the_original(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    spec = recording(
        "echo", record, {"before_tool": {"echo": "modify"}}, intercept=("before_tool",)
    )
    async with Engine(config_of(spec)) as engine:
        engine.set_intercept_predicate(lambda exchange: exchange.method == "hook.before_tool")
        task = asyncio.create_task(
            engine.runtime.pipeline.before_tool(CALL, source="test", turn="t1")
        )
        (waiting,) = await held(engine)
        assert engine.forward(waiting.seq, EDITED)
        result = await task
    assert recorded_lines(record)[1]["params"] == EDITED
    assert result.value == EDITED
    exchange = waiting.exchange
    assert exchange.edited and exchange.status == "ok"
    assert exchange.request is not None and exchange.request["params"] == EDITED
    assert engine.gate.originals == {waiting.seq: CALL}
    assert human_decisions(engine) == [("before_tool", "forwarded edited", "exec")]


async def test_a_dropped_interceptor_request_is_skipped_and_the_chain_goes_on(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    modify = {"before_tool": {"echo": "modify", "patch": {"arguments": {"first": True}}}}
    echo = {"before_tool": {"echo": "modify"}}
    specs = (
        recording("first", first, modify, intercept=("before_tool",), priority=1),
        recording("second", second, echo, intercept=("before_tool",), priority=2),
    )
    async with Engine(config_of(*specs)) as engine:
        engine.set_intercept_predicate(hold_hook("first"))
        task = asyncio.create_task(
            engine.runtime.pipeline.before_tool(CALL, source="test", turn="t1")
        )
        (waiting,) = await held(engine)
        assert engine.drop(waiting.seq)
        assert not engine.drop(waiting.seq)  # already gone
        result = await task
    assert (waiting.exchange.status, waiting.exchange.error) == ("dropped", "dropped by hand")
    assert waiting.exchange.action == "skipped"
    assert received(first) == ["hook.hello"]
    assert recorded_lines(second)[1]["params"] == CALL
    assert (result.action, result.value) == ("continue", CALL)
    assert human_decisions(engine) == [("before_tool", "dropped", "exec")]


async def test_a_dropped_approval_denies_as_a_timeout_would() -> None:
    spec = scripted("gate", {}, intercept=("approve_tool",))
    async with Engine(config_of(spec)) as engine:
        engine.set_intercept_predicate(lambda exchange: True)
        task = asyncio.create_task(
            engine.runtime.pipeline.approve_tool(CALL, source="test", turn="t1")
        )
        (waiting,) = await held(engine)
        engine.drop(waiting.seq)
        outcome = await task
    assert (outcome.approved, outcome.reason, outcome.decided_by) == (
        False,
        'tool approval hook "gate" timed out',
        "gate",
    )
    assert waiting.exchange.action == "denied"


async def test_forward_all_releases_every_held_request_oldest_first(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    spec = recording("gate", record, intercept=("approve_tool",))
    calls = [{**CALL, "arguments": {"command": f"echo {n}"}} for n in range(3)]
    async with Engine(config_of(spec)) as engine:
        engine.set_intercept_predicate(lambda exchange: True)
        tasks = []
        for call in calls:  # one at a time, so their arrival order is known
            tasks.append(
                asyncio.create_task(engine.send_to_hook("gate", "hook.approve_tool", call))
            )
            await held(engine, len(tasks))
        assert [h.params for h in engine.held] == calls
        assert [h.seq for h in engine.held] == sorted(h.seq for h in engine.held)
        assert engine.held[0].held_since <= engine.held[-1].held_since
        assert engine.forward_all() == 3
        assert engine.held == []
        exchanges = await asyncio.gather(*tasks)
    assert [e.status for e in exchanges] == ["ok", "ok", "ok"]
    assert [line["params"] for line in recorded_lines(record)[1:]] == calls
    assert [verdict for _stage, verdict, _tool in human_decisions(engine)] == ["forwarded"] * 3


async def test_clear_intercept_stops_holding_and_forwards_everything_held() -> None:
    spec = scripted("gate", {}, intercept=("approve_tool",))
    async with Engine(config_of(spec)) as engine:
        engine.set_intercept_predicate(lambda exchange: True, "anything")
        tasks = [
            asyncio.create_task(
                engine.runtime.pipeline.approve_tool(CALL, source="test", turn=turn)
            )
            for turn in ("t1", "t2")
        ]
        await held(engine, 2)
        assert engine.clear_intercept() == 2
        assert engine.intercept_expression is None and engine.gate.predicate is None
        outcomes = await asyncio.gather(*tasks)
        later = await engine.runtime.pipeline.approve_tool(CALL, source="test", turn="t3")
    assert all(outcome.approved for outcome in outcomes) and later.approved
    assert len(human_decisions(engine)) == 2


async def test_hello_is_never_held() -> None:
    spec = scripted("gate", {}, intercept=("approve_tool",))
    async with Engine(config_of(spec)) as engine:
        engine.set_intercept_predicate(lambda exchange: True)
        exchange = await engine.send_to_hook("gate", "hook.hello", {"name": "x", "version": 1})
    assert exchange.status == "ok" and engine.held == []


async def test_a_caller_that_gives_up_while_held_leaves_a_cancelled_record() -> None:
    spec = scripted("gate", {}, intercept=("approve_tool",))
    async with Engine(config_of(spec)) as engine:
        engine.set_intercept_predicate(lambda exchange: True)
        task = asyncio.create_task(
            engine.runtime.pipeline.approve_tool(CALL, source="test", turn="t1")
        )
        (waiting,) = await held(engine)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert engine.held == [] and not engine.forward(waiting.seq)
    assert waiting.exchange.status == "cancelled"


async def test_stopping_the_engine_releases_held_requests_unsent(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    spec = recording("gate", record, intercept=("approve_tool",))
    engine = Engine(config_of(spec))
    await engine.start()
    engine.set_intercept_predicate(lambda exchange: True)
    task = asyncio.create_task(engine.runtime.pipeline.approve_tool(CALL, source="test", turn="t1"))
    (waiting,) = await held(engine)
    await engine.stop()
    outcome = await task
    assert not outcome.approved and waiting.exchange.status == "cancelled"
    assert received(record) == ["hook.hello"]


async def test_a_held_approval_for_a_manual_hook_becomes_its_prompt_when_forwarded() -> None:
    human = HookSpec(name="human", kind="manual", intercept=("approve_tool",))
    async with Engine(config_of(human)) as engine:
        engine.set_intercept_predicate(lambda exchange: True)
        task = asyncio.create_task(
            engine.runtime.pipeline.approve_tool(CALL, source="test", turn="t1")
        )
        (waiting,) = await held(engine)
        assert engine.approvals.pending == []
        engine.forward(waiting.seq, EDITED)
        await wait_for(lambda: len(engine.approvals.pending) == 1)
        (prompt,) = engine.approvals.pending
        assert (prompt.exchange, prompt.arguments) == (waiting.seq, EDITED["arguments"])
        engine.approvals.decide(prompt.id, Verdict("allow_once"))
        assert (await task).approved
    assert waiting.exchange.edited and waiting.exchange.status == "ok"


@pytest.mark.parametrize(
    ("typed", "column"), [("status:timout", 8), ("@hook status:timout", 14), ("@stage  (x", 11)]
)
async def test_an_intercept_error_names_the_column_in_what_was_typed(
    typed: str, column: int
) -> None:
    from inspector.filter import FilterError

    async with Engine(config_of()) as engine:
        with pytest.raises(FilterError) as caught:
            engine.set_intercept(typed)
    assert str(caught.value).endswith(f"(column {column})")


async def test_set_intercept_compiles_the_filter_language() -> None:
    filters = pytest.importorskip("inspector.filter")
    if not hasattr(filters, "compile_filter"):
        pytest.skip("the filter language is not there yet")
    spec = scripted("gate", {}, intercept=("approve_tool",))
    async with Engine(config_of(spec)) as engine:
        engine.set_intercept("@hook hook:gate")  # a hook's name: held on the way to it
        assert engine.intercept_expression == "@hook hook:gate"
        with pytest.raises(filters.FilterError):
            engine.set_intercept("(hook:gate")
        assert engine.intercept_expression == "@hook hook:gate"
        task = asyncio.create_task(
            engine.runtime.pipeline.approve_tool(CALL, source="test", turn="t1")
        )
        await held(engine)
        engine.set_intercept(None)
        assert engine.gate.predicate is None and len(engine.held) == 1
        engine.forward_all()
        assert (await task).approved
