"""The answers the relay gives by itself when hook-inspector cannot answer: what PicoClaw's host
does with a dead hook (interceptors skipped, approvals denied), so the agent carries on safely."""

from __future__ import annotations

import json

from inspector.relay.wire import APPROVAL_METHODS, INTERCEPTOR_METHODS

METHOD_NOT_FOUND = -32601
NOT_RUNNING = "hook-inspector is not running"
LOST = "the connection to hook-inspector was lost"


def too_late(ms: int) -> str:
    return f"hook-inspector did not answer within {ms} ms"


def stalled(ms: int) -> str:
    return f"hook-inspector stopped answering (nothing from it for {ms} ms)"


def refused(reason: str) -> str:
    return f"hook-inspector refused this relay ({reason})"


def untrusted(reason: str) -> str:
    return f"hook-inspector's socket is not this user's ({reason})"


def fallback(id_json: str, method: str, why: str) -> bytes:
    """A compact JSON-RPC answer line for the request `id_json` (its id as JSON text)."""
    if method == "hook.hello":
        body = '"result":{}'
    elif method in INTERCEPTOR_METHODS:
        body = '"result":{"action":"continue"}'
    elif method in APPROVAL_METHODS:
        reason = f"{why}: denied, as PicoClaw denies when an approval hook is dead"
        body = '"result":' + _compact({"approved": False, "reason": reason})
    else:
        error = {"code": METHOD_NOT_FOUND, "message": f"method not found: {method} ({why})"}
        body = '"error":' + _compact(error)
    return ('{"jsonrpc":"2.0","id":' + id_json + "," + body + "}\n").encode()


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
