"""A live agent's turns through real relay processes: every relayed call, the inspector's own
hook runs for it and its decision carry the turn the agent names (Claude Code's prompt_id), or
for an agent that names none (Gemini CLI), the turn its prompt event began."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.config.model import CommandHookSpec, Config
from inspector.engine import Engine
from inspector.journal.records import Decision, Exchange
from tests.support.bridge_client import short_socket_path
from tests.support.claude import spec
from tests.support.claude_prompts import claude_prompt
from tests.support.command_relay import run_relay

SESSION = "0b6f0f7e-2a57-4a0e-9e47-52b0a4d44f7a"  # the relay's CLAUDE_CODE_SESSION_ID


@pytest.fixture
def socket_path() -> Iterator[Path]:
    with short_socket_path() as path:
        yield path


async def relayed_records(
    config: Config, socket_path: Path, events: list[dict[str, Any]], host: str
) -> tuple[list[Exchange], list[Decision]]:
    async with Engine(config) as engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        try:
            for event in events:
                run = await run_relay(socket_path, event, host=host)
                assert run.exit_code == 0, run.stderr
        finally:
            await listener.close()
    records = engine.journal.records
    exchanges = [r for r in records if isinstance(r, Exchange)]
    return exchanges, [r for r in records if isinstance(r, Decision)]


async def test_two_prompts_of_one_relayed_claude_code_session_are_two_turns(
    socket_path: Path, tmp_path: Path
) -> None:
    first, second = str(uuid.uuid4()), str(uuid.uuid4())
    hooks = (spec("true", "UserPromptSubmit", name="prompted"), spec("true", name="checks"))
    config = Config(hooks=hooks, host="claude", workdir=tmp_path)
    events = [*claude_prompt(first), *claude_prompt(second)]
    exchanges, decisions = await relayed_records(config, socket_path, events, "claude")
    relayed = [(r.method, r.turn) for r in exchanges if r.hook == "claude"]
    assert relayed == [
        (event, prompt)
        for prompt in (first, second)
        for event in ("UserPromptSubmit", "PreToolUse", "Stop")
    ]
    runs = [(r.hook, r.turn) for r in exchanges if r.hook != "claude"]
    assert runs == [
        ("prompted", first),
        ("checks", first),
        ("prompted", second),
        ("checks", second),
    ]
    assert [d.turn for d in decisions] == [first, first, second, second]


def gemini_event(event: str, **fields: Any) -> dict[str, Any]:
    head = {"session_id": SESSION, "transcript_path": "/tmp/g.jsonl", "cwd": "/work/project"}
    return {**head, "hook_event_name": event, "timestamp": "2026-11-27T19:00:00.000Z", **fields}


async def test_two_prompts_of_one_relayed_gemini_cli_session_are_two_turns(
    socket_path: Path, tmp_path: Path
) -> None:
    says = CommandHookSpec(
        name="says", host="gemini", event="BeforeAgent", command="true", timeout_ms=5000
    )
    config = Config(hooks=(says,), host="gemini", workdir=tmp_path)
    events = [
        gemini_event("SessionStart", source="startup"),
        *(
            event
            for prompt in ("List the folder.", "And again.")
            for event in (
                gemini_event("BeforeAgent", prompt=prompt),
                gemini_event("AfterAgent", prompt=prompt, prompt_response="Done."),
            )
        ),
    ]
    exchanges, _decisions = await relayed_records(config, socket_path, events, "gemini")
    relayed = [(r.method, r.turn) for r in exchanges if r.hook == "gemini"]
    turn = SESSION[:8] + "/turn-{}"
    assert relayed == [
        ("SessionStart", None),
        ("BeforeAgent", turn.format(1)),
        ("AfterAgent", turn.format(1)),
        ("BeforeAgent", turn.format(2)),
        ("AfterAgent", turn.format(2)),
    ]
    assert [(r.hook, r.turn) for r in exchanges if r.hook == "says"] == [
        ("says", turn.format(1)),
        ("says", turn.format(2)),
    ]
