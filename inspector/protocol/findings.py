"""Conformance findings: where PicoClaw would read a hook's output differently from what its
author most likely meant. Every finding carries a stable code from CODES and says what PicoClaw
would do."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.protocol import catalogue, stages
from inspector.protocol.finding import Finding, Severity
from inspector.protocol.framing import PICOCLAW_MAX_LINE
from inspector.protocol.jsonrpc import Incoming

JSONObject = dict[str, Any]


@dataclass(frozen=True, slots=True)
class CodeInfo:
    severity: Severity  # the usual severity; a finding may raise or lower it
    title: str
    picoclaw: str  # what PicoClaw does


_DISCARDS = (
    "Warns 'Hook returned unsupported action for stage', discards this hook's answer and goes "
    "on with the next hook."
)

CODES: dict[str, CodeInfo] = {
    # stdout lines (the first five are also jsonrpc.decode's codes)
    "stdout-not-json": CodeInfo(
        "warning",
        "stdout line is not JSON",
        "Logs 'Failed to decode process hook message' and skips the line.",
    ),
    "not-object": CodeInfo(
        "warning",
        "stdout line is JSON but not an object",
        "Fails to decode it, logs a warning and skips the line.",
    ),
    "bad-id": CodeInfo(
        "error",
        "id is not an unsigned integer",
        "Fails to decode the whole line (string, float or negative id) and skips it; "
        "the call it answers times out.",
    ),
    "bad-error": CodeInfo(
        "error",
        "error is not {code, message}",
        "Fails to decode the whole line and skips it; the call it answers times out.",
    ),
    "no-id": CodeInfo(
        "warning",
        "line has no id (or id 0)",
        "Ignores the line; if it was meant as an answer, the call times out.",
    ),
    "oversized-line": CodeInfo(
        "error",
        "stdout line over 1 MiB",
        "Stops reading this hook's stdout for good, without a log: every later call times out "
        "(interceptors skipped, approvals denied). The inspector keeps reading.",
    ),
    "unknown-id": CodeInfo("warning", "answer to an id that was never sent", "Drops it silently."),
    "late-answer": CodeInfo(
        "warning",
        "answer after its call timed out",
        "Drops it silently; the call had already failed open (interceptor) or closed (approval).",
    ),
    "duplicate-id": CodeInfo(
        "warning",
        "second answer to the same id",
        "Drops it silently; only the first answer counts.",
    ),
    "hook-initiated-request": CodeInfo(
        "warning",
        "hook sent a request or notification",
        "Accepts no RPC from hooks: ignores it, or, if its id happens to be pending, takes it as "
        "that call's answer with an empty result.",
    ),
    # answers
    "rpc-error": CodeInfo(
        "warning",
        "hook answered with a JSON-RPC error",
        "Treats the call as failed: hello fails, an interceptor is skipped (fail open), an "
        "approval denies (fail closed).",
    ),
    "hello-not-object": CodeInfo(
        "error",
        "hello result is not an object",
        "Fails to decode it, so hello fails: every hook of that load is unmounted and the agent "
        "loop does not start.",
    ),
    "result-not-object": CodeInfo(
        "error",
        "result is not an object",
        "Fails to decode it: an interceptor is skipped (fail open), an approval is denied.",
    ),
    "wrong-type": CodeInfo(
        "error",
        "a result field has the wrong JSON type",
        "Go's decoder rejects the whole result: an interceptor is skipped (fail open), an "
        "approval is denied.",
    ),
    "unknown-action": CodeInfo(
        "error", "action is not a PicoClaw action (they are case-sensitive)", _DISCARDS
    ),
    "action-not-allowed": CodeInfo("warning", "action not allowed at this stage", _DISCARDS),
    "action-nested": CodeInfo(
        "error",
        "action is inside the replacement object, not at the top level",
        "Reads action only at the top level, so the answer counts as continue (and the object "
        "still replaces the original).",
    ),
    "flattened-envelope": CodeInfo(
        "error",
        "after_llm/after_tool answer is not the whole envelope",
        "Decodes the flattened fields as unknown keys: the answer silently has no effect.",
    ),
    "call-missing-tool": CodeInfo(
        "error",
        "before_tool call has no tool",
        'Replaces the whole call: the tool name becomes "" and the call fails as tool not found.',
    ),
    "call-missing-arguments": CodeInfo(
        "warning",
        "before_tool call has no arguments",
        "Replaces the whole call: the tool runs with nil arguments.",
    ),
    "respond-without-result": CodeInfo(
        "warning",
        "respond without a result",
        "Warns 'Hook returned respond action but no HookResult provided' and falls through to "
        "approval and normal execution.",
    ),
    "approval-missing-approved": CodeInfo(
        "error",
        "approval answer has no approved field",
        'Treats it as a denial: only an explicit "approved": true approves.',
    ),
    "approved-not-bool": CodeInfo(
        "error",
        "approved is not true or false",
        "Fails to decode the answer, so the approval fails and the tool is denied.",
    ),
    "system-prompt-changed": CodeInfo(
        "warning",
        "before_llm changed a system message",
        "Logs 'Hook attempted to modify system prompt' and restores ALL original messages, so "
        "this hook's other message edits are lost too.",
    ),
    "tools-changed": CodeInfo(
        "warning",
        "before_llm changed the tool definitions",
        "Logs 'Hook attempted to modify tool definitions' and restores all original tools; "
        "injecting tools through before_llm no longer works.",
    ),
    "request-missing-model": CodeInfo(
        "warning",
        "before_llm request drops the model",
        "Replaces the whole request: the provider gets an empty model on the single-candidate "
        "path.",
    ),
    "request-missing-options": CodeInfo(
        "warning",
        "before_llm request drops the options",
        "Replaces the whole request: options become nil, so max_tokens, temperature and the rest "
        "are dropped.",
    ),
    "response-drops-tool-calls": CodeInfo(
        "warning",
        "after_llm response drops the tool calls",
        "Replaces the whole LLMResponse: the tool calls the model asked for are gone.",
    ),
    "continue-with-changes": CodeInfo(
        "info",
        "continue with a changed object",
        "Treats continue exactly like modify: the returned object is applied.",
    ),
    "unknown-key": CodeInfo(
        "info",
        "result has keys PicoClaw does not read",
        "Ignores them without a word (cf. issue #3258, a before_tool modify that did nothing).",
    ),
    "slow-answer": CodeInfo(
        "warning",
        "answer close to its timeout",
        "Gives up at the timeout: an interceptor is skipped, an approval is denied.",
    ),
    # runtime events (the pipeline emits these)
    "event-dropped": CodeInfo(
        "warning",
        "observer queue full: event not delivered",
        "Drops the newest event silently when its 64-event buffer is full; only counters "
        "record it.",
    ),
    "observer-failed": CodeInfo(
        "warning",
        "observer notification failed",
        "Logs a warning and goes on.",
    ),
    # bridge mode: a live agent behind `hook-inspector relay`
    "agent-deadline": CodeInfo(
        "warning",
        "the agent's deadline decided this call (held, cut short, or answered with the fallback)",
        "Gives up at its own deadline: an interceptor is skipped, an approval denied.",
    ),
    "inspector-stopped": CodeInfo(
        "warning",
        "the inspector stopped while the call was pending; the fallback answer went out",
        "Would have seen a dead hook: interceptors skipped, approvals denied.",
    ),
    "relay-not-json": CodeInfo(
        "warning",
        "a line from the agent that is not JSON",
        "Never writes such a line; something else is writing to the hook's stdin.",
    ),
    "relay-not-a-request": CodeInfo(
        "warning",
        "a line from the agent that is neither a request nor a notification",
        "Only sends requests and hook.runtime_event notifications.",
    ),
    "relay-unknown-notification": CodeInfo(
        "info",
        "a notification other than hook.runtime_event",
        "Sends only hook.runtime_event (hook.event was removed upstream).",
    ),
    "relay-line-too-long": CodeInfo(
        "warning",
        "a request line too long for the relay to pass on; it answered with the fallback",
        "Sends lines of any size; its own reader stops at 1 MiB only on the hook's side.",
    ),
}


def _finding(
    code: str, message: str, *, severity: Severity | None = None, picoclaw: str | None = None
) -> Finding:
    info = CODES[code]
    return Finding(code, severity or info.severity, message, picoclaw or info.picoclaw)


# ---------------------------------------------------------------------------------------------
# stdout lines


def stdout_not_json(problem: str) -> list[Finding]:
    return [_finding("stdout-not-json", f"stdout: {problem}")]


def oversized_line(size: int) -> list[Finding]:
    """`size` is the line's length on the wire without its newline, as framing.Line has it."""
    message = (
        f"stdout line of {size + 1:,} bytes with its newline is over PicoClaw's "
        f"{PICOCLAW_MAX_LINE:,}-byte limit"
    )
    return [_finding("oversized-line", message)]


def unknown_id(rpc_id: int) -> list[Finding]:
    return [_finding("unknown-id", f"answer with id {rpc_id}, which was never sent")]


def from_earlier_run(incoming: Incoming, pid: int | None) -> list[Finding]:
    """A line from a process the hook has since replaced (a grandchild that outlived it)."""
    if incoming.kind != "response":
        return decode_findings(incoming)
    message = f"answer with id {incoming.rpc_id} from an earlier process (pid {pid}), not matched"
    return [_finding("unknown-id", message)]


def late_answer(rpc_id: int, exchange_seq: int) -> list[Finding]:
    message = f"answer to id {rpc_id} (exchange #{exchange_seq}) arrived after the call timed out"
    return [_finding("late-answer", message)]


def duplicate_id(rpc_id: int) -> list[Finding]:
    return [_finding("duplicate-id", f"id {rpc_id} was already answered")]


def non_integer_id(raw: Any) -> list[Finding]:
    return [_finding("bad-id", f"id {json.dumps(raw)} is not an unsigned integer")]


def missing_id() -> list[Finding]:
    return [_finding("no-id", "line has no id (or id 0)")]


def hook_initiated_request(method: str) -> list[Finding]:
    return [_finding("hook-initiated-request", f"hook sent method {method!r} to the host")]


def decode_findings(incoming: Incoming) -> list[Finding]:
    """The findings for a line jsonrpc.decode did not classify as a response."""
    if incoming.kind == "response":
        return []
    message = incoming.message or {}
    if incoming.code == "stdout-not-json":
        return stdout_not_json(incoming.problem)
    if incoming.code == "bad-id":
        return non_integer_id(message.get("id"))
    if incoming.code == "no-id":
        method = message.get("method")
        return hook_initiated_request(method) if isinstance(method, str) else missing_id()
    return [_finding(incoming.code, incoming.problem)]


# ---------------------------------------------------------------------------------------------
# The result structs PicoClaw decodes answers into. A field maps to the Python type its JSON
# value must have, or to a nested struct. `object` means "not checked".

Schema = dict[str, Any]

_TOOL_RESULT: Schema = {
    "for_llm": str,
    "for_user": str,
    "silent": bool,
    "is_error": bool,
    "async": bool,
    "media": list,
    "artifact_tags": object,
    "response_handled": object,
}
_LLM_RESPONSE: Schema = {
    "content": str,
    "reasoning_content": str,
    "tool_calls": list,
    "finish_reason": str,
    "usage": dict,
    "reasoning": str,
    "reasoning_details": list,
}
_LLM_REQUEST: Schema = {
    "meta": dict,
    "context": dict,
    "model": str,
    "messages": list,
    "tools": list,
    "options": dict,
    "graceful_terminal": bool,
}
_LLM_ENVELOPE: Schema = {"meta": dict, "context": dict, "model": str, "response": _LLM_RESPONSE}
_TOOL_CALL: Schema = {
    "meta": dict,
    "context": dict,
    "tool": str,
    "arguments": dict,
    "channel": str,
    "chat_id": str,
    "hook_result": _TOOL_RESULT,
}
_TOOL_ENVELOPE: Schema = {
    "meta": dict,
    "context": dict,
    "tool": str,
    "arguments": dict,
    "result": _TOOL_RESULT,
    "duration": int,
}
_DECISION: Schema = {"action": str, "reason": str}
_APPROVAL: Schema = {"approved": bool, "reason": str}
_RESULTS: dict[str, Schema] = {
    "before_llm": {**_DECISION, "request": _LLM_REQUEST},
    "after_llm": {**_DECISION, "response": _LLM_ENVELOPE},
    "before_tool": {**_DECISION, "call": _TOOL_CALL, "result": _TOOL_RESULT},
    "after_tool": {**_DECISION, "result": _TOOL_ENVELOPE},
}

# What the pipeline takes from the replacement object (pipeline_llm.go, pipeline_execute.go).
_APPLIED_FIELDS = {
    "before_llm": ("model", "messages", "tools", "options"),
    "after_llm": ("response",),
    "before_tool": ("tool", "arguments"),
    "after_tool": ("tool", "result"),
}

_TYPE_NAMES = {
    str: "a string",
    bool: "true or false",
    int: "an integer",
    list: "an array",
    dict: "an object",
}
_KEY_HINTS = {
    "decision": "action",
    "args": "arguments",
    "params": "arguments",
    "input": "arguments",
    "tool_name": "tool",
    "name": "tool",
    "approve": "approved",
    "allow": "approved",
    "allowed": "approved",
}
_ACTION_HINTS = {
    "allow": stages.CONTINUE,
    "approve": stages.CONTINUE,
    "accept": stages.CONTINUE,
    "deny": stages.DENY_TOOL,
    "block": stages.DENY_TOOL,
    "reject": stages.DENY_TOOL,
    "abort": stages.ABORT_TURN,
}


def _fields(obj: JSONObject) -> JSONObject:
    """An object as Go's decoder reads it into a struct: keys match case-insensitively and the
    last one wins. Look fields up by their lower-case names."""
    return {key.lower(): value for key, value in obj.items()}


def _get(obj: JSONObject, name: str) -> Any:
    """One field of `obj` as Go's decoder fills it (see _fields)."""
    return _fields(obj).get(name)


def _walk(obj: JSONObject, schema: Schema, path: str, wrong: list[str], unknown: list[str]) -> None:
    # Exact type tests: decoded JSON holds only the exact built-in types, and they keep a
    # boolean from passing for an integer.
    for key, value in obj.items():
        expected = schema.get(key.lower())
        if expected is None:
            hint = _KEY_HINTS.get(key.lower())
            where = path + key
            unknown.append(f"{where} (did you mean {hint!r}?)" if hint in schema else where)
        elif value is None:
            continue  # null leaves any Go field at its zero value
        elif type(expected) is dict:
            if type(value) is dict:
                _walk(value, expected, f"{path}{key}.", wrong, unknown)
            else:
                wrong.append(f"{path}{key} should be an object")
        elif type(value) is not expected:
            wrong.append(f"{path}{key} should be {_TYPE_NAMES[expected]}")


def _shape(obj: JSONObject, schema: Schema) -> tuple[list[str], list[str]]:
    """Fields of the wrong type, and keys PicoClaw ignores."""
    wrong: list[str] = []
    unknown: list[str] = []
    _walk(obj, schema, "", wrong, unknown)
    return wrong, unknown


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "a string", list: "an array"}.get(type(value), "null")


def _on_failure(method: str, lead: str) -> str:
    return f"{lead} {catalogue.METHODS[method].on_failure}"


# ---------------------------------------------------------------------------------------------
# answers


def check_answer(
    method: str,
    params_sent: JSONObject | None,
    message: JSONObject,
    *,
    duration_ms: float | None,
    timeout_ms: float | None,
) -> list[Finding]:
    """Findings for a JSON-RPC response that matched a pending call of `method`."""
    found: list[Finding] = []
    if message.get("error") is not None:
        found.append(_rpc_error(method, message["error"]))
    elif method == stages.HELLO:
        found += _check_hello(message.get("result"))
    elif method == stages.METHOD_FOR_STAGE["approve_tool"]:
        found += _check_approval(message.get("result"))
    elif method in stages.STAGE_FOR_METHOD:
        stage = stages.STAGE_FOR_METHOD[method]
        found += _check_stage(stage, params_sent or {}, message.get("result"))
    return found + _slow_answer(method, duration_ms, timeout_ms)


def _rpc_error(method: str, error: Any) -> Finding:
    spec = catalogue.get(method)
    severity: Severity = "info"  # an interceptor that fails is skipped: nothing changes
    if method == stages.HELLO:
        severity = "error"
    elif spec and spec.stage == "approve_tool":
        severity = "warning"
    detail = f"{error.get('code')} {error.get('message')}" if isinstance(error, dict) else error
    return _finding(
        "rpc-error",
        f"{method} answered with error {detail}",
        severity=severity,
        picoclaw=spec.on_failure if spec else None,
    )


def _slow_answer(method: str, duration_ms: float | None, timeout_ms: float | None) -> list[Finding]:
    if not timeout_ms or duration_ms is None or duration_ms <= 0.8 * timeout_ms:
        return []
    share = duration_ms / timeout_ms
    message = f"answered in {duration_ms:.0f} ms, {share:.0%} of its {timeout_ms:.0f} ms timeout"
    spec = catalogue.get(method)
    picoclaw = f"Gives up at {timeout_ms:.0f} ms. {spec.on_failure}" if spec else None
    return [_finding("slow-answer", message, picoclaw=picoclaw)]


def _check_hello(result: Any) -> list[Finding]:
    if result is None or isinstance(result, dict):
        return []
    return [_finding("hello-not-object", f"hello result is {_json_type(result)}, not an object")]


def _result_not_object(method: str, result: Any) -> Finding:
    return _finding(
        "result-not-object",
        f"result is {_json_type(result)}, not an object",
        picoclaw=_on_failure(method, "Fails to decode the result."),
    )


def _wrong_type(method: str, wrong: list[str]) -> Finding:
    return _finding(
        "wrong-type",
        "; ".join(wrong),
        picoclaw=_on_failure(method, "Go's decoder rejects the whole result."),
    )


def _unknown_keys(unknown: list[str]) -> list[Finding]:
    if not unknown:
        return []
    return [_finding("unknown-key", "keys PicoClaw ignores: " + ", ".join(unknown))]


def _check_approval(result: Any) -> list[Finding]:
    method = stages.METHOD_FOR_STAGE["approve_tool"]
    if result is None:
        return [_finding("approval-missing-approved", "approval answer has no result")]
    if not isinstance(result, dict):
        return [_result_not_object(method, result)]
    approved = _get(result, "approved")
    if approved is not None and not isinstance(approved, bool):
        message = f"approved is {json.dumps(approved)}, not true or false"
        return [_finding("approved-not-bool", message)]
    wrong, unknown = _shape(result, _APPROVAL)
    if wrong:
        return [_wrong_type(method, wrong)]
    found = _unknown_keys(unknown)
    if approved is None:
        found.insert(0, _finding("approval-missing-approved", "approval answer has no approved"))
    return found


def _check_stage(stage: str, sent: JSONObject, result: Any) -> list[Finding]:
    method = stages.METHOD_FOR_STAGE[stage]
    if result is None:
        return []  # the zero value: continue, nothing replaced
    if not isinstance(result, dict):
        return [_result_not_object(method, result)]
    wrong, unknown = _shape(result, _RESULTS[stage])
    if wrong:
        return [_wrong_type(method, wrong)]
    fields = _fields(result)
    action = stages.normalize_action(fields.get("action"))
    rejected = _check_action(stage, action)
    if rejected:
        return rejected
    found, explained = _check_replacement(stage, sent, fields, action)
    if action == stages.RESPOND:
        found += _check_respond(fields, fields.get(stages.RESULT_KEY[stage]))
    return found + _unknown_keys([k for k in unknown if not k.lower().startswith(explained)])


def _check_replacement(
    stage: str, sent: JSONObject, result: JSONObject, action: str
) -> tuple[list[Finding], tuple[str, ...]]:
    """Findings about the object that replaces the params, and the key paths they explain.
    `result` is folded (see _fields)."""
    key = stages.RESULT_KEY[stage]
    replacement = result.get(key)
    if not isinstance(replacement, dict):
        return [], ()
    replacement = _fields(replacement)
    found: list[Finding] = []
    explained: list[str] = []
    if not result.get("action") and "action" in replacement:
        found.append(_nested_action(key, replacement["action"]))
        explained.append(f"{key}.action")
    if action in (stages.CONTINUE, stages.MODIFY):
        found += _CONTENT_CHECKS[stage](sent, replacement)
        if any(f.code == "flattened-envelope" for f in found):
            explained.append(f"{key}.")
        changed = _changed_fields(stage, sent, replacement)
        if not found and action == stages.CONTINUE and changed:
            found.append(_continue_with_changes(key, changed))
    return found, tuple(explained)


def _check_action(stage: str, action: str) -> list[Finding]:
    if action not in stages.ACTIONS:
        hint = action.lower() if action.lower() in stages.ACTIONS else _ACTION_HINTS.get(action)
        suggestion = f"; did you mean {hint!r}?" if hint else ""
        return [_finding("unknown-action", f"action {action!r} is not an action{suggestion}")]
    allowed = stages.ALLOWED_ACTIONS[stage]
    if action not in allowed:
        message = f"{stage} does not accept {action!r}; it accepts {', '.join(sorted(allowed))}"
        return [_finding("action-not-allowed", message)]
    return []


def _nested_action(key: str, nested: Any) -> Finding:
    message = f"action {json.dumps(nested)} is inside {key!r}; it belongs at the top of the result"
    return _finding("action-nested", message)


def _changed_fields(stage: str, sent: JSONObject, replacement: JSONObject) -> list[str]:
    """The fields the host goes on with that the hook returned (folded) with another value."""
    return [
        name
        for name in _APPLIED_FIELDS[stage]
        if replacement.get(name) is not None and replacement.get(name) != sent.get(name)
    ]


def _continue_with_changes(key: str, changed: list[str]) -> Finding:
    fields = ", ".join(f"{key}.{name}" for name in changed)
    return _finding("continue-with-changes", f"action is continue, but it changes {fields}")


def _check_respond(result: JSONObject, call: Any) -> list[Finding]:
    """`result` is folded (see _fields)."""
    hook_result = result.get("result")
    if hook_result is None and isinstance(call, dict):
        hook_result = _get(call, "hook_result")
    if hook_result is not None:
        return []
    message = "respond without a result (or call.hook_result)"
    return [_finding("respond-without-result", message)]


def _go_zero_stripped(value: Any) -> Any:
    """Drop zero values at every level, so an echo that omits an empty field (which Go's
    decoder leaves at zero) still compares equal to the original."""
    if isinstance(value, dict):
        stripped = {k: _go_zero_stripped(v) for k, v in value.items()}
        return {k: v for k, v in stripped.items() if v not in (None, "", False, [], {})}
    if isinstance(value, list):
        return [_go_zero_stripped(item) for item in value]
    return value


def _system_messages(messages: Any) -> list[tuple[int, Any]]:
    """PicoClaw's fingerprint: each system message with its index."""
    if not isinstance(messages, list):
        return []
    return [
        (index, _go_zero_stripped(m))
        for index, m in enumerate(messages)
        if isinstance(m, dict) and _get(m, "role") == "system"
    ]


# The content checks take the replacement folded (see _fields).


def _before_llm(sent: JSONObject, request: JSONObject) -> list[Finding]:
    found: list[Finding] = []
    messages = request.get("messages")
    if _system_messages(sent.get("messages")) != _system_messages(messages):
        what = "request has no messages" if messages is None else "a system message changed"
        found.append(_finding("system-prompt-changed", what))
    tools = request.get("tools")
    if _go_zero_stripped(sent.get("tools")) != _go_zero_stripped(tools):
        what = "request has no tools" if tools is None else "the tool definitions changed"
        found.append(_finding("tools-changed", what))
    if sent.get("model") and not request.get("model"):
        found.append(_finding("request-missing-model", "request has no model"))
    if sent.get("options") and not request.get("options"):
        found.append(_finding("request-missing-options", "request has no options"))
    return found


def _flattened(envelope: JSONObject, inner_key: str, inner: Schema) -> bool:
    """Fields of the inner object at the (folded) envelope's top level, and no inner object."""
    return inner_key not in envelope and any(key in inner for key in envelope)


def _after_llm(sent: JSONObject, envelope: JSONObject) -> list[Finding]:
    if _flattened(envelope, "response", {**_LLM_RESPONSE, "role": str}):
        message = (
            "response holds LLMResponse fields; it must be the whole envelope, "
            "with them under response.response"
        )
        return [_finding("flattened-envelope", message)]
    response = envelope.get("response")
    sent_response = sent.get("response") or {}
    asked = sent_response.get("tool_calls")
    if isinstance(response, dict) and asked and not _get(response, "tool_calls"):
        message = f"response.response has no tool_calls; the model asked for {len(asked)}"
        return [_finding("response-drops-tool-calls", message)]
    return []


def _before_tool(sent: JSONObject, call: JSONObject) -> list[Finding]:
    found: list[Finding] = []
    if not call.get("tool"):
        found.append(_finding("call-missing-tool", "call has no tool"))
    if sent.get("arguments") and not call.get("arguments"):
        found.append(_finding("call-missing-arguments", "call has no arguments"))
    return found


def _after_tool(sent: JSONObject, envelope: JSONObject) -> list[Finding]:
    if _flattened(envelope, "result", _TOOL_RESULT):
        message = (
            "result holds ToolResult fields; it must be the whole envelope, "
            "with them under result.result"
        )
        return [_finding("flattened-envelope", message)]
    return []


_CONTENT_CHECKS: dict[str, Callable[[JSONObject, JSONObject], list[Finding]]] = {
    "before_llm": _before_llm,
    "after_llm": _after_llm,
    "before_tool": _before_tool,
    "after_tool": _after_tool,
}
