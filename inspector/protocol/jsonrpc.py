"""JSON-RPC 2.0 messages as PicoClaw writes and reads them."""

from __future__ import annotations

import json
from typing import Any

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
