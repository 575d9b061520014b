"""The Claude Code turn runner: the order of events, what each hook gets on stdin, and what
denials, blocks, stops and rewritten input do to the turn."""

from __future__ import annotations

import json
import re
import shlex
import uuid
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import CommandHookSpec
from inspector.hooks.approvals import Approvals, Verdict
from inspector.hosts.claude.chain import ClaudeHooks
from inspector.hosts.claude.config import read_claude
from inspector.hosts.claude.permission_layer import PermissionLayer
from inspector.hosts.claude.turn import ClaudeTurnOutcome
from inspector.hosts.claude.versions import HOOK_TEXT_LEAD, claude_version
from inspector.journal.journal import Journal
from inspector.scenario import load_scenario, parse_scenario
from tests.support.claude import answer_prompts, claude_hooks, decision, reply, script, spec
from tests.support.paths import EXAMPLES

EXAMPLE = EXAMPLES / "claude"
EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "MessageDisplay",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Stop",
    "SessionEnd",
)
MESSAGE_FIELDS = ["turn_id", "message_id", "index", "final", "delta"]
ENV_TO_JSON = (
    "import json, sys; pairs = sys.stdin.read().split(chr(0)); "
    "print(json.dumps(dict(p.split('=', 1) for p in pairs if '=' in p)))"
)

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
    [outcome] = await hooks.turn_runner().run(scenario)
    return outcome


async def test_events_fire_in_claude_codes_order_with_their_fields(tmp_path: Path) -> None:
    record = tmp_path / "events.jsonl"
    outcome = await run(claude_hooks(*recorders(record), project_dir=tmp_path))
    events = recorded(record)
    assert [e["hook_event_name"] for e in events] == [
        "SessionStart",
        "UserPromptSubmit",
        "MessageDisplay",
        "PreToolUse",
        "PostToolUse",
        "PreToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "MessageDisplay",
        "Stop",
        "SessionEnd",
    ]
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, "hook-inspector:scenario:sess-1"))
    slug = re.sub(r"\W|_", "-", str(tmp_path))
    transcript = f"{tmp_path}/home/.claude/projects/{slug}/{session}.jsonl"
    start, prompt, shown, pre_ls, post_ls, pre_read, failed, batch, final, stop, end = events
    prompt_id = prompt["prompt_id"]
    assert uuid.UUID(prompt_id) and str(uuid.UUID(session)) == session
    where = {"session_id": session, "transcript_path": transcript, "cwd": str(tmp_path)}
    common = {**where, "prompt_id": prompt_id, "permission_mode": "default"}
    tools = {**common, "effort": {"level": "medium"}}  # the newest release's default model
    assert start == {**where, "hook_event_name": "SessionStart", "source": "startup"}
    assert prompt == {**common, "hook_event_name": "UserPromptSubmit", "prompt": "tidy up"}
    assert list(shown) == [*where, "prompt_id", "hook_event_name", *MESSAGE_FIELDS]
    assert (shown["delta"], final["delta"], shown["final"], shown["index"]) == (
        "looking",
        "all tidy",
        True,
        0,
    )
    assert shown["turn_id"] == final["turn_id"] != shown["message_id"]
    ls = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    assert pre_ls == {**tools, "hook_event_name": "PreToolUse", **ls, "tool_use_id": "toolu_0001"}
    assert list(post_ls.items()) == list(
        {
            **tools,
            "hook_event_name": "PostToolUse",
            **ls,
            "tool_response": {"stdout": "a b"},
            "tool_use_id": "toolu_0001",
            "duration_ms": 0,
        }.items()
    )
    assert pre_read["tool_use_id"] == "toolu_0002"
    assert list(failed)[-5:] == [
        "tool_input",
        "tool_use_id",
        "error",
        "is_interrupt",
        "duration_ms",
    ]
    assert (failed["error"], failed["is_interrupt"]) == ("permission denied", False)
    assert batch["tool_calls"] == [
        {**ls, "tool_use_id": "toolu_0001", "tool_response": "a b"},
        {
            "tool_name": "Read",
            "tool_input": {"file_path": "/etc/hosts"},
            "tool_use_id": "toolu_0002",
            "tool_response": "permission denied",
        },
    ]
    assert stop == {
        **tools,
        "hook_event_name": "Stop",
        "stop_hook_active": False,
        "last_assistant_message": "all tidy",
        "background_tasks": [],
        "session_crons": [],
    }
    assert end == {
        **where,
        "prompt_id": prompt_id,
        "hook_event_name": "SessionEnd",
        "reason": "other",
    }
    assert (outcome.status, outcome.final_content) == ("completed", "all tidy")
    assert [e.event for e in outcome.events] == [e["hook_event_name"] for e in events]
    assert [(u.tool, u.ran, u.is_error) for u in outcome.tool_uses] == [
        ("Bash", True, False),
        ("Read", True, True),
    ]


@pytest.mark.parametrize(
    ("version", "effort", "added"),
    [
        ("2.1.197", "high", {"AI_AGENT": "claude-code_2-1-197_harness"}),
        (
            "2.1.332",
            "medium",
            {"AI_AGENT": "claude-code_2-1-332_harness", "CLAUDE_CODE_SESSION_ATTENDED": "0"},
        ),
    ],
)
async def test_stdin_ends_with_a_newline_and_the_environment_is_claude_codes(
    tmp_path: Path, version: str, effort: str, added: dict[str, str]
) -> None:
    record = tmp_path / "env.jsonl"
    dump = f"cat > /dev/null; env -0 | python3 -c {shlex.quote(ENV_TO_JSON)} >> {record}"
    stdin = tmp_path / "stdin.txt"
    hooks = claude_hooks(
        spec(dump, "SessionStart"),
        spec(dump, "PreToolUse", matcher="Bash"),
        spec(f"cat > {stdin}", "Stop"),
        project_dir=tmp_path,
        version=claude_version(version),
    )
    await run(hooks)
    start, pre = [json.loads(line) for line in record.read_text().splitlines()]
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, "hook-inspector:scenario:sess-1"))
    every = {
        "CLAUDECODE": "1",
        "CLAUDE_CODE_ENTRYPOINT": "sdk-cli",
        "CLAUDE_CODE_SESSION_ID": session,
        "CLAUDE_CODE_CHILD_SESSION": "1",
        "CLAUDE_PROJECT_DIR": str(tmp_path),
        **added,
    }
    assert every.items() <= start.items() and every.items() <= pre.items()
    assert (pre["CLAUDE_EFFORT"], "CLAUDE_EFFORT" in start) == (effort, False)
    env_file = Path(start["CLAUDE_ENV_FILE"])
    assert env_file.parent.is_dir() and env_file.parent.name == session
    assert "CLAUDE_ENV_FILE" not in pre
    assert stdin.read_text().endswith("}\n")


@pytest.mark.parametrize(
    ("version", "told"),
    [("2.1.197", "no shell"), ("2.1.332", "PreToolUse:Bash hook error: no shell")],
)
async def test_a_denied_tool_does_not_run_and_claude_gets_the_reason_in_its_versions_words(
    tmp_path: Path, version: str, told: str
) -> None:
    record = tmp_path / "events.jsonl"
    deny = spec(reply(0, decision("deny", "no shell")), matcher="Bash")
    hooks = claude_hooks(
        deny, *recorders(record), project_dir=tmp_path, version=claude_version(version)
    )
    outcome = await run(hooks)
    names = [(e["hook_event_name"], e.get("tool_name")) for e in recorded(record)]
    assert ("PostToolUse", "Bash") not in names and ("PostToolUseFailure", "Read") in names
    bash = outcome.tool_uses[0]
    assert (bash.ran, bash.feedback) == (False, told)


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
    names = ["SessionStart", "UserPromptSubmit", "SessionEnd"]
    assert [e["hook_event_name"] for e in recorded(record)] == names
    assert outcome.tool_uses == []


async def test_prompt_context_is_collected(tmp_path: Path) -> None:
    hooks = claude_hooks(spec(reply(0, "sprint 12"), "UserPromptSubmit"), project_dir=tmp_path)
    assert (await run(hooks)).context == ["sprint 12"]


async def test_continue_false_in_pre_tool_use_runs_the_tool_then_ends_the_turn(
    tmp_path: Path,
) -> None:
    stop = spec(reply(0, {"continue": False, "stopReason": "budget spent"}), matcher="Bash")
    outcome = await run(claude_hooks(stop, project_dir=tmp_path))
    assert (outcome.status, outcome.reason) == ("stopped", "budget spent")
    assert [(use.tool, use.ran) for use in outcome.tool_uses] == [("Bash", True)]
    assert [e.event for e in outcome.events] == [
        "SessionStart",
        "UserPromptSubmit",
        "MessageDisplay",
        "PreToolUse",
        "PostToolUse",
        "SessionEnd",
    ]


@pytest.mark.parametrize(("version", "status"), [("2.1.197", "completed"), ("2.1.332", "stopped")])
async def test_continue_false_beside_a_deny_keeps_the_tool_from_running(
    tmp_path: Path, version: str, status: str
) -> None:
    stop = spec(reply(0, {"continue": False, "stopReason": "budget spent"}), matcher="Bash")
    deny = spec(reply(0, decision("deny", "no shell")), matcher="Bash")
    hooks = claude_hooks(stop, deny, project_dir=tmp_path, version=claude_version(version))
    outcome = await run(hooks)
    bash = outcome.tool_uses[0]
    assert (bash.tool, bash.ran, bash.feedback.endswith("no shell")) == ("Bash", False, True)
    assert outcome.status == status
    assert "PostToolUse" not in [e.event for e in outcome.events]


@pytest.mark.parametrize("version", ["2.1.197", "2.1.332"])
async def test_post_tool_use_block_is_feedback_for_claude_beside_or_apart_from_the_result(
    tmp_path: Path, version: str
) -> None:
    lint = reply(2, "", "lint failed: fix it")
    hooks = claude_hooks(
        spec(lint, "PostToolUse"), project_dir=tmp_path, version=claude_version(version)
    )
    outcome = await run(hooks)
    assert outcome.status == "completed"
    words = (
        f'PostToolUse:Bash hook blocking error from command: "{lint}": [{lint}]: '
        "lint failed: fix it\n"
    )
    use = outcome.tool_uses[0]
    beside, apart = (words, []) if version == "2.1.197" else ("", [words])
    assert (use.feedback, use.system_messages) == (beside, apart)


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
    [told] = outcome.stop_reasons
    assert outcome.status == "completed" and "Stop hook feedback:\nrun the tests" in told


@pytest.mark.parametrize(
    ("version", "told"),
    [
        ("2.1.197", "Stop hook feedback:\ngo on"),
        (
            "2.1.332",
            f"<system-reminder>\n{HOOK_TEXT_LEAD}\nStop hook feedback:\ngo on\n</system-reminder>",
        ),
    ],
)
async def test_claude_code_ends_the_turn_after_8_blocked_stops_in_a_row_in_its_versions_words(
    tmp_path: Path, version: str, told: str
) -> None:
    hooks = claude_hooks(
        spec(reply(0, {"decision": "block", "reason": "go on"}), "Stop"),
        project_dir=tmp_path,
        version=claude_version(version),
    )
    outcome = await run(hooks)
    assert (outcome.status, outcome.stop_reasons) == ("stop_loop", [told] * 8)
    assert [e.event for e in outcome.events].count("Stop") == 9
    last = list(hooks.journal.exchanges())[-1]
    assert "claude-stop-loop" in [finding.code for finding in last.findings]


async def test_a_deferred_call_ends_the_turn(tmp_path: Path) -> None:
    defer = spec(reply(0, decision("defer")), matcher="Bash")
    outcome = await run(claude_hooks(defer, project_dir=tmp_path))
    assert outcome.status == "deferred" and outcome.tool_uses == []


READS = parse_scenario(
    """
turns:
  - user: "read both"
    rounds:
      - content: "reading"
        tool_calls:
          - {tool: Read, arguments: {file_path: "a.txt"}}
          - {tool: Read, arguments: {file_path: "b.txt"}}
      - content: "done"
"""
)


async def test_read_calls_of_one_message_are_decided_together_before_any_runs(
    tmp_path: Path,
) -> None:
    record = tmp_path / "events.jsonl"
    hooks = claude_hooks(*recorders(record), project_dir=tmp_path)
    await run(hooks, READS)
    names = [(e["hook_event_name"], e.get("tool_input")) for e in recorded(record)]
    tools = [name for name in names if name[0] in ("PreToolUse", "PostToolUse")]
    assert [event for event, _ in tools] == ["PreToolUse"] * 2 + ["PostToolUse"] * 2


async def test_a_call_deferred_beside_another_ends_the_turn_once_both_are_decided(
    tmp_path: Path,
) -> None:
    defer_b = f"grep -q b.txt && {reply(0, decision('defer'))} || true"
    record = tmp_path / "events.jsonl"
    hooks = claude_hooks(spec(defer_b, matcher="Read"), *recorders(record), project_dir=tmp_path)
    outcome = await run(hooks, READS)
    assert (outcome.status, outcome.tool_uses) == ("deferred", [])
    assert [e.event for e in outcome.events].count("PreToolUse") == 2
    assert "PostToolUse" not in [e["hook_event_name"] for e in recorded(record)]


CURL = "curl -fsSL https://example.com/notes.txt"


async def test_the_example_project(tmp_path: Path) -> None:
    settings = read_claude(EXAMPLE)
    log = tmp_path / "tools.jsonl"
    hooks = ClaudeHooks(
        settings.config.command_hooks,
        Journal(),
        Approvals(),
        project_dir=settings.project_dir,
        env={"CLAUDE_TOOL_LOG": str(log)},
        permissions=PermissionLayer(settings.files, settings.project_dir),
    )
    seen = answer_prompts(hooks.approvals, Verdict("deny", reason="not on Fridays"))
    outcome = await run(hooks, load_scenario(EXAMPLE / "scenario.yaml"))
    assert [(u.tool_input["command"], u.ran, u.feedback) for u in outcome.tool_uses] == [
        ("ls build", True, ""),
        ("rm -rf build", False, "PreToolUse:Bash hook error: rm -rf is not allowed here "
         "('rm -rf build'); remove specific files instead."),
        ("git push origin main", False, "not on Fridays"),
        (CURL, False, f"Permission to use Bash with command {CURL} has been denied."),
    ]  # fmt: skip
    assert [prompt.hook for prompt in seen] == ["PreToolUse:ask_before_push.py"]
    logged = [json.loads(line)["input"]["command"] for line in log.read_text().splitlines()]
    assert logged == ["ls build"] and settings.warnings == ()
