"""j-cli's HookResult: how a hook's stdout is read (serde_json over the whole trimmed stdout) and
how results merge along the chain (`merge_hook_result_into`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from inspector.findings.command import stdout_noise
from inspector.findings.finding import Finding
from inspector.hosts.jcli.findings import bad_action, finding, unknown_keys

JSONObject = dict[str, Any]

TEXT_FIELDS = (
    "user_input",
    "assistant_output",
    "system_prompt",
    "tool_arguments",
    "tool_result",
    "tool_error",
    "retry_feedback",
    "additional_context",
    "system_message",
)
MESSAGE_FIELDS = ("messages", "inject_messages")
RESULT_FIELDS = (*TEXT_FIELDS, *MESSAGE_FIELDS, "action")
ACTIONS = ("stop", "skip")
ROLES = ("user", "assistant", "tool", "system")
# Written into the context, so later hooks in the chain see them. The other fields only reach
# the final result.
SEEN_BY_LATER_HOOKS = (
    "messages",
    "system_prompt",
    "user_input",
    "assistant_output",
    "tool_arguments",
    "tool_result",
)
KEPT_ON_HALT = ("action", "retry_feedback", "system_message")
_MESSAGE_TEXTS = ("content", "tool_call_id", "reasoning_content", "sender_name")
_TOOL_CALL_TEXTS = ("id", "name", "arguments")


@dataclass(slots=True)
class ResultRead:
    """A hook's stdout as j-cli reads it: a result (set fields only), or the parse error."""

    result: JSONObject | None
    error: str | None = None
    findings: list[Finding] = field(default_factory=list)


class _Object(dict[str, Any]):
    """A JSON object that remembers which keys it saw twice."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        seen: set[str] = set()
        self.repeated: list[str] = []
        for key, _ in pairs:
            if key in seen:
                self.repeated.append(key)
            seen.add(key)


def read_result(stdout: str, *, login_shell: bool) -> ResultRead:
    text = stdout.strip()
    if text in ("", "{}"):
        return ResultRead({})
    try:
        value = json.loads(text, object_pairs_hook=_Object)
    except (ValueError, RecursionError) as error:
        findings = stdout_noise(stdout, login_shell=login_shell) or [
            finding("jcli-not-json", f"stdout is not JSON: {_first_line(text)!r}")
        ]
        return ResultRead(None, f"invalid HookResult JSON: {error}", findings)
    if not isinstance(value, _Object):  # every JSON object is read as an _Object
        message = f"stdout is a JSON {_json_kind(value)}, not an object"
        return ResultRead(None, message, [finding("jcli-not-object", message)])
    problems = _problems(value)
    findings = [item for _, item in problems]
    findings += unknown_keys([key for key in value if key not in RESULT_FIELDS])
    if problems:
        return ResultRead(None, problems[0][0], findings)
    result = {key: item for key, item in value.items() if key in RESULT_FIELDS and item is not None}
    return ResultRead(result, None, findings)


def _problems(value: _Object) -> list[tuple[str, Finding]]:
    """What serde would reject, in document order: (error text, finding)."""
    problems: list[tuple[str, Finding]] = []
    for key in value.repeated:
        if key in RESULT_FIELDS:
            message = f"duplicate field `{key}`"
            problems.append((message, finding("jcli-duplicate-key", message)))
    for key, item in value.items():
        if item is None or key not in RESULT_FIELDS:
            continue
        if key == "action":
            if item not in ACTIONS:
                problems.append((f"unknown action {json.dumps(item)}", bad_action(item)))
        elif key in TEXT_FIELDS:
            if not isinstance(item, str):
                problems.append(_wrong_type(key, item))
        else:
            problems += _message_problems(key, item)
    return problems


def _message_problems(key: str, value: object) -> list[tuple[str, Finding]]:
    if not isinstance(value, list):
        return [_wrong_type(key, value, "a list of messages")]
    problems = []
    for index, message in enumerate(value):
        where = f"{key}[{index}]"
        if not isinstance(message, dict):
            problems.append(_wrong_type(where, message, "a message object"))
            continue
        role = message.get("role")
        if role not in ROLES:
            what = "has no role" if role is None else f"has role {json.dumps(role)}"
            error = f"{where} {what}; j-cli accepts {', '.join(ROLES)}"
            problems.append((error, finding("jcli-bad-role", error)))
        for name in _MESSAGE_TEXTS:
            item = message.get(name)
            # content is a plain String (null is an error); the others are Options
            optional_null = item is None and name != "content"
            if name in message and not isinstance(item, str) and not optional_null:
                problems.append(_wrong_type(f"{where}.{name}", item))
        calls = message.get("tool_calls")
        if calls is not None:
            problems += _tool_call_problems(f"{where}.tool_calls", calls)
    return problems


def _tool_call_problems(where: str, calls: object) -> list[tuple[str, Finding]]:
    if not isinstance(calls, list):
        return [_wrong_type(where, calls, "a list of {id, name, arguments}")]
    problems = []
    for index, call in enumerate(calls):
        if not isinstance(call, dict):
            problems.append(_wrong_type(f"{where}[{index}]", call, "an {id, name, arguments}"))
            continue
        for name in _TOOL_CALL_TEXTS:
            if not isinstance(call.get(name), str):
                problems.append(_wrong_type(f"{where}[{index}].{name}", call.get(name)))
    return problems


def _wrong_type(where: str, value: object, expected: str = "a string") -> tuple[str, Finding]:
    got = "nothing" if value is None else f"a JSON {_json_kind(value)}"
    message = f"{where} must be {expected}, got {got}"
    if where == "tool_arguments" and isinstance(value, dict):
        message += " (j-cli wants the arguments as JSON text: json.dumps them)"
    return message, finding("jcli-wrong-type", message)


def _json_kind(value: object) -> str:
    for kind, name in ((bool, "boolean"), ((int, float), "number"), (dict, "object")):
        if isinstance(value, kind):
            return name
    return "array" if isinstance(value, list) else "string"


def _first_line(text: str) -> str:
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= 60 else line[:57] + "..."


def merge(result: JSONObject, context: JSONObject, final: JSONObject) -> None:
    """One hook's result into the context later hooks see and into the chain's final result."""
    for key, value in result.items():
        if key == "inject_messages":
            final[key] = [*final.get(key, []), *value]
        elif key != "action":
            final[key] = value
            if key in SEEN_BY_LATER_HOOKS:
                context[key] = value


def halt(result: JSONObject) -> JSONObject:
    """What a stop or skip leaves of the whole chain: this hook's action, retry_feedback and
    system_message, nothing else."""
    return {key: result[key] for key in KEPT_ON_HALT if key in result}
