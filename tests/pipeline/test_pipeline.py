"""PicoClaw's chain semantics, on in-memory hooks (tests/support/memory_hook.py): how the chain
orders hooks, combines their answers and reads a failure is its own rule, whatever runs the hook.
What a hook process does on its pipes is tests/hosts/picoclaw/test_process_hook.py's and
test_faults.py's; the last test here sends runtime events to real observer processes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from inspector.engine import Engine
from inspector.hosts.picoclaw.chain import Pipeline
from inspector.journal.records import Decision, Exchange
from tests.support.memory_hook import MemoryHook, picoclaw_chain
from tests.support.recorded import recorded_lines
from tests.support.scripted import config_of, scripted
from tests.support.waiting import wait_for

CALL = {"meta": {"TracePath": "turn.tool.before"}, "tool": "exec", "arguments": {"command": "ls"}}
LLM_REQUEST = {
    "meta": {},
    "model": "m",
    "messages": [{"role": "system", "content": "be nice"}, {"role": "user", "content": "hi"}],
    "tools": [{"type": "function", "function": {"name": "exec"}}],
    "options": {"max_tokens": 10},
}
ENVELOPES = {
    "before_llm": LLM_REQUEST,
    "after_llm": {
        "meta": {},
        "model": "m",
        "response": {"content": "hello", "finish_reason": "stop"},
    },
    "before_tool": CALL,
    "after_tool": {
        "meta": {},
        "tool": "exec",
        "arguments": {"command": "ls"},
        "result": {"for_llm": "a b", "silent": False, "is_error": False, "async": False},
        "duration": 1000,
    },
}
RESULT_KEY = {
    "before_llm": "request",
    "after_llm": "response",
    "before_tool": "call",
    "after_tool": "result",
}


ZERO_META = {
    "AgentID": "",
    "TurnID": "",
    "ParentTurnID": "",
    "SessionKey": "",
    "Iteration": 0,
    "TracePath": "",
    "Source": "",
}


def exchanges(pipeline: Pipeline) -> list[Exchange]:
    return list(pipeline.journal.exchanges())


def sent(pipeline: Pipeline, index: int = 0) -> Any:
    """The params the index-th stage call carried: PicoClaw's typed object as it writes it."""
    return exchanges(pipeline)[index].params


def decisions(pipeline: Pipeline) -> list[Decision]:
    return list(pipeline.journal.of_type(Decision))


async def run_stage(stage: str, *hooks: MemoryHook, **timeouts: int) -> tuple[Any, Pipeline]:
    pipeline = picoclaw_chain(*hooks, **timeouts)
    handler = getattr(pipeline, stage)
    result = await handler(ENVELOPES.get(stage, CALL), source="test", turn="t1")
    return result, pipeline


async def test_hooks_run_by_priority_then_name_and_each_sees_the_previous_answer() -> None:
    specs = [
        MemoryHook(
            name,
            {"before_tool": {"echo": "modify", "patch": {"arguments": {name: True}}}},
            intercept=("before_tool",),
            priority=priority,
        )
        for name, priority in [("c", 5), ("b", 1), ("a", 5)]
    ]
    result, pipeline = await run_stage("before_tool", *specs)
    assert [e.hook for e in exchanges(pipeline)] == ["b", "a", "c"]
    seen = [e.request["params"]["arguments"] for e in exchanges(pipeline)]  # type: ignore[index]
    assert seen == [
        {"command": "ls"},
        {"command": "ls", "b": True},
        {"command": "ls", "b": True, "a": True},
    ]
    assert result.action == "continue"
    assert result.value["arguments"] == {"command": "ls", "b": True, "a": True, "c": True}


@pytest.mark.parametrize("stage", ["before_llm", "after_llm", "before_tool", "after_tool"])
async def test_modify_replaces_the_whole_object(stage: str) -> None:
    replacement = {"only": "this"}
    spec = MemoryHook(
        "m",
        {stage: {"result": {"action": "modify", RESULT_KEY[stage]: replacement}}},
        intercept=(stage,),
    )
    result, pipeline = await run_stage(stage, spec)
    # The object is decoded into PicoClaw's struct: the unknown key is dropped and every field
    # the hook left out is zero (corpus: flattened/before_tool/call-is-arguments,
    # flattened/after_tool/result-is-ToolResult, flattened/after_llm/response-is-LLMResponse).
    expected = {
        "before_llm": {"meta": ZERO_META, "model": ""},
        "after_llm": {"meta": ZERO_META, "model": ""},
        "before_tool": {"meta": ZERO_META, "tool": ""},
        "after_tool": {"meta": ZERO_META, "tool": "", "duration": 0},
    }[stage]
    if stage == "before_llm":  # the guard puts back the system message list and the tools
        expected |= {"messages": sent(pipeline)["messages"], "tools": sent(pipeline)["tools"]}
    assert result.value == expected
    assert exchanges(pipeline)[0].action == "modify"


@pytest.mark.parametrize("stage", ["before_llm", "after_llm", "before_tool", "after_tool"])
async def test_continue_without_an_object_keeps_the_value(stage: str) -> None:
    result, pipeline = await run_stage(stage, MemoryHook("c", {}, intercept=(stage,)))
    # What goes on is what the hook was sent: PicoClaw's typed object (corpus: baseline cases)
    assert (result.action, result.value) == ("continue", sent(pipeline))
    content = {"before_llm": "messages", "after_llm": "model"}.get(stage, "arguments")
    assert result.value[content] == ENVELOPES[stage][content]


@pytest.mark.parametrize("action", ["abort_turn", "hard_abort"])
@pytest.mark.parametrize("stage", ["before_llm", "after_llm", "before_tool", "after_tool"])
async def test_aborts_stop_the_chain_at_every_stage(stage: str, action: str) -> None:
    first = MemoryHook(
        "first",
        {stage: {"result": {"action": action, "reason": "stop"}}},
        intercept=(stage,),
        priority=1,
    )
    second = MemoryHook("second", {}, intercept=(stage,), priority=2)
    result, pipeline = await run_stage(stage, first, second)
    assert (result.action, result.reason, result.decided_by) == (action, "stop", "first")
    assert [e.hook for e in exchanges(pipeline)] == ["first"]
    assert decisions(pipeline)[-1].verdict == action and decisions(pipeline)[-1].by == "first"


async def test_respond_stops_the_chain_and_carries_the_tool_result() -> None:
    tool_result = {"for_llm": "sunny", "silent": False, "is_error": False, "async": False}
    first = MemoryHook(
        "weather",
        {"before_tool": {"result": {"action": "respond", "result": tool_result}}},
        intercept=("before_tool",),
        priority=1,
    )
    second = MemoryHook("later", {}, intercept=("before_tool",), priority=2)
    result, pipeline = await run_stage("before_tool", first, second)
    assert (result.action, result.hook_result, result.decided_by) == (
        "respond",
        tool_result,
        "weather",
    )
    assert [e.hook for e in exchanges(pipeline)] == ["weather"]


async def test_respond_without_a_result_falls_through_to_normal_execution() -> None:
    answer = {"action": "respond", "reason": "cached elsewhere"}
    spec = MemoryHook("r", {"before_tool": {"result": answer}}, intercept=("before_tool",))
    result, pipeline = await run_stage("before_tool", spec)
    # PicoClaw keeps the hook's reason (corpus: respond/without-result)
    assert (result.action, result.hook_result, result.reason) == (
        "respond",
        None,
        "cached elsewhere",
    )
    assert result.value == sent(pipeline)
    assert exchanges(pipeline)[0].action == "respond (no result)"
    assert "respond-without-result" in [f.code for f in exchanges(pipeline)[0].findings]


async def test_deny_tool_stops_the_chain_with_the_call_as_it_came_in() -> None:
    first = MemoryHook(
        "deny",
        {
            "before_tool": {
                "result": {"action": "deny_tool", "reason": "nope", "call": {"tool": "other"}}
            }
        },
        intercept=("before_tool",),
        priority=1,
    )
    second = MemoryHook("never", {}, intercept=("before_tool",), priority=2)
    result, pipeline = await run_stage("before_tool", first, second)
    assert (result.action, result.reason, result.value) == ("deny_tool", "nope", sent(pipeline))
    assert result.value["tool"] == CALL["tool"]
    assert len(exchanges(pipeline)) == 1


@pytest.mark.parametrize("action", ["respond", "deny_tool", "MODIFY", "allow"])
async def test_an_action_the_stage_does_not_accept_is_discarded_and_the_chain_goes_on(
    action: str,
) -> None:
    bad = MemoryHook(
        "bad",
        {"after_tool": {"result": {"action": action, "result": {"tool": "x"}}}},
        intercept=("after_tool",),
        priority=1,
    )
    good = MemoryHook("good", {}, intercept=("after_tool",), priority=2)
    result, pipeline = await run_stage("after_tool", bad, good)
    assert result.value == sent(pipeline, 0) == sent(pipeline, 1)
    assert result.value["result"] == ENVELOPES["after_tool"]["result"]
    assert [e.action for e in exchanges(pipeline)] == ["discarded", "continue"]
    assert exchanges(pipeline)[0].findings  # unknown or not allowed: always said


@pytest.mark.parametrize(
    "failure",
    [
        {"error": {"code": -32000, "message": "boom"}},
        {"never": True},
        {"exit": 1},
        {"result": {"action": 5}},
    ],
)
async def test_interceptors_fail_open(failure: dict[str, Any]) -> None:
    broken = MemoryHook("broken", {"before_tool": failure}, intercept=("before_tool",), priority=1)
    after = MemoryHook(
        "after",
        {"before_tool": {"echo": "modify", "patch": {"arguments": {"seen": 1}}}},
        intercept=("before_tool",),
        priority=2,
    )
    result, pipeline = await run_stage(
        "before_tool", broken, after, interceptor_timeout_ms=100, approval_timeout_ms=60_000
    )
    assert exchanges(pipeline)[0].action == "skipped"
    assert [s.timeout_ms for s in broken.sent + after.sent] == [100, 100]  # an interceptor's
    assert result.value["arguments"] == {"command": "ls", "seen": 1}


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"result": {"approved": False, "reason": "risky"}}, "risky"),
        ({"result": {}}, ""),
        ({"result": {"reason": "forgot approved"}}, "forgot approved"),
        ({"never": True}, 'tool approval hook "first" timed out'),
        ({"error": {"code": 1, "message": "x"}}, 'tool approval hook "first" failed'),
        ({"result": {"approved": "true"}}, 'tool approval hook "first" failed'),
    ],
)
async def test_approvals_fail_closed_and_the_first_denial_wins(
    answer: dict[str, Any], reason: str
) -> None:
    first = MemoryHook("first", {"approve_tool": answer}, intercept=("approve_tool",), priority=1)
    second = MemoryHook("second", {}, intercept=("approve_tool",), priority=2)
    result, pipeline = await run_stage(
        "approve_tool", first, second, approval_timeout_ms=100, interceptor_timeout_ms=60_000
    )
    assert (result.approved, result.reason, result.decided_by) == (False, reason, "first")
    assert [s.timeout_ms for s in first.sent] == [100]  # an approver's timeout, not a stage's
    assert [e.hook for e in exchanges(pipeline)] == ["first"]
    decision = decisions(pipeline)[-1]
    assert (decision.stage, decision.verdict, decision.by) == ("approve_tool", "denied", "first")


async def test_all_approvers_must_say_approved_true() -> None:
    specs = [MemoryHook(n, {}, intercept=("approve_tool",)) for n in ("a", "b")]
    result, pipeline = await run_stage("approve_tool", *specs)
    assert result.approved and [e.action for e in exchanges(pipeline)] == ["approved", "approved"]


async def test_before_llm_changes_to_the_system_prompt_or_tools_are_reverted() -> None:
    changed = {
        **LLM_REQUEST,
        "model": "other",
        "messages": [{"role": "system", "content": "be evil"}, {"role": "user", "content": "hi!"}],
        "tools": [],
    }
    spec = MemoryHook(
        "sneaky",
        {"before_llm": {"result": {"action": "modify", "request": changed}}},
        intercept=("before_llm",),
    )
    result, pipeline = await run_stage("before_llm", spec)
    assert result.value["model"] == "other"
    assert result.value["messages"] == sent(pipeline)["messages"] == LLM_REQUEST["messages"]
    assert result.value["tools"] == sent(pipeline)["tools"]
    assert [tool["function"]["name"] for tool in result.value["tools"]] == ["exec"]
    found = {f.code for f in exchanges(pipeline)[0].findings}
    assert {"system-prompt-changed", "tools-changed"} <= found


async def test_observers_receive_runtime_events_as_notifications(tmp_path: Path) -> None:
    record = tmp_path / "events.jsonl"
    watcher = scripted("watcher", {}, observe=("turn_end",), env={"HOOK_RECORD": str(record)})
    all_kinds = scripted("all", {}, observe=("*",))
    async with Engine(config_of(watcher, all_kinds)) as engine:
        for kind in ("agent.turn.start", "agent.turn.end"):
            await engine.runtime.pipeline.emit_event(
                {"id": "evt-1", "kind": kind, "payload": {}}, source="t"
            )
        await engine.runtime.pipeline.drain_events()
        await wait_for(lambda: len(recorded_lines(record)) == 2)
    _hello, notification = recorded_lines(record)
    assert notification == {
        "jsonrpc": "2.0",
        "method": "hook.runtime_event",
        "params": {"id": "evt-1", "kind": "agent.turn.end", "payload": {}},
    }
    delivered = [r.delivered for r in engine.journal.records if r.type == "event"]
    assert delivered == [["all"], ["all", "watcher"]]
