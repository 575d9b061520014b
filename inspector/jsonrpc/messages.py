"""JSON-RPC 2.0 messages of the process-hook protocol, as PicoClaw (in Go) writes and reads them."""

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


class GoEncoded(dict[str, Any]):
    """A JSON object's members as plain values, with the exact text Go's encoder wrote for it
    (PicoClaw's json.Marshal of a stage's params): a request carrying it is written with that
    text, not encoded again. Like every value handed along a chain, never changed in place."""

    __slots__ = ("text",)

    def __init__(self, members: dict[str, Any], text: str) -> None:
        super().__init__(members)
        self.text = text


def request(rpc_id: int, method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": JSONRPC_VERSION, "id": rpc_id, "method": method, "params": params}


def request_text(rpc_id: int, method: str, params: Any) -> str:
    """go_json(request(rpc_id, method, params)), with GoEncoded params written as their text
    (which is also how Go spells its numbers: 1e+21, 0.00001, not Python's 1e+21 and 1e-05)."""
    if type(params) is GoEncoded:
        head = f'{{"jsonrpc":"{JSONRPC_VERSION}","id":{int(rpc_id)},"method":{go_json(method)}'
        return f'{head},"params":{params.text}}}'
    return go_json(request(rpc_id, method, params))


def notification(method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": JSONRPC_VERSION, "method": method, "params": params}


def encode(message: dict[str, Any]) -> bytes:
    return go_json(message).encode() + b"\n"
