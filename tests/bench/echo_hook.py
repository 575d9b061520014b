#!/usr/bin/env python3
"""The fastest honest process hook the stdlib allows, for benchmarks.

It answers `hook.hello` with `{}`, and `hook.before_tool` / `hook.before_llm` with
`{"action": "continue", <key>: params}` (key `call` or `request`): the params echoed back
unchanged, the heaviest answer an interceptor may give without changing anything. Any other
request gets `{"action": "continue"}`; notifications get nothing. It exits on EOF.
"""

from __future__ import annotations

import json
import sys
from typing import Any

ECHO_KEY = {"hook.before_tool": "call", "hook.before_llm": "request"}


def answer(message: dict[str, Any]) -> dict[str, Any]:
    method = message.get("method")
    result: dict[str, Any] = {}
    if method != "hook.hello":
        result["action"] = "continue"
        key = ECHO_KEY.get(str(method))
        if key is not None:
            result[key] = message.get("params")
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def main() -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" not in message:
            continue
        reply = json.dumps(answer(message), separators=(",", ":"), ensure_ascii=False)
        out.write(reply.encode() + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
