"""JSON for the detail tabs: pretty-printed only when a tab is shown, and capped on screen."""

from __future__ import annotations

from typing import Any

from inspector.safe_text import json_dumps

MAX_LINES = 2_000


def pretty_lines(value: Any, *, sort_keys: bool = False) -> list[str]:
    """`value` as JSON indented by 2, one line per item, unsafe characters JSON-escaped."""
    return json_dumps(value, indent=2, sort_keys=sort_keys, default=str).split("\n")


def capped(lines: list[str], limit: int = MAX_LINES) -> list[str]:
    """The first `limit` lines, and a note of how many more there are."""
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"… {len(lines) - limit} more lines"]


def json_text(value: Any, limit: int = MAX_LINES) -> str:
    return "\n".join(capped(pretty_lines(value), limit))


# What a person looks for first in a call or an answer; the envelope and context go last.
FIRST_KEYS = ("method", "tool", "arguments", "action", "approved", "reason", "result", "params")
LAST_KEYS = ("meta", "context", "jsonrpc", "id")


def _rank(key: str) -> tuple[int, int]:
    if key in FIRST_KEYS:
        return 0, FIRST_KEYS.index(key)
    if key in LAST_KEYS:
        return 2, LAST_KEYS.index(key)
    return 1, 0  # in the order it came (the sort is stable)


def leading(value: Any) -> Any:
    """`value` with the keys that matter first at every level: the tool and arguments of a
    call, the action and reason of an answer, above meta and context. Same JSON, other order."""
    if isinstance(value, dict):
        return {key: leading(value[key]) for key in sorted(value, key=lambda k: _rank(str(k)))}
    if isinstance(value, list):
        return [leading(item) for item in value]
    return value
