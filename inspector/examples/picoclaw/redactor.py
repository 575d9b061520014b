#!/usr/bin/env python3
"""A before_tool hook that keeps secrets out of tool calls (and, in after_tool, out of results).

Config: intercept ["before_tool"]. PicoClaw then sends after_tool as well (it turns on both halves
of the pair), so this hook answers both.

`modify` replaces the whole object: the answer carries the complete call (tool, arguments and
everything else that came in), never just the changed keys.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

REDACTED = "[REDACTED]"
# A key is secret when its last word names a secret: token, api_token, X-Api-Key (not max_tokens).
SECRET_KEY = re.compile(
    r"(?:^|[_-])(?:token|api[_-]?key|password|passwd|secret|authorization)$", re.IGNORECASE
)
SECRET_VALUE = re.compile(
    r"\bsk-[A-Za-z0-9_-]{16,}"  # OpenAI-style keys
    r"|\b(?:ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{20,}"  # GitHub tokens
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"  # AWS access key ids
)


def redact(value: Any) -> Any:
    """A copy of `value` with secret-named keys and secret-looking strings replaced."""
    if isinstance(value, dict):
        return {
            key: REDACTED if SECRET_KEY.search(key) and item not in (None, "") else redact(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact(item) for item in value]
    if isinstance(value, str):
        return SECRET_VALUE.sub(REDACTED, value)
    return value


def before_tool(params: dict[str, Any]) -> dict[str, Any]:
    arguments = params.get("arguments")
    redacted = redact(arguments)
    if redacted == arguments:
        return {"action": "continue"}
    return {"action": "modify", "call": {**params, "arguments": redacted}}


def after_tool(params: dict[str, Any]) -> dict[str, Any]:
    # `result` in the answer is the whole envelope ({tool, arguments, result, duration, ...});
    # a bare {"for_llm": ...} would be silently ignored by PicoClaw.
    tool_result = params.get("result")
    redacted = redact(tool_result)
    if redacted == tool_result:
        return {"action": "continue"}
    return {"action": "modify", "result": {**params, "result": redacted}}


HANDLERS = {
    "hook.hello": lambda params: {},
    "hook.before_tool": before_tool,
    "hook.after_tool": after_tool,
}


def main() -> int:
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            print(f"redactor: skipped a line that is not JSON: {raw[:80]!r}", file=sys.stderr)
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
                print(f"redactor: {message.get('method')} failed: {exc!r}", file=sys.stderr)
                reply["error"] = {"code": -32603, "message": str(exc)}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
