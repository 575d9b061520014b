"""Typed values back to plain JSON values, exactly as PicoClaw's json.Marshal writes them: what
a hook is sent, and what the chain goes on with."""

from __future__ import annotations

import json
from typing import Any

from inspector.hosts.picoclaw.gojson.encode import marshal
from inspector.hosts.picoclaw.gojson.schemas import PARAMS, TOOL_RESULT
from inspector.jsonrpc.messages import GoEncoded


class ParamsWriter:
    """One stage's typed params as JSON objects, encoding each typed value once: the value a
    hook was sent and then handed on unchanged needs only a fresh parse of the same text.
    Typed values are never changed in place, so the same object means the same text."""

    def __init__(self, stage: str) -> None:
        self._go_type = PARAMS[stage]
        self._value: dict[str, Any] | None = None
        self._text = ""

    def plain(self, value: dict[str, Any]) -> GoEncoded:
        """`value` as JSON objects, carrying the text PicoClaw would send (a fresh copy each
        time: whoever gets it may keep it)."""
        if value is not self._value:
            self._value, self._text = value, marshal(value, self._go_type)
        return GoEncoded(_plain(self._text), self._text)


def plain_tool_result(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """A before_tool respond's typed ToolResult as JSON, or None when there is none."""
    return None if value is None else _plain(marshal(value, TOOL_RESULT))


def _go_integer(text: str) -> int | float:
    return -0.0 if text == "-0" else int(text)


# Go writes a float64 negative zero as -0, which Python would read as the integer 0. One decoder
# for every call: json.loads with an option builds a new one each time.
_GO_NUMBERS = json.JSONDecoder(parse_int=_go_integer)


def _plain(text: str) -> Any:
    return _GO_NUMBERS.decode(text)
