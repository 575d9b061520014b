"""The input schemas of the Claude Code tools scenarios call (Bash, Read, Write, Edit), as the
CLI's bundle declares them (2.1.197 and 2.1.332 alike): Claude Code parses the model's input with
its tool's schema before PreToolUse, so the hooks and the tool see its defaults filled in
(Edit's replace_all: false), and it refuses a hook's updatedInput the schema rejects. Other
tools pass as they are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

JSONObject = dict[str, Any]


@dataclass(frozen=True)
class Field:
    kind: str  # "string", "number", "integer" or "boolean"
    required: bool = False
    default: Any = None  # None: none


_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
}
_PATH = Field("string", required=True)
SCHEMAS: dict[str, dict[str, Field]] = {
    "Bash": {
        "command": Field("string", required=True),
        "timeout": Field("number"),
        "description": Field("string"),
        "run_in_background": Field("boolean"),
        "dangerouslyDisableSandbox": Field("boolean"),
    },
    "Read": {
        "file_path": _PATH,
        "offset": Field("integer"),
        "limit": Field("integer"),
        "pages": Field("string"),
    },
    "Write": {"file_path": _PATH, "content": Field("string", required=True)},
    "Edit": {
        "file_path": _PATH,
        "old_string": Field("string", required=True),
        "new_string": Field("string", required=True),
        "replace_all": Field("boolean", default=False),
    },
}


def with_defaults(tool: str, tool_input: JSONObject) -> JSONObject:
    """`tool_input` with the defaults of `tool`'s schema for the keys it leaves out."""
    schema = SCHEMAS.get(tool, {})
    defaults = {
        key: field.default
        for key, field in schema.items()
        if field.default is not None and key not in tool_input
    }
    return {**tool_input, **defaults}


def schema_problems(tool: str, tool_input: JSONObject) -> list[str]:
    """What `tool`'s schema refuses in `tool_input`, in Claude Code's words: a missing required
    key, a value of the wrong kind; none for a tool not known here. (Claude Code also refuses a
    key its schema lacks, which needs every tool's full schema: not checked.)"""
    problems = []
    for key, field in SCHEMAS.get(tool, {}).items():
        if key not in tool_input:
            if field.required:
                problems.append(f"The required parameter `{key}` is missing")
            continue
        value = tool_input[key]
        if not _is_kind(value, field.kind):
            expected = "number" if field.kind == "integer" else field.kind
            problems.append(
                f"The parameter `{key}` type is expected as `{expected}` but provided as "
                f"`{_kind_of(value)}`"
            )
    return problems


def schema_refusal(tool: str, problems: list[str]) -> str:
    """Claude Code's account of `problems` with `tool`'s input."""
    issues = "issue" if len(problems) == 1 else "issues"
    return f"{tool} failed due to the following {issues}:\n" + "\n".join(problems)


def _is_kind(value: object, kind: str) -> bool:
    if isinstance(value, bool):
        return kind == "boolean"
    return isinstance(value, _KINDS[kind])


def _kind_of(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "null" if value is None else "object"
