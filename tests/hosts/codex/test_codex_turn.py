"""Scenarios played as codex exec fires its hooks: the events in order, each stdin with Codex's
keys in Codex's order (the composer's templates too), and what the model is told."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import CommandHookSpec
from inspector.hosts.codex.chain import CodexHooks
from inspector.hosts.codex.events import EVENTS
from inspector.journal.journal import Journal
from inspector.scenario import Round, Scenario, ScriptedCall, Turn

SCENARIO = Scenario(
    name="codex",
    turns=(
        Turn(
            "Tidy up.",
            (
                Round("", (ScriptedCall("exec_command", {"cmd": "ls"}, result="a\nb\n"),)),
                Round("Done."),
            ),
        ),
    ),
)
FIRED = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd")


def _recording(tmp_path: Path) -> tuple[CodexHooks, Path]:
    log = tmp_path / "sent.jsonl"
    command = f"cat >> {shlex.quote(str(log))}; echo >> {shlex.quote(str(log))}"
    specs = [
        CommandHookSpec(
            name=f"rec-{event}", host="codex", event=event, command=command, timeout_ms=5000
        )
        for event in EVENTS
    ]
    return CodexHooks(specs, Journal(), project_dir=tmp_path, shell=("/bin/sh", "-c")), log


async def test_events_fire_in_codex_exec_s_order_with_the_shell_as_bash(tmp_path: Path) -> None:
    hooks, log = _recording(tmp_path)
    [outcome] = await hooks.turn_runner().run(SCENARIO)
    sent = [json.loads(line) for line in log.read_text().splitlines() if line]
    assert [payload["hook_event_name"] for payload in sent] == list(FIRED)
    pre, post = sent[2], sent[3]
    assert (pre["tool_name"], pre["tool_input"], pre["tool_use_id"]) == (
        "Bash",
        {"command": "ls"},
        "call_0001",
    )
    assert post["tool_response"] == "a\nb\n"
    assert outcome.status == "completed" and outcome.tool_uses[0].told == "a\nb\n"


def shape(payload: dict[str, Any]) -> list[tuple[str, str]]:
    return [(key, type(value).__name__) for key, value in payload.items()]


@pytest.mark.parametrize("event", FIRED)
async def test_the_template_has_the_shape_the_runner_sends(tmp_path: Path, event: str) -> None:
    hooks, log = _recording(tmp_path)
    await hooks.turn_runner().run(SCENARIO)
    sent = [json.loads(line) for line in log.read_text().splitlines() if line]
    [payload] = [one for one in sent if one["hook_event_name"] == event]
    assert shape(hooks.context_template(event)) == shape(payload)


async def test_a_blocked_prompt_ends_the_turn_before_the_model(tmp_path: Path) -> None:
    block = json.dumps({"decision": "block", "reason": "not today"})
    command = f"cat > /dev/null; echo {shlex.quote(block)}"
    spec = CommandHookSpec(
        name="no", host="codex", event="UserPromptSubmit", command=command, timeout_ms=5000
    )
    hooks = CodexHooks([spec], Journal(), project_dir=tmp_path, shell=("/bin/sh", "-c"))
    [outcome] = await hooks.turn_runner().run(SCENARIO)
    assert (outcome.status, outcome.reason, outcome.tool_uses) == (
        "prompt_blocked",
        "not today",
        [],
    )
