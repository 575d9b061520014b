#!/usr/bin/env python3
"""A before_tool hook that implements the `get_weather` tool itself, with made-up forecasts.

Config: intercept ["before_tool"] (PicoClaw then sends after_tool too; this hook lets it pass).

`respond` hands PicoClaw the tool's result, so the tool never runs. It also skips approve_tool
and after_tool, so a hook that responds is trusted as much as the tool it replaces.
"""

from __future__ import annotations

import json
import sys
import zlib
from typing import Any

SKIES = ["partly cloudy", "overcast", "light rain", "windy", "foggy", "sunny"]


def forecast(city: str) -> tuple[str, int]:
    """The same city always gets the same weather (crc32, unlike hash(), is stable across runs)."""
    seed = zlib.crc32(city.strip().lower().encode())
    return SKIES[seed % len(SKIES)], 8 + seed % 23


def tool_result(for_llm: str, for_user: str, *, is_error: bool = False) -> dict[str, Any]:
    return {
        "for_llm": for_llm,
        "for_user": for_user,
        "silent": False,
        "is_error": is_error,
        "async": False,
    }


def before_tool(params: dict[str, Any]) -> dict[str, Any]:
    if params.get("tool") != "get_weather":
        return {"action": "continue"}
    city = (params.get("arguments") or {}).get("city")
    if not isinstance(city, str) or not city.strip():
        message = "get_weather needs a `city` argument"
        return {"action": "respond", "result": tool_result(message, message, is_error=True)}
    sky, celsius = forecast(city)
    return {
        "action": "respond",
        "result": tool_result(
            f"Weather in {city}: {sky}, {celsius} C (demo data from weather_plugin)",
            f"{city}: {sky}, {celsius} C",
        ),
    }


HANDLERS = {
    "hook.hello": lambda params: {},
    "hook.before_tool": before_tool,
    "hook.after_tool": lambda params: {"action": "continue"},
}


def main() -> int:
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            print(f"weather_plugin: skipped a line that is not JSON: {raw[:80]!r}", file=sys.stderr)
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
                print(f"weather_plugin: {message.get('method')} failed: {exc!r}", file=sys.stderr)
                reply["error"] = {"code": -32603, "message": str(exc)}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
