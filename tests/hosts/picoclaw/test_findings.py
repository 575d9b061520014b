"""Conformance findings: each code fires on a minimal bad answer and never on a faithful one."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from inspector.hosts.picoclaw import line_findings, templates
from inspector.hosts.picoclaw.codes import CODES
from inspector.hosts.picoclaw.decode import decode_answer, hello_findings, read_line, typed_params
from inspector.journal.records import Finding
from inspector.jsonrpc.stages import STAGE_FOR_METHOD

JSON = dict[str, Any]
NO_RESULT = object()  # a response message without a result key


def params(method: str) -> JSON:
    return templates.template(method)


def message(result: Any) -> JSON:
    msg: JSON = {"jsonrpc": "2.0", "id": 2}
    if result is not NO_RESULT:
        msg["result"] = result
    return msg


def answer_findings(method: str, answer: JSON) -> list[Finding]:
    """What the inspector says about `answer` to a `method` call of the template params: read by
    PicoClaw's decoder, as the pipeline reads every answer."""
    line = read_line(json.dumps(answer).encode())
    if method == "hook.hello":
        return hello_findings(line, "h")
    stage = STAGE_FOR_METHOD[method]
    return decode_answer(stage, line, typed_params(stage, params(method)), "h").findings


def check(method: str, result: Any, *, duration_ms: float = 3.0, timeout_ms: float = 5000) -> list:
    slow = line_findings.slow_answer(method, duration_ms, timeout_ms)
    return answer_findings(method, message(result)) + slow


def codes(found: list[Finding]) -> list[str]:
    return [finding.code for finding in found]


# What PicoClaw's own Go helper process answers in `rewrite` mode: the whole params, echoed.
def rewrite_before_llm() -> JSON:
    request = params("hook.before_llm")
    request["model"] = "process-model"
    return {"action": "modify", "request": request}


def rewrite_after_llm() -> JSON:
    envelope = params("hook.after_llm")
    envelope["response"]["content"] += "|ipc"
    return {"action": "modify", "response": envelope}


def rewrite_before_tool() -> JSON:
    call = params("hook.before_tool")
    call["arguments"]["text"] = "ipc"
    return {"action": "modify", "call": call}


def rewrite_after_tool() -> JSON:
    envelope = params("hook.after_tool")
    envelope["result"]["for_llm"] = "ipc:" + envelope["result"]["for_llm"]
    return {"action": "modify", "result": envelope}


def user_message_edit() -> JSON:
    request = params("hook.before_llm")
    request["messages"][1]["content"] += " Be brief."
    return {"action": "modify", "request": request}


GOOD_ANSWERS: list[tuple[str, Any]] = [
    ("hook.hello", {"ok": True, "name": "python-review-gate"}),
    ("hook.hello", {}),
    ("hook.hello", None),
    ("hook.hello", NO_RESULT),
    ("hook.before_llm", rewrite_before_llm()),
    ("hook.before_llm", user_message_edit()),
    ("hook.before_llm", {}),
    ("hook.before_llm", {"action": "continue"}),
    ("hook.before_llm", {"action": "continue", "request": params("hook.before_llm")}),
    ("hook.after_llm", rewrite_after_llm()),
    ("hook.after_llm", {"action": "abort_turn", "reason": "budget exhausted"}),
    ("hook.before_tool", rewrite_before_tool()),
    ("hook.before_tool", {"action": "continue"}),
    ("hook.before_tool", {"action": "deny_tool", "reason": "no network"}),
    ("hook.before_tool", {"action": "hard_abort"}),
    ("hook.before_tool", {"action": "respond", "result": templates.tool_result("cached")}),
    (
        "hook.before_tool",
        {"action": "respond", "call": {"hook_result": templates.tool_result("cached")}},
    ),
    ("hook.before_tool", {"Action": "modify", "Call": rewrite_before_tool()["call"]}),
    ("hook.before_tool", NO_RESULT),
    ("hook.approve_tool", {"approved": True}),
    ("hook.approve_tool", {"approved": False, "reason": "blocked by ipc hook"}),
    ("hook.after_tool", rewrite_after_tool()),
    ("hook.after_tool", {}),
]


@pytest.mark.parametrize(("method", "result"), GOOD_ANSWERS)
def test_faithful_answers_have_no_findings(method: str, result: Any) -> None:
    assert check(method, result) == []


# Minimal bad answers --------------------------------------------------------------------------


def bad_system_prompt() -> JSON:
    request = params("hook.before_llm")
    request["messages"][0]["content"] = "You are a pirate."
    return {"action": "modify", "request": request}


def injected_tool() -> JSON:
    request = params("hook.before_llm")
    weather = templates.tool_definition("get_weather", "Weather", {"type": "object"})
    request["tools"].append(weather)
    return {"action": "modify", "request": request}


def without(method: str, key: str, **changes: Any) -> JSON:
    obj = params(method)
    del obj[key]
    obj.update(changes)
    return obj


def dropped_tool_calls() -> JSON:
    envelope = params("hook.after_llm")
    del envelope["response"]["tool_calls"]
    return {"action": "modify", "response": envelope}


def changed_under_continue() -> JSON:
    call = params("hook.before_tool")
    call["arguments"]["command"] = "rtk pytest tests/test_checkout.py -q"
    return {"action": "continue", "call": call}


def nested_action() -> JSON:
    call = params("hook.before_tool")
    call["action"] = "modify"
    return {"call": call}


BAD_ANSWERS: list[tuple[str, str, Any]] = [
    ("hello-not-object", "hook.hello", True),
    ("hello-not-object", "hook.hello", "ok"),
    ("result-not-object", "hook.before_tool", "continue"),
    ("result-not-object", "hook.approve_tool", [True]),
    (
        "wrong-type",
        "hook.before_tool",
        {"action": "modify", "call": {"tool": "exec", "arguments": "{}"}},
    ),
    ("wrong-type", "hook.before_llm", {"action": 1}),
    ("wrong-type", "hook.after_tool", {"result": {"tool": "exec", "duration": 1.5}}),
    ("wrong-type", "hook.approve_tool", {"approved": True, "reason": 3}),
    ("unknown-action", "hook.before_tool", {"action": "MODIFY"}),
    ("unknown-action", "hook.before_tool", {"action": "allow"}),
    ("action-not-allowed", "hook.before_llm", {"action": "deny_tool"}),
    ("action-not-allowed", "hook.after_tool", {"action": "respond"}),
    ("action-nested", "hook.before_tool", nested_action()),
    ("flattened-envelope", "hook.after_tool", {"action": "modify", "result": {"for_llm": "x"}}),
    (
        "flattened-envelope",
        "hook.after_llm",
        {"action": "modify", "response": {"role": "assistant", "content": "x"}},
    ),
    (
        "call-missing-tool",
        "hook.before_tool",
        {"action": "modify", "call": {"arguments": {"command": "ls"}}},
    ),
    ("call-missing-arguments", "hook.before_tool", {"action": "modify", "call": {"tool": "exec"}}),
    ("respond-without-result", "hook.before_tool", {"action": "respond"}),
    ("approval-missing-approved", "hook.approve_tool", {}),
    ("approval-missing-approved", "hook.approve_tool", None),
    ("approval-missing-approved", "hook.approve_tool", NO_RESULT),
    ("approval-missing-approved", "hook.approve_tool", {"action": "continue"}),
    ("approved-not-bool", "hook.approve_tool", {"approved": "true"}),
    ("approved-not-bool", "hook.approve_tool", {"approved": 1}),
    ("system-prompt-changed", "hook.before_llm", bad_system_prompt()),
    ("tools-changed", "hook.before_llm", injected_tool()),
    (
        "request-missing-model",
        "hook.before_llm",
        {"action": "modify", "request": without("hook.before_llm", "model")},
    ),
    (
        "request-missing-options",
        "hook.before_llm",
        {"action": "modify", "request": without("hook.before_llm", "options")},
    ),
    ("response-drops-tool-calls", "hook.after_llm", dropped_tool_calls()),
    ("continue-with-changes", "hook.before_tool", changed_under_continue()),
    ("unknown-key", "hook.before_tool", {"action": "continue", "decision": "modify"}),
    ("unknown-key", "hook.approve_tool", {"approved": True, "allow": True}),
]


@pytest.mark.parametrize(("code", "method", "result"), BAD_ANSWERS)
def test_bad_answer_fires_its_code(code: str, method: str, result: Any) -> None:
    assert code in codes(check(method, result))


def test_rpc_error_consequence_depends_on_the_method() -> None:
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "method not found"}}
    severities = {}
    for method in ("hook.hello", "hook.before_tool", "hook.approve_tool"):
        found = answer_findings(method, error)
        assert codes(found) == ["rpc-error"]
        assert "-32601 method not found" in found[0].message
        severities[method] = found[0].severity
        assert found[0].host_does
    assert severities == {
        "hook.hello": "error",
        "hook.before_tool": "info",
        "hook.approve_tool": "warning",
    }
    [deny] = answer_findings("hook.approve_tool", error)
    assert "denies" in deny.host_does


def test_slow_answer_fires_over_80_percent_of_the_timeout() -> None:
    assert codes(check("hook.before_tool", {}, duration_ms=4001)) == ["slow-answer"]
    assert check("hook.before_tool", {}, duration_ms=4000) == []
    assert check("hook.hello", {}, duration_ms=99_999, timeout_ms=0) == []


def test_unknown_action_hints_at_case_and_synonyms() -> None:
    assert "'modify'" in check("hook.before_tool", {"action": "MODIFY"})[0].message
    assert "'continue'" in check("hook.before_tool", {"action": "allow"})[0].message


def test_flattened_envelope_does_not_also_report_its_fields_as_unknown() -> None:
    found = check("hook.after_tool", {"action": "modify", "result": {"for_llm": "x"}})
    assert codes(found) == ["flattened-envelope"]


def test_nested_action_is_not_also_reported_as_unknown_or_as_a_change() -> None:
    assert codes(check("hook.before_tool", nested_action())) == ["action-nested"]


def test_issue_3258_shape_is_caught() -> None:
    result = {"decision": "modify", "call": {"tool": "exec", "args": {"command": "rtk ls"}}}
    found = check("hook.before_tool", result)
    assert codes(found) == ["call-missing-arguments", "unknown-key"]
    assert "call.args (did you mean 'arguments'?)" in found[1].message
    assert "decision (did you mean 'action'?)" in found[1].message


def test_a_discarded_answer_reports_only_the_discard() -> None:
    result = {"action": "respond", "result": {"for_llm": "x"}}
    assert codes(check("hook.after_tool", result)) == ["action-not-allowed"]


def test_continue_names_the_changed_fields_and_ignores_dropped_meta() -> None:
    [finding] = check("hook.before_tool", changed_under_continue())
    assert finding.message.endswith("changes call.arguments")
    call = params("hook.before_tool")
    del call["meta"], call["context"]
    assert check("hook.before_tool", {"action": "continue", "call": call}) == []


def test_decode_failure_hides_the_rest() -> None:
    result = {"action": "MODIFY", "call": {"tool": 5}}
    assert codes(check("hook.before_tool", result)) == ["wrong-type"]


def test_omitted_messages_and_tools_count_as_changes_the_guard_reverts() -> None:
    request = {"model": "m", "options": {"max_tokens": 1}}
    found = check("hook.before_llm", {"action": "modify", "request": request})
    assert codes(found) == ["system-prompt-changed", "tools-changed"]
    assert "no messages" in found[0].message and "no tools" in found[1].message


# stdout lines ---------------------------------------------------------------------------------

LINE_CHECKS: list[tuple[str, Callable[[], list[Finding]]]] = [
    ("stdout-not-json", lambda: line_findings.stdout_not_json("Expecting value")),
    ("oversized-line", lambda: line_findings.oversized_line(2_000_000)),
    ("unknown-id", lambda: line_findings.unknown_id(99)),
    ("late-answer", lambda: line_findings.late_answer(3, 17)),
    ("duplicate-id", lambda: line_findings.duplicate_id(3)),
    ("no-id", line_findings.missing_id),
    ("hook-initiated-request", lambda: line_findings.hook_initiated_request("host.log")),
    ("invalid-utf8", lambda: line_findings.invalid_utf8(read_line(b'{"id":1,"result":"\xe9"}'))),
]


@pytest.mark.parametrize(("code", "build"), LINE_CHECKS)
def test_line_finding_builders(code: str, build: Callable[[], list[Finding]]) -> None:
    [finding] = build()
    assert finding.code == code
    assert finding.severity == CODES[code].severity
    assert finding.message and finding.host_does


DECODED_LINES = [
    (b"starting up...", "stdout-not-json"),
    (b"[1, 2]", "not-object"),
    (b'{"jsonrpc":"2.0","id":"1","result":{}}', "bad-id"),
    (b'{"jsonrpc":"2.0","id":1.5,"result":{}}', "bad-id"),
    (b'{"jsonrpc":"2.0","id":-1,"result":{}}', "bad-id"),
    (b'{"jsonrpc":"2.0","id":1,"error":"oops"}', "bad-error"),
    (b'{"jsonrpc":"2.0","result":{}}', "no-id"),
    (b'{"jsonrpc":"2.0","id":0,"result":{}}', "no-id"),
    (b'{"jsonrpc":"2.0","method":"host.log","params":{}}', "hook-initiated-request"),
]


@pytest.mark.parametrize(("line", "code"), DECODED_LINES)
def test_every_line_the_reader_does_not_take_has_its_finding(line: bytes, code: str) -> None:
    assert codes(line_findings.unread(read_line(line))) == [code]


def test_an_answer_line_is_taken() -> None:
    assert read_line(b'{"jsonrpc":"2.0","id":1,"result":{}}').kind == "answer"


def test_oversized_line_counts_the_newline() -> None:
    assert "1,048,577 bytes" in line_findings.oversized_line(1024 * 1024)[0].message


# the code catalogue ---------------------------------------------------------------------------


def all_fired() -> list[Finding]:
    fired = [finding for _, build in LINE_CHECKS for finding in build()]
    for line, _ in DECODED_LINES:
        fired += line_findings.unread(read_line(line))
    for _, method, result in BAD_ANSWERS:
        fired += check(method, result if result is NO_RESULT else copy.deepcopy(result))
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "x"}}
    fired += answer_findings("hook.after_llm", error)
    fired += check("hook.before_tool", {}, duration_ms=4900)
    return fired


# emitted by inspector.pipeline (the held-at codes by its gate, fired in
# tests/pipeline/test_gate.py)
PIPELINE_CODES = {"event-dropped", "observer-failed", "held-at-stage", "held-at-hook"}
BRIDGE_CODES = {  # emitted by inspector.bridge, and fired in tests/bridge/test_bridge.py
    "agent-deadline",
    "inspector-stopped",
    "relay-no-hooks",
    "relay-not-json",
    "relay-not-a-request",
    "relay-unknown-notification",
    "relay-line-too-long",
    "answer-too-long",
    "kinder-than-picoclaw",  # fired in tests/bridge/test_bridge_deadline.py, test_corpus_bridge.py
}


def test_every_code_fired_is_in_codes_and_every_code_can_fire() -> None:
    fired = {finding.code for finding in all_fired()}
    assert fired <= set(CODES)
    assert fired == set(CODES) - PIPELINE_CODES - BRIDGE_CODES


def test_every_finding_says_what_picoclaw_does() -> None:
    for finding in all_fired():
        assert finding.severity in ("error", "warning", "info")
        assert finding.host_does


def test_codes_are_kebab_case_with_complete_entries() -> None:
    for code, info in CODES.items():
        assert code == code.lower() and " " not in code and "_" not in code
        assert info.severity in ("error", "warning", "info")
        assert info.title and info.host
