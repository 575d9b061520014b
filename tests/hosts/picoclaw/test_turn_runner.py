from __future__ import annotations

import copy
import itertools
import textwrap
from collections.abc import Callable
from typing import Any

import pytest

from inspector.hosts.picoclaw import templates
from inspector.hosts.picoclaw.results import ApprovalResult, StageResult
from inspector.hosts.picoclaw.turn import ABORTED, COMPLETED, ERROR, TurnRunner
from inspector.scenario import Scenario, parse_scenario

Answer = Callable[[dict[str, Any]], Any]

ONE_TOOL = """\
system: You are a helpful coding agent.
model: gpt-4o-mini
turns:
  - user: What's the weather in Lisbon?
    rounds:
      - content: Let me check.
        tool_calls:
          - tool: get_weather
            arguments: {city: Lisbon}
            result: sunny
      - content: It is sunny.
"""

PLAIN_TRAIL = [
    "agent.turn.start",
    "before_llm",
    "agent.llm.request",
    "after_llm",
    "agent.llm.response",
    "before_tool",
    "approve_tool",
    "agent.tool.exec_start",
    "after_tool",
    "agent.tool.exec_end",
    "before_llm",
    "agent.llm.request",
    "after_llm",
    "agent.llm.response",
    "agent.turn.end",
]


class FakePipeline:
    """Records every call; answers `continue` (and approves) unless told otherwise."""

    def __init__(self, **answers: Answer) -> None:
        self.answers = answers
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.sources: set[str] = set()

    async def _stage(self, stage: str, params: dict[str, Any], source: str) -> Any:
        self.sources.add(source)
        self.log.append((stage, copy.deepcopy(params)))
        answer = self.answers.get(stage)
        if answer is not None:
            return answer(params)
        return ApprovalResult(True) if stage == "approve_tool" else StageResult("continue", params)

    async def before_llm(self, request, *, source, turn):
        return await self._stage("before_llm", request, source)

    async def after_llm(self, envelope, *, source, turn):
        return await self._stage("after_llm", envelope, source)

    async def before_tool(self, call, *, source, turn):
        return await self._stage("before_tool", call, source)

    async def approve_tool(self, request, *, source, turn):
        return await self._stage("approve_tool", request, source)

    async def after_tool(self, envelope, *, source, turn):
        return await self._stage("after_tool", envelope, source)

    async def emit_event(self, event, *, source):
        self.sources.add(source)
        self.log.append(("event", copy.deepcopy(event)))

    @property
    def trail(self) -> list[str]:
        return [params["kind"] if name == "event" else name for name, params in self.log]

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [p for n, p in self.log if n == "event" and kind in (None, p["kind"])]

    def calls(self, stage: str) -> list[dict[str, Any]]:
        return [params for name, params in self.log if name == stage]


def scenario(text: str = ONE_TOOL) -> Scenario:
    return parse_scenario(textwrap.dedent(text), "test.yaml")


async def run(pipeline: FakePipeline, text: str = ONE_TOOL):
    ticks = itertools.count(0, 1000)
    runner = TurnRunner(
        pipeline, clock=lambda: next(ticks), wall_clock=lambda: 1_781_343_000_123_000_000
    )
    return await runner.run(scenario(text))


def payload(event: dict[str, Any]) -> dict[str, Any]:
    return event["payload"]


async def test_plain_turn_calls_stages_and_emits_events_in_host_order() -> None:
    pipeline = FakePipeline()
    (outcome,) = await run(pipeline)

    assert pipeline.trail == PLAIN_TRAIL
    assert pipeline.sources == {"scenario"}
    assert outcome.status == COMPLETED
    assert outcome.final_content == "It is sunny."
    assert outcome.iterations == 2

    events = pipeline.events()
    assert [e["id"] for e in events] == [f"evt-{n}" for n in range(1, len(events) + 1)]
    assert {e["scope"]["turn_id"] for e in events} == {"turn-1"}
    assert events[0]["time"] == "2026-06-13T09:30:00.123Z"
    assert [e["correlation"]["trace_id"] for e in events] == [
        "turn.start",
        "turn.llm.request",
        "turn.llm.response",
        "turn.tool.start",
        "turn.tool.end",
        "turn.llm.request",
        "turn.llm.response",
        "turn.end",
    ]
    assert [e.get("attrs", {}).get("iteration") for e in events] == [None, 1, 1, 1, 1, 2, 2, 2]
    assert payload(events[0]) == {
        "UserMessage": "What's the weather in Lisbon?",
        "MediaCount": 0,
    }


async def test_plain_turn_sends_what_picoclaw_sends() -> None:
    pipeline = FakePipeline()
    await run(pipeline)

    first, second = pipeline.calls("before_llm")
    assert first["meta"] == templates.meta("turn.llm.request", session_key="scenario")
    assert first["context"] == templates.turn_context("cli")
    assert first["model"] == "gpt-4o-mini"
    assert first["messages"] == [
        {"role": "system", "content": "You are a helpful coding agent."},
        {"role": "user", "content": "What's the weather in Lisbon?"},
    ]
    assert [tool["function"]["name"] for tool in first["tools"]] == ["get_weather"]
    assert first["options"] == {
        "max_tokens": 8192,
        "prompt_cache_key": "main",
        "temperature": 0.7,
    }
    assert second["meta"]["Iteration"] == 2

    after_llm = pipeline.calls("after_llm")[0]
    assert after_llm["meta"]["TracePath"] == "turn.llm.response"
    assert after_llm["response"]["tool_calls"] == [
        templates.tool_call("call_1", "get_weather", {"city": "Lisbon"})
    ]
    assert after_llm["response"]["finish_reason"] == "tool_calls"

    (before_tool,) = pipeline.calls("before_tool")
    assert before_tool["meta"]["TracePath"] == "turn.tool.before"
    assert (before_tool["tool"], before_tool["arguments"]) == ("get_weather", {"city": "Lisbon"})
    (approval,) = pipeline.calls("approve_tool")
    assert approval["meta"]["TracePath"] == "turn.tool.approve"
    (after_tool,) = pipeline.calls("after_tool")
    assert after_tool["meta"]["TracePath"] == "turn.tool.after"
    assert after_tool["result"] == templates.tool_result("sunny")
    assert after_tool["duration"] == 1000

    request, _ = pipeline.events("agent.llm.request")
    assert payload(request) == {
        "Model": "gpt-4o-mini",
        "MessagesCount": 2,
        "ToolsCount": 1,
        "MaxTokens": 8192,
        "Temperature": 0.7,
    }
    response, final = pipeline.events("agent.llm.response")
    assert payload(response) == {"ContentLen": 13, "ToolCalls": 1, "HasReasoning": False}
    assert payload(final)["ToolCalls"] == 0
    (end,) = pipeline.events("agent.tool.exec_end")
    assert payload(end) == {
        "Tool": "get_weather",
        "Duration": 1000,
        "ForLLMLen": 5,
        "ForUserLen": 0,
        "IsError": False,
        "Async": False,
    }


async def test_turn_end_carries_its_real_payload_fields() -> None:
    pipeline = FakePipeline()
    await run(pipeline)

    (end,) = pipeline.events("agent.turn.end")
    fields = payload(end)
    assert fields["Duration"] > 0
    del fields["Duration"]
    assert fields == {
        "Status": "completed",
        "Workspace": "",
        "Iterations": 2,
        "FinalContentLen": 12,
        "UserMessage": "What's the weather in Lisbon?",
        "FinalContent": "It is sunny.",
        "ActiveSkills": None,
        "AttemptedSkills": None,
        "FinalSuccessfulPath": None,
        "SkillContextSnapshots": None,
        "ToolKinds": ["get_weather"],
        "ToolExecutions": [{"name": "get_weather", "success": True}],
    }
    assert end["severity"] == "info"


async def test_respond_skips_approval_tool_and_after_tool() -> None:
    hook_result = templates.tool_result("cached: sunny", for_user="☀")

    def respond(call: dict[str, Any]) -> StageResult:
        changed = {**call, "tool": "other", "arguments": {"city": "Porto"}}
        return StageResult("respond", changed, hook_result=hook_result)

    pipeline = FakePipeline(before_tool=respond)
    (outcome,) = await run(pipeline)

    assert pipeline.calls("approve_tool") == []
    assert pipeline.calls("after_tool") == []
    start, end = (
        pipeline.events("agent.tool.exec_start")[0],
        pipeline.events("agent.tool.exec_end")[0],
    )
    assert payload(start) == {"Tool": "get_weather", "Arguments": {"city": "Lisbon"}}
    assert payload(end) == {
        "Tool": "get_weather",
        "Duration": 0,
        "ForLLMLen": len("cached: sunny"),
        "ForUserLen": len("☀".encode()),
        "IsError": False,
        "Async": False,
    }
    assert outcome.messages[2] == {
        "role": "tool",
        "content": "cached: sunny",
        "tool_call_id": "call_1",
    }
    assert [e.name for e in outcome.tool_executions] == ["get_weather"]


async def test_respond_without_result_falls_through_with_the_original_call() -> None:
    pipeline = FakePipeline(
        before_tool=lambda call: StageResult("respond", {**call, "arguments": {"city": "Porto"}})
    )
    (outcome,) = await run(pipeline)

    assert pipeline.calls("approve_tool")[0]["arguments"] == {"city": "Lisbon"}
    assert outcome.tool_executions[0].arguments == {"city": "Lisbon"}
    assert outcome.messages[2]["content"] == "sunny"


@pytest.mark.parametrize(
    ("reason", "text"),
    [
        ("rm is not allowed", "Tool execution denied by hook: rm is not allowed"),
        ("", "Tool execution denied by hook"),
    ],
)
async def test_deny_tool_tells_the_llm_and_skips_the_rest(reason: str, text: str) -> None:
    pipeline = FakePipeline(before_tool=lambda call: StageResult("deny_tool", call, reason=reason))
    (outcome,) = await run(pipeline)

    assert pipeline.trail == [
        "agent.turn.start",
        "before_llm",
        "agent.llm.request",
        "after_llm",
        "agent.llm.response",
        "before_tool",
        "agent.tool.exec_skipped",
        "before_llm",
        "agent.llm.request",
        "after_llm",
        "agent.llm.response",
        "agent.turn.end",
    ]
    (skipped,) = pipeline.events("agent.tool.exec_skipped")
    assert payload(skipped) == {"Tool": "get_weather", "Reason": text}
    assert skipped["severity"] == "warn"
    assert outcome.messages[2] == {"role": "tool", "content": text, "tool_call_id": "call_1"}
    assert pipeline.calls("before_llm")[1]["messages"][-1]["content"] == text
    assert outcome.status == COMPLETED
    assert outcome.tool_executions == []
    assert payload(pipeline.events("agent.turn.end")[0])["ToolExecutions"] is None


async def test_approval_denial_uses_the_approval_text() -> None:
    pipeline = FakePipeline(
        approve_tool=lambda request: ApprovalResult(False, "blocked by ipc hook")
    )
    (outcome,) = await run(pipeline)

    text = "Tool execution denied by approval hook: blocked by ipc hook"
    assert "after_tool" not in pipeline.trail
    assert "agent.tool.exec_start" not in pipeline.trail
    (skipped,) = pipeline.events("agent.tool.exec_skipped")
    assert payload(skipped) == {"Tool": "get_weather", "Reason": text}
    assert outcome.messages[2]["content"] == text


async def test_approval_denial_without_reason_is_the_bare_prefix() -> None:
    pipeline = FakePipeline(approve_tool=lambda request: ApprovalResult(False))
    (outcome,) = await run(pipeline)
    assert outcome.messages[2]["content"] == "Tool execution denied by approval hook"


@pytest.mark.parametrize("stage", ["before_llm", "after_llm", "before_tool", "after_tool"])
async def test_abort_turn_ends_the_turn_as_an_error(stage: str) -> None:
    pipeline = FakePipeline(**{stage: lambda v: StageResult("abort_turn", v, reason="stop!")})
    (outcome,) = await run(pipeline)

    assert pipeline.trail[-2:] == [stage, "agent.turn.end"]
    assert len(pipeline.calls(stage)) == 1
    (end,) = pipeline.events("agent.turn.end")
    assert payload(end)["Status"] == "error"
    assert payload(end)["Iterations"] == 1
    assert payload(end)["FinalContent"] == ""
    assert end["severity"] == "error"
    assert (outcome.status, outcome.error) == (ERROR, "hook requested turn abort")
    assert outcome.messages[0] == {"role": "user", "content": "What's the weather in Lisbon?"}


@pytest.mark.parametrize("stage", ["before_llm", "after_llm", "before_tool", "after_tool"])
async def test_hard_abort_ends_the_turn_aborted_and_rolls_back(stage: str) -> None:
    pipeline = FakePipeline(**{stage: lambda v: StageResult("hard_abort", v)})
    (outcome,) = await run(pipeline)

    assert pipeline.trail[-2:] == [stage, "agent.turn.end"]
    (end,) = pipeline.events("agent.turn.end")
    assert payload(end)["Status"] == "aborted"
    assert end["severity"] == "warn"
    assert outcome.status == ABORTED
    assert outcome.messages == []


async def test_tool_error_is_reported_as_an_error_result() -> None:
    text = ONE_TOOL.replace("result: sunny", "error: weather service down")
    pipeline = FakePipeline()
    (outcome,) = await run(pipeline, text)

    assert pipeline.calls("after_tool")[0]["result"] == templates.tool_result(
        "weather service down", is_error=True
    )
    (end,) = pipeline.events("agent.tool.exec_end")
    assert payload(end)["IsError"] is True
    assert end["severity"] == "warn"
    (execution,) = outcome.tool_executions
    assert (execution.success, execution.error_summary) == (False, "weather service down")
    assert payload(pipeline.events("agent.turn.end")[0])["ToolExecutions"] == [
        {"name": "get_weather", "success": False, "error_summary": "weather service down"}
    ]
    assert outcome.messages[2]["content"] == "weather service down"


async def test_modified_arguments_are_what_approval_and_the_tool_see() -> None:
    pipeline = FakePipeline(
        before_tool=lambda call: StageResult("continue", {**call, "arguments": {"city": "Porto"}})
    )
    (outcome,) = await run(pipeline)

    porto = {"city": "Porto"}
    assert pipeline.calls("approve_tool")[0]["arguments"] == porto
    assert payload(pipeline.events("agent.tool.exec_start")[0])["Arguments"] == porto
    assert pipeline.calls("after_tool")[0]["arguments"] == porto
    assert outcome.tool_executions[0].arguments == porto
    # the assistant message keeps what the LLM asked for
    assert outcome.messages[1]["tool_calls"][0]["function"]["arguments"] == '{"city":"Lisbon"}'


async def test_a_call_without_tool_is_not_found() -> None:
    pipeline = FakePipeline(
        before_tool=lambda call: StageResult("continue", {"arguments": call["arguments"]})
    )
    (outcome,) = await run(pipeline)

    assert pipeline.calls("approve_tool")[0]["tool"] == ""
    assert pipeline.calls("after_tool")[0]["result"] == templates.tool_result(
        'tool "" not found', is_error=True
    )
    assert outcome.messages[2]["content"] == 'tool "" not found'


async def test_after_tool_rename_and_result_replace() -> None:
    def rewrite(envelope: dict[str, Any]) -> StageResult:
        result = {**envelope["result"], "for_llm": "ipc:" + envelope["result"]["for_llm"]}
        return StageResult("continue", {"tool": "weather_v2", "result": result})

    pipeline = FakePipeline(after_tool=rewrite)
    (outcome,) = await run(pipeline)

    (end,) = pipeline.events("agent.tool.exec_end")
    assert payload(end)["Tool"] == "weather_v2"
    assert payload(end)["ForLLMLen"] == len("ipc:sunny")
    assert outcome.messages[2]["content"] == "ipc:sunny"
    assert payload(pipeline.events("agent.turn.end")[0])["ToolKinds"] == ["weather_v2"]


async def test_after_tool_partial_envelope_keeps_name_and_result() -> None:
    pipeline = FakePipeline(after_tool=lambda envelope: StageResult("continue", {}))
    (outcome,) = await run(pipeline)
    assert outcome.messages[2]["content"] == "sunny"
    assert outcome.tool_executions[0].name == "get_weather"


async def test_before_llm_model_rewrite_reaches_event_and_after_llm_only() -> None:
    def rewrite(request: dict[str, Any]) -> StageResult:
        messages = [*request["messages"], {"role": "user", "content": "injected"}]
        return StageResult("continue", {**request, "model": "process-model", "messages": messages})

    pipeline = FakePipeline(before_llm=rewrite)
    (outcome,) = await run(pipeline)

    assert payload(pipeline.events("agent.llm.request")[0])["Model"] == "process-model"
    assert payload(pipeline.events("agent.llm.request")[0])["MessagesCount"] == 3
    assert pipeline.calls("after_llm")[0]["model"] == "process-model"
    assert all(message["content"] != "injected" for message in outcome.messages)


async def test_after_llm_response_replaces_the_llm_reply() -> None:
    def answer_directly(envelope: dict[str, Any]) -> StageResult:
        response = {"content": "provider content|ipc", "finish_reason": "stop"}
        return StageResult("continue", {**envelope, "response": response})

    pipeline = FakePipeline(after_llm=answer_directly)
    (outcome,) = await run(pipeline)

    assert "before_tool" not in pipeline.trail
    assert payload(pipeline.events("agent.llm.response")[0]) == {
        "ContentLen": len("provider content|ipc"),
        "ToolCalls": 0,
        "HasReasoning": False,
    }
    assert (outcome.status, outcome.final_content, outcome.iterations) == (
        COMPLETED,
        "provider content|ipc",
        1,
    )


async def test_tool_calls_added_to_the_final_reply_run_out_of_script() -> None:
    def add_call(envelope: dict[str, Any]) -> StageResult:
        response = dict(envelope["response"])
        response.setdefault("tool_calls", [templates.tool_call("extra", "get_weather", {})])
        return StageResult("continue", {**envelope, "response": response})

    pipeline = FakePipeline(after_llm=add_call)
    (outcome,) = await run(pipeline)

    assert outcome.status == ERROR
    assert "no LLM reply left" in (outcome.error or "")
    # the unscripted call still ran, with the default result
    assert outcome.messages[-1] == {"role": "tool", "content": "ok", "tool_call_id": "extra"}


async def test_history_carries_across_rounds_and_turns() -> None:
    text = """\
    system: sys
    turns:
      - user: first
        rounds:
          - content: looking
            tool_calls:
              - {tool: read, arguments: {path: a}, result: A}
              - {tool: read, arguments: {path: b}, result: B}
          - content: done one
      - user: second
        rounds:
          - content: done two
    """
    pipeline = FakePipeline()
    first, second = await run(pipeline, text)

    assert first.messages == [
        {"role": "user", "content": "first"},
        {
            "role": "assistant",
            "content": "looking",
            "tool_calls": [
                templates.tool_call("call_1", "read", {"path": "a"}),
                templates.tool_call("call_2", "read", {"path": "b"}),
            ],
        },
        {"role": "tool", "content": "A", "tool_call_id": "call_1"},
        {"role": "tool", "content": "B", "tool_call_id": "call_2"},
        {"role": "assistant", "content": "done one"},
    ]
    requests = pipeline.calls("before_llm")
    assert requests[1]["messages"] == [{"role": "system", "content": "sys"}, *first.messages[:4]]
    assert requests[2]["messages"] == [
        {"role": "system", "content": "sys"},
        *first.messages,
        {"role": "user", "content": "second"},
    ]
    assert requests[2]["meta"]["TurnID"] == "turn-2"
    assert requests[2]["meta"]["Iteration"] == 1
    assert second.messages == [
        *first.messages,
        {"role": "user", "content": "second"},
        {"role": "assistant", "content": "done two"},
    ]
    ids = [int(event["id"].removeprefix("evt-")) for event in pipeline.events()]
    assert ids == list(range(1, len(ids) + 1))
    assert [e["scope"]["turn_id"] for e in pipeline.events("agent.turn.start")] == [
        "turn-1",
        "turn-2",
    ]
    assert payload(pipeline.events("agent.turn.end")[0])["ToolKinds"] == ["read"]


async def test_hard_abort_in_a_later_turn_restores_the_earlier_history() -> None:
    text = """\
    turns:
      - user: one
        rounds: [{content: fine}]
      - user: two
        rounds: [{content: never}]
    """
    seen = itertools.count()
    pipeline = FakePipeline(
        before_llm=lambda r: StageResult("hard_abort" if next(seen) else "continue", r)
    )
    first, second = await run(pipeline, text)
    assert second.status == ABORTED
    assert second.messages == first.messages
