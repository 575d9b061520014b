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
