"""A subagent in a real `codex exec` run (the fake model calls spawn_agent; the subagent's own
requests get replies of their own) against hook-inspector's emulation of the same run: the parent's
events and the subagent's each in order, and every hook payload key by key (the known differences
are codex_gaps.py). In Codex the subagent runs alongside the parent, so the two sequences are
compared apart: how they interleave is timing."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import codex_gaps as gaps
from codex_cli import CodexCli
from codex_emulation import emulate, scenario_like
from codex_fixtures import codex_cli, codex_project  # noqa: F401 (fixtures used by name)
from fake_responses import FakeResponses, Reply, spawn_agent, wait_agent
from recorded_hooks import HookCall, read_calls, recorder

from inspector.hosts.codex.events import EVENTS

JSONObject = dict[str, Any]

PROMPT = "Tidy up the project."
TASK = "Count the files in the project."
ANSWER = "There are 3 files."
VOLATILE = ("session_id", "turn_id")  # each run makes them anew
SCRIPT = [
    Reply(tool_calls=(spawn_agent(TASK, "call_0001"),)),
    Reply(tool_calls=(wait_agent("call_0002"),)),  # else the run may end before the subagent
    Reply("Done."),
]


def _of_the_subagent(calls: list[HookCall]) -> tuple[list[HookCall], list[HookCall]]:
    """The parent's calls and the subagent's (those naming an agent), each in order."""
    child = [call for call in calls if "agent_id" in call.payload]
    return [call for call in calls if "agent_id" not in call.payload], child


def _with_ids_of(real: list[HookCall], emulated: list[HookCall]) -> list[HookCall]:
    """`real` with its subagent's id replaced by the emulation's, wherever it appears."""
    [theirs] = {call.payload["agent_id"] for call in real if "agent_id" in call.payload}
    [ours] = {call.payload["agent_id"] for call in emulated if "agent_id" in call.payload}
    return [replace(call, stdin=call.stdin.replace(theirs, ours)) for call in real]


def _response(calls: list[HookCall], tool: str) -> JSONObject:
    """The tool_response (JSON) of the PostToolUse of `tool` among `calls`."""
    [call] = [
        call for call in calls if call.event == "PostToolUse" and call.payload["tool_name"] == tool
    ]
    response: JSONObject = json.loads(call.payload["tool_response"])
    return response


def test_a_subagent_fires_its_hooks_as_in_codex_payload_by_payload(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    handler = {"type": "command", "command": recorder(log)}
    hooks = {event: [{"hooks": [handler]}] for event in EVENTS}
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    with FakeResponses(SCRIPT, subagents={TASK: [Reply(ANSWER)]}) as api:
        run = codex_cli.run(
            codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True
        )
    assert run.completed, run.stderr
    real = read_calls(log)
    log.unlink()
    scenario = scenario_like(PROMPT, SCRIPT, {"call_0001": ANSWER})
    asyncio.run(emulate(codex_project, scenario))
    emulated = read_calls(log)
    real = _with_ids_of(real, emulated)  # the agent's id is made anew by each run

    real_parent, real_child = _of_the_subagent(real)
    ours_parent, ours_child = _of_the_subagent(emulated)
    assert [call.event for call in real_child] == [
        "SubagentStart",
        "UserPromptSubmit",
        "SubagentStop",
    ]
    assert [call.event for call in ours_child] == [call.event for call in real_child]
    assert [call.event for call in ours_parent] == [call.event for call in real_parent]
    assert real_child[-1].payload["last_assistant_message"] == ANSWER
    differing = set()
    for ours, theirs in zip(ours_parent + ours_child, real_parent + real_child, strict=True):
        assert list(ours.payload) == list(theirs.payload), ours.event
        for key, value in theirs.payload.items():
            if key not in VOLATILE and ours.payload[key] != value:
                differing.add(key)
    spawned = [_response(calls, "spawn_agent") for calls in (ours_parent, real_parent)]
    assert list(spawned[0]) == list(spawned[1])  # agent_id, nickname
    waited = [_response(calls, "multi_agent_v1wait_agent") for calls in (ours_parent, real_parent)]
    assert waited[0] == waited[1]
    known = (gaps.TRANSCRIPT_PATH, gaps.AGENT_TRANSCRIPT_PATH, gaps.AGENT_NICKNAME)
    expected = {key for gap in known if gaps.differs(codex_cli.version, gap) for key in gap.keys}
    assert differing == expected


def test_a_blocked_subagent_stop_makes_the_subagent_answer_again_as_in_codex(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log, marker = codex_project.parent / "hooks.jsonl", codex_project.parent / "blocked-once"
    block = json.dumps({"decision": "block", "reason": "check again"})
    once = f"test -e {marker} || {{ touch {marker}; echo '{block}'; }}"
    handler = {"type": "command", "command": f"{recorder(log)}; {once}"}
    hooks = {"SubagentStop": [{"hooks": [handler]}]}
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    with FakeResponses(SCRIPT, subagents={TASK: [Reply(ANSWER), Reply(ANSWER)]}) as api:
        run = codex_cli.run(
            codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True
        )
    assert run.completed, run.stderr
    real = [call.payload["stop_hook_active"] for call in read_calls(log)]
    log.unlink()
    marker.unlink()
    asyncio.run(emulate(codex_project, scenario_like(PROMPT, SCRIPT, {"call_0001": ANSWER})))
    assert [call.payload["stop_hook_active"] for call in read_calls(log)] == real == [False, True]


def test_a_subagent_whose_prompt_a_hook_blocks_answers_nothing_as_in_codex(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    block = json.dumps({"decision": "block", "reason": "not this task"})
    only_the_subagents = f"case \"$(cat)\" in *agent_id*) echo '{block}';; esac"
    gate = {"type": "command", "command": only_the_subagents}
    hooks = {
        "UserPromptSubmit": [{"hooks": [gate]}],
        "PostToolUse": [{"hooks": [{"type": "command", "command": recorder(log)}]}],
    }
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    with FakeResponses(SCRIPT, subagents={TASK: [Reply(ANSWER)]}) as api:
        run = codex_cli.run(
            codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True
        )
    assert run.completed, run.stderr
    real = _response(read_calls(log), "multi_agent_v1wait_agent")
    log.unlink()
    asyncio.run(emulate(codex_project, scenario_like(PROMPT, SCRIPT, {"call_0001": ANSWER})))
    ours = _response(read_calls(log), "multi_agent_v1wait_agent")
    assert [status["completed"] for status in real["status"].values()] == [None]
    assert [status["completed"] for status in ours["status"].values()] == [None]
    assert (real["timed_out"], ours["timed_out"]) == (False, False)
