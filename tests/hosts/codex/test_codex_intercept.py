"""The intercept on Codex's hooks: an event held at its entry and edited reaches every hook and
the tool (Codex's turn runs the edited call); a run held before its process (`@hook`) and
dropped is a run that failed, which Codex reads as no answer."""

from __future__ import annotations

import asyncio
import copy
import json
import shlex
from pathlib import Path

from inspector.config.model import CommandHookSpec, Config
from inspector.engine import Engine
from inspector.hosts.codex.templates import example_payload
from tests.support.waiting import wait_for


def _config(tmp_path: Path, *commands: str) -> Config:
    specs = tuple(
        CommandHookSpec(
            name=f"h{index}", host="codex", event="PreToolUse", command=command, timeout_ms=5000
        )
        for index, command in enumerate(commands)
    )
    return Config(hooks=specs, host="codex", workdir=tmp_path)


async def test_a_codex_event_edited_at_its_entry_reaches_every_hook_and_the_tool(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    config = _config(tmp_path, *(f"cat > {shlex.quote(str(log))}" for log in (first, second)))
    context = example_payload("PreToolUse", str(tmp_path))
    async with Engine(config) as engine:
        engine.set_intercept("method:PreToolUse")
        task = asyncio.create_task(engine.send_through_pipeline("PreToolUse", context))
        await wait_for(lambda: len(engine.held) == 1)
        entry = engine.held[0].exchange
        assert not first.exists() and not second.exists()  # no hook has run yet
        edited = copy.deepcopy(context)
        edited["tool_input"]["command"] = "echo safe"
        assert engine.forward(entry.seq, edited)
        outcome = await task
    assert json.loads(first.read_text()) == edited == json.loads(second.read_text())
    assert outcome.updated_input == edited["tool_input"]  # the tool runs the edited call too


async def test_a_run_held_at_its_hook_and_dropped_decides_nothing(tmp_path: Path) -> None:
    config = _config(tmp_path, "cat > /dev/null; echo no >&2; exit 2")
    async with Engine(config) as engine:
        engine.set_intercept("@hook method:PreToolUse")
        context = example_payload("PreToolUse", str(tmp_path))
        task = asyncio.create_task(engine.send_through_pipeline("PreToolUse", context))
        await wait_for(lambda: len(engine.held) == 1)
        assert engine.drop(engine.held[0].exchange.seq)
        outcome = await task
    assert outcome.verdict == "continue"
