"""tests/data/secrets_corpus.yaml as journal records: each entry placed where its `in` says."""

from __future__ import annotations

import json
from typing import Any

import yaml

from inspector.hosts.picoclaw import templates
from inspector.journal.records import Event, Exchange, Noise, Record, Stderr
from inspector.jsonrpc import messages as jsonrpc
from tests.support.paths import DATA

CORPUS = DATA / "secrets_corpus.yaml"


def corpus() -> dict[str, list[dict[str, Any]]]:
    return yaml.safe_load(CORPUS.read_text(encoding="utf-8"))


def secret_value(entry: dict[str, Any]) -> str:
    """What is planted: the secret alone, or the entry's text with the secret in it."""
    return str(entry.get("text", "{secret}")).replace("{secret}", entry["secret"])


def label(entry: dict[str, Any]) -> str:
    return f"{entry['in']}:{entry.get('key', '')}:{str(entry.get('text', entry.get('value')))[:40]}"


def records_for(entry: dict[str, Any], value: Any, hook: str) -> list[Record]:
    """The records that carry `value` at the entry's place, from `hook`."""
    place, key = entry["in"], entry.get("key", "value")
    if place in ("stderr", "stderr_lines"):
        return [Stderr(hook=hook, line=line) for line in _lines(place, value)]
    if place in ("noise", "noise_lines"):
        return [Noise(hook=hook, line=line) for line in _lines(place, value)]
    if place == "event":
        payload = {"Tool": "exec", "Arguments": {key: value}}
        return [Event(kind="agent.tool.exec_start", payload=templates.runtime_event("x", payload))]
    if place == "command_stderr":
        context = {"hook_event_name": "PreToolUse", "tool_name": "Bash"}
        return [
            Exchange(hook=hook, method="PreToolUse", request=context, stderr=value, status="ok")
        ]
    if place == "error":
        return [_exchange(hook, {"command": "ls"}, error=value)]
    if place == "result":
        return [_exchange(hook, {"command": "ls"}, result={"action": "continue", key: value})]
    if place == "header_pairs":
        return [_exchange(hook, {"headers": [[key, value]]})]
    if place == "header_objects":
        return [_exchange(hook, {"headers": [{"name": key, "value": value}]})]
    if place == "dict_key":
        return [_exchange(hook, {"accounts": {value: "prod"}})]
    if place == "nested":
        return [_exchange(hook, {key: {"value": value}})]
    if place == "nested_list":
        return [_exchange(hook, {key: [{"id": "k1", "value": value}]})]
    return [_exchange(hook, {key: value})]


def _lines(place: str, value: str) -> list[str]:
    return value.splitlines() if place.endswith("_lines") else [value]


def _exchange(
    hook: str,
    arguments: dict[str, Any],
    *,
    result: dict[str, Any] | None = None,
    error: str | None = None,
) -> Exchange:
    params = templates.template("hook.before_tool")
    params["arguments"] = arguments
    request = jsonrpc.request(7, "hook.before_tool", params)
    response = {"jsonrpc": "2.0", "id": 7, "result": result or {"action": "continue"}}
    return Exchange(
        hook=hook,
        method="hook.before_tool",
        request=request,
        response=response,
        raw_request=jsonrpc.go_json(request),
        raw_response=json.dumps(response),
        status="error" if error else "ok",
        error=error,
    )
