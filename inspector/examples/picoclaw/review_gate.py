#!/usr/bin/env python3
"""An approval hook: deny dangerous shell commands, approve every other tool call.

Config: intercept ["approve_tool"]. PicoClaw treats any answer without `"approved": true`
(an error, a timeout, `{}`) as a denial, so this hook always says so explicitly.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

SHELL_TOOLS = {"exec", "shell", "bash"}

# What a command would do -> the pattern that spots it anywhere in the command line,
# so `cd x && rm -rf /` is caught too.
DANGEROUS_COMMANDS = {
    "deletes / or your home": r"\brm\s+(?:-{1,2}[\w-]+\s+)*(?:/|/\*|~/?)(?=$|[\s;&|])",
    "pipes a download into a shell": r"\b(?:curl|wget)\b[^|;]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b",
    "formats a filesystem": r"\bmkfs(?:\.\w+)?\b",
    "copies raw disk data": r"\bdd\b[^;&|]*\bif=",
    "starts a fork bomb": r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",
    "makes / writable by everyone": r"\bchmod\s+(?:-\w+\s+)*0?777\s+/(?=$|[\s;&|])",
}


def command_text(arguments: dict[str, Any]) -> str:
    command = arguments.get("command", "")
    return " ".join(map(str, command)) if isinstance(command, list) else str(command)


def approve_tool(params: dict[str, Any]) -> dict[str, Any]:
    if params.get("tool") in SHELL_TOOLS:
        command = command_text(params.get("arguments") or {})
        for effect, pattern in DANGEROUS_COMMANDS.items():
            if re.search(pattern, command):
                return {
                    "approved": False,
                    "reason": f"review_gate blocked `{command}`: it {effect}",
                }
    return {"approved": True}


HANDLERS = {
    "hook.hello": lambda params: {},
    "hook.approve_tool": approve_tool,
}


def main() -> int:
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            print(f"review_gate: skipped a line that is not JSON: {raw[:80]!r}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or "id" not in message:
            continue  # notifications need no answer
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        method = message.get("method")
        handler = HANDLERS.get(method) if isinstance(method, str) else None
        if handler is None:
            reply["error"] = {"code": -32601, "message": "method not found"}
        else:
            try:
                reply["result"] = handler(message.get("params") or {})
            except Exception as exc:  # an answer keeps the host going; a crash kills this hook
                print(f"review_gate: {message.get('method')} failed: {exc!r}", file=sys.stderr)
                reply["error"] = {"code": -32603, "message": str(exc)}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
