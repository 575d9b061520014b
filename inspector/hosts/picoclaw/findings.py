"""Conformance findings for one decoded answer. They are read off the Decoded, so a finding
says only what the decoder (and so the host) does."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from inspector.findings.finding import Finding, Severity
from inspector.hosts.picoclaw import catalogue
from inspector.hosts.picoclaw.codes import finding
from inspector.hosts.picoclaw.gojson.decode import RawValue, field_for, fold
from inspector.hosts.picoclaw.gojson.schemas import (
    ANSWERS,
    LLM_RESPONSE,
    REPLACEMENT_KEY,
    TOOL_RESULT,
)
from inspector.hosts.picoclaw.gojson.syntax import JsonObject
from inspector.hosts.picoclaw.gojson.types import GoType, Map, Pointer, Slice, Struct, deep_equal
from inspector.hosts.picoclaw.outcome import DISCARDED, Decoded, RpcLine
from inspector.jsonrpc.stages import ACTIONS, CONTINUE, HELLO, RESPOND

_ACTION_HINTS = {"allow": CONTINUE, "approve": CONTINUE, "deny": "deny_tool", "block": "deny_tool"}
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
# What the agent loop takes from a replacement object (pipeline_llm.go, pipeline_execute.go):
# a change elsewhere (meta, context) has no effect on the turn.
_APPLIED_FIELDS = {
    "before_llm": ("model", "messages", "tools", "options"),
    "after_llm": ("response",),
    "before_tool": ("tool", "arguments"),
    "after_tool": ("tool", "result"),
}
_HELLO_FAILS = catalogue.METHODS[HELLO].on_failure


def mount_findings(line: RpcLine, failure: str) -> list[Finding]:
    """`failure` is the mount error PicoClaw reports for this hook.hello answer ("" for none)."""
    if not failure:
        return []
    if line.error is not None:
        detail = f"{line.error['code']} {line.error['message']}"
        message = f"{HELLO} answered with error {detail}"
        return [finding("rpc-error", message, severity="error", host_does=_HELLO_FAILS)]
    return [finding("hello-not-object", failure.partition(" result: ")[2] or failure)]


def findings_for(decoded: Decoded, line: RpcLine, current: dict[str, Any]) -> list[Finding]:
    """The bytes themselves (invalid-utf8) are the reader's to judge: see line_findings."""
    found: list[Finding] = []
    if line.method:
        message = f"a request for method {line.method!r} answers the pending call"
        found.append(finding("hook-initiated-request", message))
    if line.error is not None:
        severity: Severity = "warning" if decoded.stage == "approve_tool" else "info"
        detail = f"{line.error['code']} {line.error['message']}"
        return [*found, finding("rpc-error", f"answered with error {detail}", severity=severity)]
    if decoded.error:
        return [*found, _decode_failure(decoded)]
    raw = _raw(line.result)
    if decoded.stage == "approve_tool":
        return found + _approval(raw) + _unknown_keys("approve_tool", raw, [])
    found += _interceptor(decoded, raw, current)
    if decoded.taken == DISCARDED:
        return found  # the whole answer is ignored: its keys do not matter
    return found + _unknown_keys(decoded.stage, raw, _explained(decoded.stage, found))


def _explained(stage: str, found: list[Finding]) -> list[str]:
    """Key paths another finding already accounts for, so they are not also called unknown."""
    key = REPLACEMENT_KEY[stage]
    codes = {f.code for f in found}
    explained = [f"{key}."] if "flattened-envelope" in codes else []
    return explained + ([f"{key}.action"] if "action-nested" in codes else [])


def _decode_failure(decoded: Decoded) -> Finding:
    go_error = decoded.error.partition(" result: ")[2] or decoded.error
    if decoded.stage == "approve_tool" and "ApprovalDecision.approved " in go_error:
        return finding("approved-not-bool", go_error)
    if "into Go value of type" in go_error:
        return finding("result-not-object", go_error)
    return finding("wrong-type", go_error)


def _raw(value: RawValue | None) -> Any:
    """The answer's result as read: plain JSON values when the line had no duplicate keys (no
    need to build Go's syntax tree to look at it), else that tree."""
    if value is None:
        return None
    return value.plain if value.plain is not None else value.node


def _is_object(value: Any) -> bool:
    return isinstance(value, dict | JsonObject)


def _members(obj: dict[str, Any] | JsonObject) -> Iterable[tuple[str, Any]]:
    return obj.items() if isinstance(obj, dict) else obj


def _member(obj: Any, name: str) -> tuple[bool, Any]:
    """Whether a JSON object has a member Go matches to field `name`, and the last one's value."""
    if not _is_object(obj):
        return False, None
    matches = [value for key, value in _members(obj) if fold(key) == fold(name)]
    return bool(matches), matches[-1] if matches else None


def _approval(raw: Any) -> list[Finding]:
    if raw is None:
        return [finding("approval-missing-approved", "approval answer has no result")]
    present, approved = _member(raw, "approved")
    if not present:
        return [finding("approval-missing-approved", "approval answer has no approved")]
    if approved is None:
        return [finding("approval-missing-approved", "approved is null")]
    return []


def _interceptor(decoded: Decoded, raw: Any, current: dict[str, Any]) -> list[Finding]:
    stage = decoded.stage
    key = REPLACEMENT_KEY[stage]
    has_object, replacement = _member(raw, key)
    found: list[Finding] = []
    if not decoded.said and _member(replacement, "action")[0]:
        message = f"action is inside {key!r}; PicoClaw reads it only at the top of the result"
        found.append(finding("action-nested", message))
    if decoded.taken == DISCARDED:
        return [*found, _discarded(stage, decoded.said)]
    if decoded.taken == RESPOND and decoded.hook_result is None:
        message = "respond without a result (or call.hook_result)"
        found.append(finding("respond-without-result", message))
    if decoded.taken != CONTINUE:
        return found
    if stage in ("after_llm", "after_tool") and _flattened(stage, replacement):
        inner = "response.response" if stage == "after_llm" else "result.result"
        message = f"{key} is not the whole envelope; its fields belong under {inner}"
        return [*found, finding("flattened-envelope", message)]
    if has_object and replacement is not None:
        found += _replacement_checks(decoded, current)
    if decoded.messages_restored:
        what = "a system message changed" if _member(replacement, "messages")[1] else "no messages"
        found.append(finding("system-prompt-changed", f"request has {what}"))
    if decoded.tools_restored:
        what = "changed tool definitions" if _member(replacement, "tools")[1] else "no tools"
        found.append(finding("tools-changed", f"request has {what}"))
    changed = [
        f"{key}.{name}"
        for name in _APPLIED_FIELDS[stage]
        if not deep_equal((decoded.value or {})[name], current[name])
    ]
    if not found and decoded.said == CONTINUE and changed:
        message = f"action is continue, but it changes {', '.join(changed)}"
        found.append(finding("continue-with-changes", message))
    return found


def _discarded(stage: str, said: str) -> Finding:
    if said in ACTIONS:
        return finding("action-not-allowed", f"{stage} does not take {said!r}")
    hint = said.lower() if said.lower() in ACTIONS else _ACTION_HINTS.get(said.lower())
    suggestion = f"; did you mean {hint!r}?" if hint else ""
    return finding("unknown-action", f"action {said!r} is not an action{suggestion}")


def _flattened(stage: str, replacement: Any) -> bool:
    """An envelope with no inner object but fields of the inner object at its top."""
    inner_key, inner = (
        ("response", LLM_RESPONSE) if stage == "after_llm" else ("result", TOOL_RESULT)
    )
    if not _is_object(replacement) or _member(replacement, inner_key)[0]:
        return False
    return any(field_for(inner, key) is not None for key, _ in _members(replacement))


def _replacement_checks(decoded: Decoded, current: dict[str, Any]) -> list[Finding]:
    value = decoded.value or {}
    found: list[Finding] = []
    if decoded.stage == "before_tool":
        if not value["tool"]:
            found.append(finding("call-missing-tool", "call has no tool"))
        if current["arguments"] and not value["arguments"]:
            found.append(finding("call-missing-arguments", "call has no arguments"))
    elif decoded.stage == "before_llm":
        if current["model"] and not value["model"]:
            found.append(finding("request-missing-model", "request has no model"))
        if current["options"] and not value["options"]:
            found.append(finding("request-missing-options", "request has no options"))
    elif decoded.stage == "after_llm":
        asked = (current["response"] or {}).get("tool_calls")
        kept = (value["response"] or {}).get("tool_calls")
        if asked and not kept:
            message = f"response.response has no tool_calls; the model asked for {len(asked)}"
            found.append(finding("response-drops-tool-calls", message))
    return found


def _unknown_keys(stage: str, raw: Any, explained: list[str]) -> list[Finding]:
    found: list[str] = []
    _walk(raw, ANSWERS[stage], [], found)
    unknown = [path for path in found if not any(_under(path, prefix) for prefix in explained)]
    if not unknown:
        return []
    return [finding("unknown-key", "keys PicoClaw ignores: " + ", ".join(unknown))]


def _walk(node: Any, go_type: GoType, path: list[str], unknown: list[str]) -> None:
    """Appends to `unknown` the path of each key Go drops; `path` (the keys and indexes down to
    `node`) is written out only then. Members that hold no struct are not visited."""
    while isinstance(go_type, Pointer):
        go_type = go_type.elem
    if isinstance(go_type, Struct):
        if not _is_object(node):
            return
        for key, child in _members(node):
            field = field_for(go_type, key)
            if field is None:
                unknown.append(_unknown_key(go_type, "".join(path), key))
            elif _holds_struct(field.type):
                path.append(f"{key}.")
                _walk(child, field.type, path, unknown)
                path.pop()
    elif isinstance(go_type, Slice) and isinstance(node, list) and _holds_struct(go_type):
        for index, child in enumerate(node):
            path.append(f"{index}.")
            _walk(child, go_type.elem, path, unknown)
            path.pop()
    elif isinstance(go_type, Map) and _is_object(node) and _holds_struct(go_type):
        for key, child in _members(node):
            path.append(f"{key}.")
            _walk(child, go_type.elem, path, unknown)
            path.pop()


def _unknown_key(go_type: Struct, path: str, key: str) -> str:
    hint = _KEY_HINTS.get(key.lower())
    known = hint is not None and field_for(go_type, hint) is not None
    return f"{path}{key} (did you mean {hint!r}?)" if known else path + key


_HOLDS_STRUCT: dict[int, bool] = {}


def _holds_struct(go_type: GoType) -> bool:
    holds = _HOLDS_STRUCT.get(id(go_type))
    if holds is None:
        inner = go_type
        while isinstance(inner, (Pointer, Slice, Map)):
            inner = inner.elem
        holds = _HOLDS_STRUCT[id(go_type)] = isinstance(inner, Struct)
    return holds


def _under(path: str, prefix: str) -> bool:
    return fold(path).startswith(fold(prefix))
