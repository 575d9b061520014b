"""The Claude Code turn runner: the order of events, what each hook gets on stdin, and what
denials, blocks, stops and rewritten input do to the turn."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from claude_support import answer_prompts, claude_hooks, decision, reply, script, spec

from inspector.config.claude import read_claude
from inspector.config.model import CommandHookSpec
from inspector.drivers.claude_turn import ClaudeTurnOutcome, ClaudeTurnRunner
from inspector.drivers.scenario import load_scenario, parse_scenario
from inspector.hooks.approvals import Approvals, Verdict
from inspector.journal.journal import Journal
from inspector.pipeline.claude_hooks import ClaudeHooks

EXAMPLE = Path(__file__).parent.parent / "inspector" / "examples" / "claude"
EVENTS = ("UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop")

SCENARIO = parse_scenario(
    """
session: sess-1
turns:
  - user: "tidy up"
    rounds:
      - content: "looking"
        tool_calls:
          - tool: Bash
            arguments: {command: "ls"}
            result: '{"stdout": "a b"}'
          - tool: Read
            arguments: {file_path: "/etc/hosts"}
            error: "permission denied"
      - content: "all tidy"
"""
)


def recorders(record: Path, *, skip: str = "") -> list[CommandHookSpec]:
    """A hook on every event the runner fires (but `skip`) that appends its stdin to `record`."""
    return [
        spec(f"CLAUDE_HOOK_RECORD={record} {reply(0)}", event, name=f"record-{event}")
        for event in EVENTS
        if event != skip
    ]


def recorded(record: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in record.read_text().splitlines() if line.strip()]


async def run(hooks: ClaudeHooks, scenario: Any = SCENARIO) -> ClaudeTurnOutcome:
    [outcome] = await ClaudeTurnRunner(hooks).run(scenario)
    return outcome


async def test_events_fire_in_claude_codes_order_with_their_fields(tmp_path: Path) -> None:
    record = tmp_path / "events.jsonl"
    outcome = await run(claude_hooks(*recorders(record), project_dir=tmp_path))
    events = recorded(record)
    assert [e["hook_event_name"] for e in events] == [
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "PreToolUse",
        "PostToolUseFailure",
        "Stop",
    ]
    common = {
        "session_id": "sess-1",
        "transcript_path": str(
            tmp_path / "home" / ".claude" / "projects" / re.sub(r"\W|_", "-", str(tmp_path))
        )
        + "/sess-1.jsonl",
        "cwd": str(tmp_path),
        "permission_mode": "default",
    }
    prompt, pre_ls, post_ls, pre_read, failed, stop = events
    assert prompt == {**common, "hook_event_name": "UserPromptSubmit", "prompt": "tidy up"}
    ls = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "toolu_0001"}
    assert pre_ls == {**common, "hook_event_name": "PreToolUse", **ls}
    assert post_ls == {
        **common,
        "hook_event_name": "PostToolUse",
        **ls,
        "tool_response": {"stdout": "a b"},
    }
    assert pre_read["tool_use_id"] == "toolu_0002"
    assert (failed["error"], failed["is_interrupt"], "tool_response" in failed) == (
        "permission denied",
        False,
        False,
    )
    assert stop == {
        **common,
        "hook_event_name": "Stop",
        "stop_hook_active": False,
        "last_assistant_message": "all tidy",
    }
    assert (outcome.status, outcome.final_content) == ("completed", "all tidy")
    assert [e.event for e in outcome.events] == [e["hook_event_name"] for e in events]
    assert [(u.tool, u.ran, u.is_error) for u in outcome.tool_uses] == [
        ("Bash", True, False),
        ("Read", True, True),
    ]


async def test_a_denied_tool_does_not_run_and_claude_gets_the_reason(tmp_path: Path) -> None:
    record = tmp_path / "events.jsonl"
    deny = spec(reply(0, decision("deny", "no shell")), matcher="Bash")
    outcome = await run(claude_hooks(deny, *recorders(record), project_dir=tmp_path))
    names = [(e["hook_event_name"], e.get("tool_name")) for e in recorded(record)]
    assert ("PostToolUse", "Bash") not in names and ("PostToolUseFailure", "Read") in names
    bash = outcome.tool_uses[0]
    assert (bash.ran, bash.feedback) == (False, "no shell")


async def test_updated_input_is_what_the_tool_and_post_tool_use_see(tmp_path: Path) -> None:
    record = tmp_path / "events.jsonl"
    rewrite = decision("allow", updatedInput={"command": "ls -la"})
    hooks = claude_hooks(
        spec(reply(0, rewrite), matcher="Bash"), *recorders(record), project_dir=tmp_path
    )
    outcome = await run(hooks)
    post = [e for e in recorded(record) if e["hook_event_name"] == "PostToolUse"]
    assert post[0]["tool_input"] == {"command": "ls -la"}
    assert outcome.tool_uses[0].tool_input == {"command": "ls -la"}


async def test_a_blocked_prompt_ends_the_turn(tmp_path: Path) -> None:
    record = tmp_path / "events.jsonl"
    block = spec(reply(2, "", "no secrets in prompts"), "UserPromptSubmit")
    outcome = await run(claude_hooks(block, *recorders(record), project_dir=tmp_path))
    assert (outcome.status, outcome.reason) == ("prompt_blocked", "no secrets in prompts")
    assert [e["hook_event_name"] for e in recorded(record)] == ["UserPromptSubmit"]
    assert outcome.tool_uses == []


async def test_prompt_context_is_collected(tmp_path: Path) -> None:
    hooks = claude_hooks(spec(reply(0, "sprint 12"), "UserPromptSubmit"), project_dir=tmp_path)
    assert (await run(hooks)).context == ["sprint 12"]


async def test_continue_false_stops_before_the_tool(tmp_path: Path) -> None:
    stop = spec(reply(0, {"continue": False, "stopReason": "budget spent"}), matcher="Bash")
    outcome = await run(claude_hooks(stop, project_dir=tmp_path))
    assert (outcome.status, outcome.reason, outcome.tool_uses) == ("stopped", "budget spent", [])
    assert [e.event for e in outcome.events] == ["UserPromptSubmit", "PreToolUse"]


async def test_post_tool_use_block_is_feedback_for_claude(tmp_path: Path) -> None:
    lint = spec(reply(2, "", "lint failed: fix it"), "PostToolUse")
    outcome = await run(claude_hooks(lint, project_dir=tmp_path))
    assert outcome.status == "completed"
    assert outcome.tool_uses[0].feedback == "lint failed: fix it"


async def test_a_blocked_stop_fires_again_with_stop_hook_active(tmp_path: Path) -> None:
    record = tmp_path / "events.jsonl"
    hooks = claude_hooks(
        spec(script("stop_once.sh"), "Stop"),
        *recorders(record, skip="UserPromptSubmit"),
        project_dir=tmp_path,
    )
    outcome = await run(hooks)
    stops = [e["stop_hook_active"] for e in recorded(record) if e["hook_event_name"] == "Stop"]
    assert stops == [False, True]
    assert outcome.status == "completed" and outcome.stop_reasons == [
        "run the tests before stopping"
    ]


async def test_a_stop_hook_that_always_blocks_is_a_loop(tmp_path: Path) -> None:
    hooks = claude_hooks(spec(reply(2, "", "keep going"), "Stop"), project_dir=tmp_path)
    outcome = await run(hooks)
    assert (outcome.status, outcome.stop_reasons) == ("stop_loop", ["keep going", "keep going"])
    last = list(hooks.journal.exchanges())[-1]
    assert "claude-stop-loop" in [finding.code for finding in last.findings]


async def test_a_deferred_call_ends_the_turn(tmp_path: Path) -> None:
    defer = spec(reply(0, decision("defer")), matcher="Bash")
    outcome = await run(claude_hooks(defer, project_dir=tmp_path))
    assert outcome.status == "deferred" and outcome.tool_uses == []


async def test_the_example_project(tmp_path: Path) -> None:
    settings = read_claude(EXAMPLE)
    log = tmp_path / "tools.jsonl"
    hooks = ClaudeHooks(
        settings.config.command_hooks,
        Journal(),
        Approvals(),
        project_dir=settings.project_dir,
        env={"CLAUDE_TOOL_LOG": str(log)},
    )
    seen = answer_prompts(hooks.approvals, Verdict("deny", reason="not on Fridays"))
    outcome = await run(hooks, load_scenario(EXAMPLE / "scenario.yaml"))
    assert [(u.tool_input["command"], u.ran, u.feedback) for u in outcome.tool_uses] == [
        ("ls build", True, ""),
        ("rm -rf build", False, "rm -rf is not allowed here ('rm -rf build'); remove specific "
         "files instead."),
        ("git push origin main", False, "not on Fridays"),
    ]  # fmt: skip
    assert [prompt.hook for prompt in seen] == ["PreToolUse:ask_before_push.py"]
    logged = [json.loads(line)["input"]["command"] for line in log.read_text().splitlines()]
    assert logged == ["ls build"] and settings.warnings == ()
