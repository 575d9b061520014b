"""A subagent played as codex exec 0.171.0 runs one: spawn_agent's call, then the subagent's own
turn (SubagentStart, its UserPromptSubmit, SubagentStop in place of Stop) in Codex's order and
shape, and wait_agent answering with the subagent's final answer."""

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

TASK = "Count the files."
ANSWER = "There are 3 files."
SPAWN = ScriptedCall("spawn_agent", {"message": TASK}, result=ANSWER)
WAIT = ScriptedCall("wait_agent", {"targets": ["whichever"], "timeout_ms": 30000})
SCENARIO = Scenario(
    name="subagent",
    turns=(Turn("Tidy up.", (Round("", (SPAWN,)), Round("", (WAIT,)), Round("Done."))),),
)
PARENT = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse")
CHILD = ("SubagentStart", "UserPromptSubmit", "SubagentStop")


def _hooks(tmp_path: Path, answers: dict[str, object] | None = None) -> tuple[CodexHooks, Path]:
    log = tmp_path / "sent.jsonl"
    record = f"cat >> {shlex.quote(str(log))}; echo >> {shlex.quote(str(log))}"
    said = {event: f"; echo {shlex.quote(json.dumps(a))}" for event, a in (answers or {}).items()}
    specs = [
        CommandHookSpec(
            name=f"rec-{event}",
            host="codex",
            event=event,
            command=record + said.get(event, ""),
            timeout_ms=5000,
        )
        for event in EVENTS
    ]
    return CodexHooks(specs, Journal(), project_dir=tmp_path, shell=("/bin/sh", "-c")), log


def _sent(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines() if line]


async def test_spawn_agent_plays_the_subagents_turn_after_the_calls_post_tool_use(
    tmp_path: Path,
) -> None:
    hooks, log = _hooks(tmp_path)
    [outcome] = await hooks.turn_runner().run(SCENARIO)
    sent = _sent(log)
    assert [payload["hook_event_name"] for payload in sent][:7] == [*PARENT, *CHILD]
    spawned, start, prompt, stop = sent[3], sent[4], sent[5], sent[6]
    agent_id = json.loads(spawned["tool_response"])["agent_id"]
    assert list(json.loads(spawned["tool_response"])) == ["agent_id", "nickname"]
    assert outcome.tool_uses[0].told == spawned["tool_response"]
    assert (start["agent_id"], start["agent_type"]) == (agent_id, "default")
    assert list(prompt)[:4] == ["session_id", "turn_id", "agent_id", "agent_type"]
    assert prompt["prompt"] == TASK and prompt["turn_id"] != sent[1]["turn_id"]
    assert list(stop) == [
        "session_id",
        "turn_id",
        "transcript_path",
        "agent_transcript_path",
        "cwd",
        "hook_event_name",
        "model",
        "permission_mode",
        "stop_hook_active",
        "agent_id",
        "agent_type",
        "last_assistant_message",
    ]
    assert stop["last_assistant_message"] == ANSWER
    assert start["session_id"] == stop["session_id"] == sent[0]["session_id"]
    assert [payload["hook_event_name"] for payload in sent][-2:] == ["Stop", "SessionEnd"]


async def test_wait_agent_names_the_spawned_agents_and_answers_with_their_final_answers(
    tmp_path: Path,
) -> None:
    hooks, log = _hooks(tmp_path)
    [outcome] = await hooks.turn_runner().run(SCENARIO)
    sent = _sent(log)
    agent_id = sent[4]["agent_id"]
    [pre, post] = [payload for payload in sent if payload.get("tool_use_id") == "call_0002"]
    assert pre["tool_name"] == "multi_agent_v1wait_agent"
    assert pre["tool_input"] == {"targets": [agent_id], "timeout_ms": 30000}
    status = {"status": {agent_id: {"completed": ANSWER}}, "timed_out": False}
    assert json.loads(post["tool_response"]) == status == json.loads(outcome.tool_uses[1].told)


async def test_a_blocked_subagent_stop_makes_the_subagent_answer_again(tmp_path: Path) -> None:
    block = {"decision": "block", "reason": "check again"}
    hooks, log = _hooks(tmp_path, {"SubagentStop": block})
    await hooks.turn_runner().run(SCENARIO)
    stops = [payload for payload in _sent(log) if payload["hook_event_name"] == "SubagentStop"]
    assert len(stops) > 1
    assert [stop["stop_hook_active"] for stop in stops[:2]] == [False, True]


@pytest.mark.parametrize("event", ["SubagentStart", "SubagentStop"])
async def test_the_template_has_the_shape_the_runner_sends(tmp_path: Path, event: str) -> None:
    hooks, log = _hooks(tmp_path)
    await hooks.turn_runner().run(SCENARIO)
    [payload] = [one for one in _sent(log) if one["hook_event_name"] == event]
    assert list(hooks.context_template(event)) == list(payload)


async def test_a_subagent_whose_prompt_a_hook_blocks_gives_wait_agent_no_answer(
    tmp_path: Path,
) -> None:
    # codex 0.171.0 answered wait_agent with {"completed": null} for such a subagent (a review
    # saw it through the real CLI); the scripted result must not reach the parent's model
    block = shlex.quote(json.dumps({"decision": "block", "reason": "not this task"}))
    only_the_subagents = f'case "$(cat)" in *agent_id*) echo {block};; esac'
    spec = CommandHookSpec(
        name="gate",
        host="codex",
        event="UserPromptSubmit",
        command=only_the_subagents,
        timeout_ms=5000,
    )
    hooks = CodexHooks([spec], Journal(), project_dir=tmp_path, shell=("/bin/sh", "-c"))
    [outcome] = await hooks.turn_runner().run(SCENARIO)
    agent_id = json.loads(outcome.tool_uses[0].told)["agent_id"]
    told = json.loads(outcome.tool_uses[1].told)
    assert told == {"status": {agent_id: {"completed": None}}, "timed_out": False}
