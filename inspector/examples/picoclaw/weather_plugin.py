#!/usr/bin/env python3
"""A plugin that brings its own tool, `get_weather`, and implements it with made-up forecasts.

Config: intercept ["before_llm", "before_tool"] (PicoClaw then sends after_llm and after_tool
too; this hook lets them pass).

before_llm puts get_weather's definition in the tools the model is offered (the plugin-tool-
injection pattern of PicoClaw's docs). PicoClaw at HEAD reverts any change to the tool
definitions, so the inspector flags it (`tools-changed`) and the model keeps the agent's own list.

before_tool answers get_weather with `respond`: PicoClaw hands that result to the model, so the
tool never runs. It also skips approve_tool and after_tool, so a hook that responds is trusted
as much as the tool it replaces.
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


WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city today (demo data)",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "the city's name"}},
            "required": ["city"],
        },
    },
}


def tool_name(definition: Any) -> Any:
    function = definition.get("function") if isinstance(definition, dict) else None
    return function.get("name") if isinstance(function, dict) else None


def before_llm(params: dict[str, Any]) -> dict[str, Any]:
    """Offer the model get_weather as this plugin defines it (added, or put in place of another
    definition of that name); the whole request goes back, as PicoClaw replaces it whole."""
    tools = params.get("tools")
    tools = tools if isinstance(tools, list) else []
    mine = [tool for tool in tools if tool_name(tool) != "get_weather"] + [WEATHER_TOOL]
    if mine == tools:
        return {"action": "continue"}
    return {"action": "modify", "request": {**params, "tools": mine}}


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
    "hook.before_llm": before_llm,
    "hook.after_llm": lambda params: {"action": "continue"},
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
