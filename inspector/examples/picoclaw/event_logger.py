#!/usr/bin/env python3
"""An observe-only hook: one stderr line per runtime event.

Config: observe ["*"] (or a list of kinds). Events arrive as `hook.runtime_event` notifications,
which have no id and must never be answered. PicoClaw logs each stderr line of a hook as a
warning, and hook-inspector shows it beside the hook, so stderr is the place for a hook's logs;
stdout carries JSON-RPC answers only.
"""

from __future__ import annotations

import json
import sys
from typing import Any

SUMMARY_CHARS = 120


def summarize(payload: Any) -> str:
    """`Key=value` pairs of the payload, cut short: enough to follow a turn, not to drown in it."""
    if isinstance(payload, dict):
        text = " ".join(
            f"{key}={json.dumps(value, separators=(',', ':'))}" for key, value in payload.items()
        )
    else:
        text = json.dumps(payload)
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 3] + "..."


def log_event(event: dict[str, Any]) -> None:
    kind = event.get("kind", "?")
    print(f"event {kind}: {summarize(event.get('payload'))}", file=sys.stderr, flush=True)


def main() -> int:
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            print(f"event_logger: skipped a line that is not JSON: {raw[:80]!r}", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            continue
        method = message.get("method")
        if "id" not in message:
            if method == "hook.runtime_event" and isinstance(message.get("params"), dict):
                log_event(message["params"])
            continue
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        if method == "hook.hello":
            reply["result"] = {}
        else:
            reply["error"] = {"code": -32601, "message": "method not found"}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
