"""The stdin the composer and `check` start from for a Claude Code event has what the turn runner
sends for it (which tests/real_agents compares with the real CLI): the same keys in the same
order, of the same JSON types (a list of objects: with the same keys)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.hosts.claude.turn import ClaudeTurnRunner
from tests.hosts.claude.test_claude_turn import EVENTS as FIRED
from tests.hosts.claude.test_claude_turn import SCENARIO
from tests.support.claude import claude_hooks, reply, spec


def shape(payload: dict[str, Any]) -> list[tuple[str, Any]]:
    """The payload's keys in order with their JSON types; a list by its first item's keys (a
    tool's own input and response vary with the tool)."""
    return [(key, kind(value)) for key, value in payload.items()]


def kind(value: Any) -> Any:
    if isinstance(value, list):
        return ("list", list(value[0]) if value and isinstance(value[0], dict) else None)
    return type(value).__name__


@pytest.mark.parametrize("event", FIRED)
async def test_the_template_has_the_shape_the_runner_sends(tmp_path: Path, event: str) -> None:
    record = tmp_path / "sent.jsonl"
    hook = spec(f"CLAUDE_HOOK_RECORD={record} {reply(0)}", event)
    hooks = claude_hooks(hook, project_dir=tmp_path)
    await ClaudeTurnRunner(hooks).run(SCENARIO)
    sent = json.loads(record.read_text().splitlines()[0])
    assert shape(hooks.context_template(event)) == shape(sent)
