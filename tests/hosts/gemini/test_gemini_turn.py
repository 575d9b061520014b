"""Scenario turns played as `gemini -p` (0.61.0) fires its hooks: the events in their order, what
the model is told of a blocked or rewritten call, and a BeforeModel hook's rewrite of the
request the model would get."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import CommandHookSpec
from inspector.hosts.gemini.events import EVENTS
from inspector.hosts.gemini.turn import GeminiTurnOutcome
from inspector.scenario import parse_scenario
from tests.hosts.gemini.test_gemini_hooks import codes, gemini_hooks, spec
from tests.support.claude import reply

REASON = "rm -rf is not allowed"
SCENARIO = parse_scenario(
    """
session: sess-1
turns:
  - user: "tidy up"
    rounds:
      - tool_calls:
          - tool: run_shell_command
            arguments: {command: "rm -rf build", description: "clean"}
            result: "removed"
      - content: "all tidy"
"""
)


def recorders(record: Path) -> list[CommandHookSpec]:
    return [
        spec(f"CLAUDE_HOOK_RECORD={record} {reply(0)}", event, name=f"record-{event}")
        for event in EVENTS
    ]


def recorded(record: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in record.read_text().splitlines() if line.strip()]


async def play(tmp_path: Path, *specs: CommandHookSpec) -> GeminiTurnOutcome:
    runner = gemini_hooks(tmp_path, *specs).turn_runner()
    [outcome] = await runner.run(SCENARIO)
    return outcome


async def test_the_events_fire_in_gemini_p_s_order(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    outcome = await play(tmp_path, *recorders(record))
    calls = recorded(record)
    model_call = ["PreCompress", "BeforeModel", "BeforeToolSelection", "AfterModel"]
    assert [call["hook_event_name"] for call in calls] == [
        "SessionStart",
        "BeforeAgent",
        *model_call,
        "BeforeTool",
        "AfterTool",
        *model_call,
        "AfterAgent",
        "SessionEnd",
    ]
    assert list(calls[0]) == [
        "session_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "timestamp",
        "source",
    ]
    assert calls[6]["tool_input"] == {"command": "rm -rf build", "description": "clean"}
    assert calls[7]["tool_response"] == {"llmContent": "removed", "returnDisplay": "removed"}
    assert outcome.status == "completed" and outcome.final_content == "all tidy"


async def test_a_blocked_call_never_runs_and_the_model_is_told_why(tmp_path: Path) -> None:
    outcome = await play(tmp_path, spec(reply(2, "", REASON)))
    [use] = outcome.tool_uses
    assert not use.ran and use.told == f"Tool execution blocked: {REASON}"
    assert "AfterTool" not in [event.event for event in outcome.events]


async def test_a_rewritten_call_runs_with_the_hook_s_arguments_alone(tmp_path: Path) -> None:
    rewrite = {"hookSpecificOutput": {"tool_input": {"command": "ls"}}}
    outcome = await play(tmp_path, spec(reply(0, rewrite)))
    [use] = outcome.tool_uses
    assert use.ran and use.tool_input == {"command": "ls"}
    changed = "[System] Tool input parameters were modified by a hook before execution."
    assert use.told == f"removed\n\n{changed}"


async def test_continue_false_on_before_tool_ends_the_turn(tmp_path: Path) -> None:
    outcome = await play(tmp_path, spec(reply(0, {"continue": False, "stopReason": "enough"})))
    assert (outcome.status, outcome.reason) == ("stopped", "enough")
    assert outcome.tool_uses[0].told == "Agent execution stopped by hook: enough"


async def test_before_model_rewrites_the_request_the_model_gets(tmp_path: Path) -> None:
    request = {"messages": [{"role": "user", "content": "answer in French"}]}
    rewrite = {"hookSpecificOutput": {"llm_request": request}}
    outcome = await play(tmp_path, spec(reply(0, rewrite), "BeforeModel"))
    first = outcome.model_requests[0]
    assert first["messages"] == [{"role": "user", "content": "answer in French"}]


async def test_a_before_model_deny_ends_the_turn_before_the_model(tmp_path: Path) -> None:
    outcome = await play(tmp_path, spec(reply(2, "", "no model today"), "BeforeModel"))
    assert (outcome.status, outcome.reason) == ("model_blocked", "no model today")
    assert outcome.model_requests == [] and outcome.tool_uses == []


async def test_after_tool_sees_the_arguments_the_tool_ran_with(tmp_path: Path) -> None:
    record = tmp_path / "after.json"
    rewrite = {"hookSpecificOutput": {"tool_input": {"command": "ls"}}}
    await play(tmp_path, spec(reply(0, rewrite)), spec(f"cat > {record}", "AfterTool"))
    assert json.loads(record.read_text())["tool_input"] == {"command": "ls"}


async def test_an_ask_nobody_answers_ends_the_turn_as_gemini_p_waits(tmp_path: Path) -> None:
    hooks = gemini_hooks(tmp_path, spec(reply(0, {"decision": "ask"})))
    hooks.approvals.unattended = True
    [outcome] = await hooks.turn_runner().run(SCENARIO)
    assert outcome.status == "ask_unanswered" and outcome.tool_uses == []


async def test_an_after_agent_deny_asks_the_model_again_with_its_reason(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    deny_first = (
        'python3 -c "import json,sys; e=json.load(sys.stdin); '
        "print(json.dumps({} if e['stop_hook_active'] else "
        "{'decision': 'deny', 'reason': 'again'}))\""
    )
    outcome = await play(
        tmp_path,
        spec(deny_first, "AfterAgent"),
        spec(f"CLAUDE_HOOK_RECORD={record} {reply(0)}", "BeforeAgent"),
        spec(f"CLAUDE_HOOK_RECORD={record} {reply(0)}", "AfterAgent"),
    )
    calls = [
        (c["hook_event_name"], c.get("prompt"), c.get("stop_hook_active")) for c in recorded(record)
    ]
    assert calls == [
        ("BeforeAgent", "tidy up", None),
        ("AfterAgent", "tidy up", False),
        ("BeforeAgent", "again", None),
        ("AfterAgent", "tidy up", True),
    ]
    assert recorded(record)[-1]["prompt_response"] == "all tidy\nall tidy"
    assert outcome.status == "completed" and outcome.retry_reasons == ["again"]


async def test_an_after_tool_deny_gives_the_model_the_reason_alone(tmp_path: Path) -> None:
    outcome = await play(
        tmp_path, spec(reply(0, {"decision": "deny", "reason": REASON}), "AfterTool")
    )
    [use] = outcome.tool_uses
    assert use.ran and use.is_error and use.told == REASON


async def test_session_start_and_before_agent_context_wrap_as_gemini_cli_wraps_them(
    tmp_path: Path,
) -> None:
    def context(text: str) -> dict[str, Any]:
        return {"hookSpecificOutput": {"additionalContext": text}}

    outcome = await play(
        tmp_path,
        spec(reply(0, context("started")), "SessionStart"),
        spec(reply(0, context("agent")), "BeforeAgent"),
    )
    [message] = outcome.model_requests[0]["messages"]
    assert message["content"] == (
        "<hook_context>started</hook_context>\n\ntidy up<hook_context>agent</hook_context>"
    )


async def test_after_agent_reads_every_model_call_s_text_of_the_turn(tmp_path: Path) -> None:
    record = tmp_path / "after.json"
    scenario = parse_scenario(
        """
turns:
  - user: "tidy up"
    rounds:
      - content: "Looking first."
        tool_calls:
          - tool: run_shell_command
            arguments: {command: "ls"}
      - tool_calls:
          - tool: run_shell_command
            arguments: {command: "pwd"}
      - content: "Done."
"""
    )
    hooks = gemini_hooks(tmp_path, spec(f"cat > {record}", "AfterAgent"))
    await hooks.turn_runner().run(scenario)
    assert json.loads(record.read_text())["prompt_response"] == "Looking first. \nDone."


async def test_a_before_model_deny_s_synthetic_answer_is_what_after_agent_reads(
    tmp_path: Path,
) -> None:
    record = tmp_path / "after.json"
    synthetic = {"candidates": [{"content": {"role": "model", "parts": ["Synthetic."]}}]}
    deny = {"decision": "deny", "reason": "no", "hookSpecificOutput": {"llm_response": synthetic}}
    outcome = await play(
        tmp_path, spec(reply(0, deny), "BeforeModel"), spec(f"cat > {record}", "AfterAgent")
    )
    assert (outcome.status, outcome.final_content, outcome.tool_uses) == (
        "model_blocked",
        "Synthetic.",
        [],
    )
    assert json.loads(record.read_text())["prompt_response"] == "Synthetic."


@pytest.mark.parametrize(
    "synthetic",
    [
        {"candidates": [{"content": {"parts": 5}}]},
        {"candidates": [{"content": {"parts": None}}, 3]},
        {"candidates": {"content": "x"}},
        "Synthetic.",
        7,
    ],
)
async def test_a_malformed_synthetic_answer_is_a_finding_not_a_crash(
    tmp_path: Path, synthetic: object
) -> None:
    deny = {"decision": "deny", "reason": "no", "hookSpecificOutput": {"llm_response": synthetic}}
    hooks = gemini_hooks(tmp_path, spec(reply(0, deny), "BeforeModel"))
    [outcome] = await hooks.turn_runner().run(SCENARIO)
    assert (outcome.status, outcome.final_content) == ("model_blocked", "")
    [run] = hooks.journal.exchanges()
    assert codes(run) == ["gemini-llm-response-malformed"]
