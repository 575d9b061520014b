"""JSON-RPC 2.0 messages as PicoClaw writes and reads them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

JSONRPC_VERSION = "2.0"
# One encoder for every line: json.dumps with options builds a new one per call (a few µs).
_COMPACT_UTF8 = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_GO_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def go_json(value: Any) -> str:
    """Compact JSON the way Go's encoding/json writes it: raw UTF-8, HTML characters escaped."""
    text = _COMPACT_UTF8.encode(value)
    if "<" in text or ">" in text or "&" in text or "\u2028" in text or "\u2029" in text:
        return text.translate(_GO_ESCAPES)
    return text  # most lines have none of them: no copy


def request(rpc_id: int, method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": JSONRPC_VERSION, "id": rpc_id, "method": method, "params": params}


def notification(method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": JSONRPC_VERSION, "method": method, "params": params}


def encode(message: dict[str, Any]) -> bytes:
    return go_json(message).encode() + b"\n"


IncomingKind = Literal["response", "ignored", "invalid"]


@dataclass(slots=True)
class Incoming:
    """One stdout line from a hook, classified the way PicoClaw's reader would treat it."""

    kind: IncomingKind
    text: str  # the line as text (bytes that are not UTF-8 replaced)
    message: dict[str, Any] | None = None
    rpc_id: int | None = None
    problem: str = ""  # why it is invalid or ignored
    code: str = ""  # the finding code for the problem


def decode(data: bytes) -> Incoming:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        replaced = data.decode("utf-8", errors="replace")
        problem = f"not UTF-8: {exc.reason}"
        return Incoming("invalid", replaced, problem=problem, code="stdout-not-json")
    try:
        message = json.loads(text)
    except ValueError as exc:
        return Incoming("invalid", text, problem=f"not JSON: {exc}", code="stdout-not-json")
    except RecursionError:  # Go's decoder gives up too, though only past 10,000 levels
        problem = "not JSON: nested too deep"
        return Incoming("invalid", text, problem=problem, code="stdout-not-json")
    if not isinstance(message, dict):
        problem = f"a JSON {type(message).__name__}, not an object"
        return Incoming("invalid", text, problem=problem, code="not-object")
    raw_id = message.get("id")
    if "id" in message and raw_id is not None and not _is_uint(raw_id):
        problem = f"id {json.dumps(raw_id)} is not an unsigned integer"
        return Incoming("invalid", text, message, problem=problem, code="bad-id")
    if "error" in message and not _is_rpc_error(message["error"]):
        problem = "error is not {code, message}"
        return Incoming("invalid", text, message, problem=problem, code="bad-error")
    if not raw_id:
        return Incoming("ignored", text, message, problem="no id", code="no-id")
    return Incoming("response", text, message, rpc_id=int(raw_id))


def _is_uint(value: Any) -> bool:
    """Whether Go can decode it into PicoClaw's uint64 id."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 64


def _is_rpc_error(value: Any) -> bool:
    if value is None:
        return True
    return (
        isinstance(value, dict)
        and isinstance(value.get("code", 0), int)
        and isinstance(value.get("message", ""), str)
    )
