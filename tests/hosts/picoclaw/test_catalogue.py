"""The method catalogue and the request templates against the shapes PicoClaw really sends."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.hosts.picoclaw import catalogue, templates
from inspector.jsonrpc import messages as jsonrpc
from inspector.jsonrpc import stages

STAGE_METHODS = [stages.METHOD_FOR_STAGE[stage] for stage in stages.STAGES]
ALL_METHODS = [stages.HELLO, *STAGE_METHODS, stages.RUNTIME_EVENT, stages.LEGACY_EVENT]

META_KEYS = ["AgentID", "TurnID", "ParentTurnID", "SessionKey", "Iteration", "TracePath", "Source"]
PARAM_KEYS = {
    "hook.before_llm": ["meta", "context", "model", "messages", "tools", "options"],
    "hook.after_llm": ["meta", "context", "model", "response"],
    "hook.before_tool": ["meta", "context", "tool", "arguments"],
    "hook.approve_tool": ["meta", "context", "tool", "arguments"],
    "hook.after_tool": ["meta", "context", "tool", "arguments", "result", "duration"],
}
TRACE_PATHS = {
    "hook.before_llm": "turn.llm.request",
    "hook.after_llm": "turn.llm.response",
    "hook.before_tool": "turn.tool.before",
    "hook.approve_tool": "turn.tool.approve",
    "hook.after_tool": "turn.tool.after",
}
EVENT_KEYS = [
    "id",
    "kind",
    "time",
    "source",
    "scope",
    "correlation",
    "severity",
    "payload",
    "attrs",
]


def _mutate_everywhere(value: Any) -> None:
    if isinstance(value, dict):
        for item in value.values():
            _mutate_everywhere(item)
        value["mutated"] = True
    elif isinstance(value, list):
        for item in value:
            _mutate_everywhere(item)


# templates ------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ALL_METHODS)
def test_template_is_json_and_encodes_as_a_request_line(method: str) -> None:
    params = templates.template(method)
    assert json.loads(json.dumps(params)) == params
    line = jsonrpc.encode(jsonrpc.request(1, method, params))
    assert line.endswith(b"\n") and line.count(b"\n") == 1


@pytest.mark.parametrize("method", ALL_METHODS)
def test_template_is_fresh_on_every_call(method: str) -> None:
    before = json.dumps(templates.template(method))
    _mutate_everywhere(templates.template(method))
    assert json.dumps(templates.template(method)) == before


def test_template_rejects_unknown_method() -> None:
    with pytest.raises(ValueError, match=r"hook\.nope"):
        templates.template("hook.nope")


@pytest.mark.parametrize("method", STAGE_METHODS)
def test_stage_params_have_go_key_order(method: str) -> None:
    params = templates.template(method)
    assert list(params) == PARAM_KEYS[method]
    assert list(params["meta"]) == META_KEYS
    assert params["meta"]["TracePath"] == TRACE_PATHS[method]
    assert params["meta"]["Source"] == "runTurn"
    assert params["meta"]["ParentTurnID"] == ""


@pytest.mark.parametrize("method", STAGE_METHODS)
def test_context_is_inbound_route_scope_with_their_cases(method: str) -> None:
    params = templates.template(method)
    assert "channel" not in params and "chat_id" not in params  # the docs' top-level fields
    context = params["context"]
    assert list(context) == ["inbound", "route", "scope"]
    assert {"channel", "chat_id", "sender_id"} <= set(context["inbound"])
    assert all(key == key.lower() for key in context["inbound"])
    assert list(context["route"]) == [
        "AgentID",
        "Channel",
        "AccountID",
        "SessionPolicy",
        "MatchedBy",
    ]
    assert list(context["scope"]) == [
        "version",
        "agent_id",
        "channel",
        "account",
        "dimensions",
        "values",
    ]


def test_turn_context_always_has_channel_chat_and_sender() -> None:
    inbound = templates.turn_context()["inbound"]
    assert list(inbound) == ["channel", "chat_id", "sender_id"]
    context = templates.turn_context("telegram", "42", "7", account="bot", chat_type="group")
    inbound = context["inbound"]
    assert list(inbound) == ["channel", "account", "chat_id", "chat_type", "sender_id"]


def test_before_llm_carries_system_prompt_tools_and_sorted_options() -> None:
    params = templates.template("hook.before_llm")
    assert [m["role"] for m in params["messages"]] == ["system", "user"]
    names = [tool["function"]["name"] for tool in params["tools"]]
    assert names == ["exec", "read_file"]
    assert list(params["tools"][0]) == ["type", "function"]
    assert list(params["tools"][0]["function"]) == ["name", "description", "parameters"]
    assert list(params["options"]) == sorted(params["options"])


def test_after_llm_response_is_an_llm_response_without_role() -> None:
    response = templates.template("hook.after_llm")["response"]
    assert list(response) == [
        "content",
        "tool_calls",
        "finish_reason",
        "usage",
        "reasoning",
        "reasoning_details",
    ]
    assert "role" not in response
    assert list(response["usage"]) == ["prompt_tokens", "completion_tokens", "total_tokens"]


def test_tool_call_keeps_name_and_arguments_under_function_as_a_json_string() -> None:
    call = templates.tool_call("call_1", "exec", {"command": "ls"})
    assert list(call) == ["id", "type", "function"]
    assert call["type"] == "function"
    assert list(call["function"]) == ["name", "arguments"]
    assert json.loads(call["function"]["arguments"]) == {"command": "ls"}


def test_tool_result_always_has_its_flags() -> None:
    assert list(templates.tool_result("x")) == ["for_llm", "silent", "is_error", "async"]
    full = templates.tool_result("x", "shown", is_error=True, silent=True, async_=True)
    assert full == {
        "for_llm": "x",
        "for_user": "shown",
        "silent": True,
        "is_error": True,
        "async": True,
    }


def test_after_tool_result_is_a_tool_result_and_duration_is_nanoseconds() -> None:
    params = templates.template("hook.after_tool")
    assert list(params["result"]) == ["for_llm", "silent", "is_error", "async"]
    assert isinstance(params["duration"], int) and params["duration"] > 1_000_000


def test_omitempty_fields_are_left_out() -> None:
    meta = templates.meta("turn.tool.before")
    assert list(templates.tool_call_request(meta, None, "exec", {})) == ["meta", "tool"]
    assert list(templates.approval_request(meta, None, "exec", None)) == ["meta", "tool"]
    assert list(templates.llm_request(meta, None, "m", None, None, None)) == ["meta", "model"]
    assert list(templates.llm_response_envelope(meta, None, "m", None)) == ["meta", "model"]
    envelope = templates.tool_result_envelope(meta, None, "exec", None, None, 0)
    assert list(envelope) == ["meta", "tool", "duration"]


def test_hello_params() -> None:
    assert templates.hello_params("gate", ["tool", "approve"]) == {
        "name": "gate",
        "version": 1,
        "modes": ["tool", "approve"],
    }
    assert templates.hello_params("gate", []) == {"name": "gate", "version": 1}
    assert templates.template("hook.hello")["modes"] == ["observe", "llm", "tool", "approve"]


def test_runtime_event_is_the_full_events_envelope() -> None:
    event = templates.template("hook.runtime_event")
    assert list(event) == EVENT_KEYS
    assert event["source"] == {"component": "agent", "name": "main"}
    assert event["kind"] == "agent.tool.exec_start"
    assert event["correlation"] == {"trace_id": "turn.tool.start"}
    assert event["attrs"] == {"agent_source": "runTurn", "iteration": 1}
    assert event["severity"] == "info"


def test_runtime_event_keeps_empty_scope_and_correlation_but_drops_empty_attrs() -> None:
    event = templates.runtime_event(
        "agent.error",
        {"Stage": "llm", "Message": "boom"},
        agent_id="",
        session_key="",
        turn_id="",
        channel="",
        chat_id="",
        agent_source="",
        iteration=0,
    )
    assert event["scope"] == {} and event["correlation"] == {}
    assert "attrs" not in event
    assert event["severity"] == "error"


@pytest.mark.parametrize(
    ("kind", "payload", "severity"),
    [
        ("agent.tool.exec_end", {"Tool": "exec", "IsError": True}, "warn"),
        ("agent.turn.end", {"Status": "aborted"}, "warn"),
        ("agent.turn.end", {"Status": "completed"}, "info"),
    ],
)
def test_runtime_event_severity(kind: str, payload: dict[str, Any], severity: str) -> None:
    assert templates.runtime_event(kind, payload)["severity"] == severity


def test_legacy_event_has_pascal_case_and_a_numeric_kind() -> None:
    event = templates.template("hook.event")
    assert list(event) == ["Kind", "Time", "Meta", "Payload"]
    assert event["Kind"] == 8  # tool_exec_start in the legacy enum
    assert list(event["Meta"]) == META_KEYS
    assert templates.LEGACY_KIND_NUMBER["turn_start"] == 0
    assert templates.LEGACY_KIND_NUMBER["error"] == 18


def test_go_html_escaping_applies_to_templates() -> None:
    meta = templates.meta("turn.tool.before")
    params = templates.tool_call_request(meta, None, "exec", {"command": "a && b > c"})
    line = jsonrpc.encode(jsonrpc.request(2, "hook.before_tool", params))
    assert b"\\u0026\\u0026" in line and b"\\u003e" in line


# catalogue ------------------------------------------------------------------------------------


def test_catalogue_has_the_eight_methods() -> None:
    assert list(catalogue.METHODS) == ALL_METHODS
    for name, spec in catalogue.METHODS.items():
        assert spec.name == name
        assert catalogue.get(name) is spec
    assert catalogue.get("hook.unknown") is None


@pytest.mark.parametrize("stage", stages.STAGES)
def test_stage_specs_follow_stages(stage: str) -> None:
    spec = catalogue.METHODS[stages.METHOD_FOR_STAGE[stage]]
    assert spec.stage == stage
    assert spec.kind == "request"
    assert spec.result_key == stages.RESULT_KEY.get(stage)
    assert spec.allowed_actions == stages.ALLOWED_ACTIONS.get(stage, frozenset())
    assert not spec.removed


def test_hello_approve_and_notifications_allow_no_actions() -> None:
    for method in (stages.HELLO, "hook.approve_tool", stages.RUNTIME_EVENT, stages.LEGACY_EVENT):
        assert catalogue.METHODS[method].allowed_actions == frozenset()


def test_notifications_and_the_removed_legacy_event() -> None:
    assert catalogue.METHODS[stages.RUNTIME_EVENT].kind == "notification"
    legacy = catalogue.METHODS[stages.LEGACY_EVENT]
    assert legacy.kind == "notification"
    assert legacy.removed
    assert "2026-04-26" in legacy.note
    assert [spec.name for spec in catalogue.METHODS.values() if spec.removed] == ["hook.event"]


def test_llm_and_tool_pairs_are_sent_when_either_half_is_intercepted() -> None:
    for stage, other in (("before_llm", "after_llm"), ("before_tool", "after_tool")):
        for name in (stage, other):
            sent_when = catalogue.METHODS[stages.METHOD_FOR_STAGE[name]].sent_when
            assert stage in sent_when and other in sent_when


def test_specs_are_complete() -> None:
    for spec in catalogue.METHODS.values():
        assert spec.summary and spec.result_shape and spec.sent_when and spec.on_failure
        assert "\n" not in spec.summary
