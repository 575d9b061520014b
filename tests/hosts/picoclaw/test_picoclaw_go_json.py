"""The PicoClaw decoder where the recorded corpus does not reach: Go's JSON details, PicoClaw's
Clone, and the findings read off a decoded answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.engine import Engine
from inspector.hosts.picoclaw.decode import decode_answer, read_line, typed_params
from inspector.hosts.picoclaw.gojson.decode import GoDecodeError, unmarshal
from inspector.hosts.picoclaw.gojson.encode import go_float, marshal
from inspector.hosts.picoclaw.gojson.schemas import BEFORE_TOOL_ANSWER, LLM_HOOK_REQUEST, PARAMS
from inspector.hosts.picoclaw.gojson.syntax import GoSyntaxError, parse
from inspector.hosts.picoclaw.gojson.types import GoTime, deep_equal
from inspector.hosts.picoclaw.line_findings import invalid_utf8
from inspector.hosts.picoclaw.outcome import DENIED
from inspector.jsonrpc.stages import RESPOND
from tests.support.scripted import config_of, scripted

CALL = {"meta": {}, "tool": "echo_text", "arguments": {"text": "hi"}}


def _answer(stage: str, result: Any, sent: dict[str, Any], raw: bytes | None = None):
    line = raw or json.dumps({"jsonrpc": "2.0", "id": 2, "result": result}).encode()
    return decode_answer(stage, read_line(line), typed_params(stage, sent), "hook")


@pytest.mark.parametrize(
    ("number", "spelled"),
    [
        (100.0, "100"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1.5e-7, "1.5e-7"),
        (-0.0, "-0"),
        (0.000001, "0.000001"),
        (2.0**53 + 1, "9007199254740992"),
    ],
)
def test_floats_are_spelled_as_go_spells_them(number: float, spelled: str) -> None:
    assert go_float(number) == spelled


async def test_a_hook_is_sent_numbers_spelled_as_go_spells_them() -> None:
    options = {"big": 1e20, "tiny": 1.5e-7, "small": 0.00001, "zero": -0.0}
    params = {"meta": {}, "model": "m", "messages": [], "options": options}
    hook = scripted("llm", intercept=("before_llm",))
    async with Engine(config_of(hook)) as engine:
        await engine.runtime.pipeline.before_llm(params, source="t", turn="t1")
    (sent,) = [e.raw_request for e in engine.journal.exchanges() if e.method == "hook.before_llm"]
    assert sent is not None
    spelled = '"options":{"big":100000000000000000000,"small":0.00001,"tiny":1.5e-7,"zero":-0}'
    assert spelled in sent  # Python would write 1e+20, 1e-05, 1.5e-07 and -0.0


def test_a_repeated_key_fills_the_object_the_first_one_made() -> None:
    text = b'{"call":{"tool":"a","arguments":{"x":1}},"Call":{"tool":"b","arguments":{"y":2}}}'
    answer = unmarshal(text, BEFORE_TOOL_ANSWER)
    assert answer["call"]["tool"] == "b"
    assert answer["call"]["arguments"] == {"x": 1.0, "y": 2.0}


def test_a_tool_without_parameters_is_sent_with_an_empty_map_and_echoes_unchanged() -> None:
    request = {"model": "m", "tools": [{"type": "function", "function": {"name": "f"}}]}
    current = typed_params("before_llm", request)
    assert '"parameters":{}' in marshal(current, LLM_HOOK_REQUEST)
    echoed = {
        **request,
        "tools": [{"type": "function", "function": {"name": "f", "parameters": None}}],
    }
    decoded = _answer("before_llm", {"request": echoed}, request)
    assert not decoded.tools_restored
    assert '"parameters":null' in decoded.value_json()


def test_cloning_turns_an_empty_route_dimension_list_into_null() -> None:
    call = {**CALL, "context": {"route": {"SessionPolicy": {"Dimensions": []}}}}
    sent = marshal(typed_params("before_tool", call), PARAMS["before_tool"])
    assert '"SessionPolicy":{"Dimensions":null,"IdentityLinks":null}' in sent


def test_times_are_rewritten_as_go_writes_them() -> None:
    request = {"messages": [{"role": "user", "created_at": "2026-06-13T18:19:35.500+02:00"}]}
    sent = marshal(typed_params("before_llm", request), LLM_HOOK_REQUEST)
    assert '"created_at":"2026-06-13T18:19:35.5+02:00"' in sent
    with pytest.raises(GoDecodeError, match='parsing time "soon"'):
        unmarshal(b'{"messages":[{"created_at":"soon"}]}', LLM_HOOK_REQUEST)


def test_syntax_errors_get_go_words() -> None:
    with pytest.raises(GoSyntaxError, match="invalid character '2' after array element"):
        parse(b"[02]")
    with pytest.raises(GoSyntaxError, match="invalid character 'N' looking for beginning"):
        parse(b"NaN")


def test_a_null_approved_is_a_denial_and_a_finding() -> None:
    decoded = _answer("approve_tool", {"approved": None}, CALL)
    assert decoded.taken == DENIED
    assert [f.code for f in decoded.findings] == ["approval-missing-approved"]


def test_respond_without_result_keeps_its_reason_and_says_the_original_call_runs() -> None:
    decoded = _answer("before_tool", {"action": "respond", "reason": "mine"}, CALL)
    assert (decoded.taken, decoded.reason, decoded.hook_result) == (RESPOND, "mine", None)
    (finding,) = decoded.findings
    assert finding.code == "respond-without-result"
    assert "Keeps the hook's reason" in finding.host_does


def test_a_wrong_type_deep_inside_is_reported_with_go_text() -> None:
    result = {"action": "modify", "call": {**CALL, "arguments": {"n": 1}, "hook_result": []}}
    decoded = _answer("before_tool", result, CALL)
    assert decoded.taken == "skipped"
    (finding,) = decoded.findings
    assert finding.code == "wrong-type"
    assert finding.message == (
        "json: cannot unmarshal array into Go struct field "
        "processHookBeforeToolResponse.call.hook_result of type toolshared.ToolResult"
    )


def test_bytes_that_are_not_utf8_are_read_and_reported() -> None:
    raw = b'{"jsonrpc":"2.0","id":2,"result":{"action":"deny_tool","reason":"caf\xe9"}}'
    decoded = _answer("before_tool", None, CALL, raw)
    assert (decoded.taken, decoded.reason) == ("deny_tool", "caf\ufffd")
    assert decoded.findings == []  # the bytes are the reader's finding, not the answer's
    assert [f.code for f in invalid_utf8(read_line(raw))] == ["invalid-utf8"]
    assert invalid_utf8(read_line(raw.replace(b"\xe9", b"\xc3\xa9"))) == []


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        ({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}, True),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),  # a map's order does not matter
        ([0.0], [-0.0], True),  # Go compares floats with ==
        ({"t": GoTime("2026-01-01T00:00:00Z")}, {"t": GoTime("2026-01-01T00:00:00Z")}, True),
        ({"a": 1}, {"a": 1.0}, False),  # an int is not a float
        ({"a": [True]}, {"a": [1]}, False),  # nor a bool
        ({"a": None}, {"a": []}, False),  # a nil slice is not an empty one
        ({"a": float("nan")}, {"a": float("nan")}, False),
        ({"a": "x"}, {"a": "y"}, False),
    ],
)
def test_deep_equal_is_reflect_deep_equal(a: object, b: object, equal: bool) -> None:
    assert deep_equal(a, b) is equal
    assert deep_equal(b, a) is equal
