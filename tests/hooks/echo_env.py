#!/usr/bin/env python3
"""A hook that reports where and how it was started, so tests can check `dir`, `env` and argv.

hook.hello answers {"cwd", "argv", "env"}; hook.before_tool answers
{"action": "modify", "call": {...the call, with arguments = that same report...}}.
Other stage methods continue (approve_tool approves); anything else is "method not found".
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def report() -> dict[str, Any]:
    return {"cwd": os.getcwd(), "argv": sys.argv[1:], "env": dict(os.environ)}


HANDLERS = {
    "hook.hello": lambda params: report(),
    "hook.before_tool": lambda params: {
        "action": "modify",
        "call": {**params, "arguments": report()},
    },
    "hook.after_tool": lambda params: {"action": "continue"},
    "hook.before_llm": lambda params: {"action": "continue"},
    "hook.after_llm": lambda params: {"action": "continue"},
    "hook.approve_tool": lambda params: {"approved": True},
}


def main() -> int:
    for raw in sys.stdin.buffer:
        message = json.loads(raw)
        if "id" not in message:
            continue
        handler = HANDLERS.get(message.get("method"))
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        if handler is None:
            reply["error"] = {"code": -32601, "message": "method not found"}
        else:
            reply["result"] = handler(message.get("params") or {})
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
