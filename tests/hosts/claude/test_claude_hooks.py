"""Claude Code hooks for one event: exit codes, JSON answers, ask through the approval prompt,
precedence across parallel hooks, deduplication and matchers, with real scripts."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from inspector.hooks.approvals import Verdict
from inspector.hosts.claude.chain import ClaudeHooks
from inspector.hosts.claude.events import matches
from inspector.hosts.claude.outcome import EventOutcome
from inspector.journal.records import Decision, Exchange
from tests.support.claude import (
    answer_prompts,
    claude_hooks,
    decision,
    reply,
    script,
    spec,
    tool_event,
)
from tests.support.waiting import wait_for

PROMPT = {"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "hi"}
STOP = {"session_id": "s1", "hook_event_name": "Stop", "stop_hook_active": False}
POST = {**tool_event(), "hook_event_name": "PostToolUse", "tool_response": "ok"}


async def fire_one(
    tmp_path: Path, command: str, event: str = "PreToolUse", payload: dict | None = None
) -> tuple[EventOutcome, Exchange]:
    hooks = claude_hooks(spec(command, event), project_dir=tmp_path)
    outcome = await hooks.fire(event, payload or tool_event(), source="test", turn="t1")
    return outcome, exchanges(hooks)[0]


def exchanges(hooks: ClaudeHooks) -> list[Exchange]:
    return list(hooks.journal.exchanges())


def codes(exchange: Exchange) -> list[str]:
    return [finding.code for finding in exchange.findings]


def decisions(hooks: ClaudeHooks) -> list[Decision]:
    return list(hooks.journal.of_type(Decision))


# ---- exit 0 ------------------------------------------------------------------------------------


async def test_exit_0_without_output_decides_nothing(tmp_path: Path) -> None:
    outcome, exchange = await fire_one(tmp_path, reply(0))
    assert (outcome.verdict, outcome.blocked, exchange.action, exchange.status) == (
        "continue",
        False,
        "continue",
        "ok",
    )
    assert exchange.findings == [] and json.loads(exchange.raw_request or "") == tool_event()


async def test_plain_stdout_is_context_on_user_prompt_submit(tmp_path: Path) -> None:
    outcome, exchange = await fire_one(
        tmp_path, reply(0, "today is Monday"), "UserPromptSubmit", PROMPT
    )
    assert outcome.verdict == "continue" and outcome.context == ("today is Monday",)
    assert exchange.findings == []


async def test_plain_stdout_on_pre_tool_use_is_not_read(tmp_path: Path) -> None:
    outcome, exchange = await fire_one(tmp_path, reply(0, "deny"))
    assert outcome.verdict == "continue" and outcome.context == ()
    assert codes(exchange) == ["claude-stdout-not-json"]


async def test_stdout_nested_deeper_than_json_goes_is_read_as_text_not_a_crash(
    tmp_path: Path,
) -> None:
    deep = "[" * 20_000 + "]" * 20_000
    outcome, exchange = await fire_one(tmp_path, reply(0, deep))
    assert (outcome.verdict, exchange.status, exchange.response) == ("continue", "ok", None)
    assert codes(exchange) == ["claude-stdout-not-json"]


async def test_text_around_the_json_is_the_shared_noise_finding(tmp_path: Path) -> None:
    noisy = "checking...\n" + json.dumps(decision("deny", "no"))
    outcome, exchange = await fire_one(tmp_path, reply(0, noisy))
    assert outcome.verdict == "continue" and codes(exchange) == ["stdout-noise"]


async def test_json_allow_and_deny(tmp_path: Path) -> None:
    allowed, exchange = await fire_one(tmp_path, reply(0, decision("allow", "read-only")))
    assert (allowed.verdict, allowed.reason, exchange.action) == ("allow", "read-only", "allow")
    denied, exchange = await fire_one(tmp_path, reply(0, decision("deny", "not here")))
    assert (denied.verdict, denied.reason, denied.blocked) == ("deny", "not here", True)
    assert denied.by == (exchange.hook,) and exchange.findings == []


async def test_deprecated_approve_and_block(tmp_path: Path) -> None:
    approved, exchange = await fire_one(tmp_path, reply(0, {"decision": "approve", "reason": "ok"}))
    assert approved.verdict == "allow" and codes(exchange) == ["claude-deprecated-decision"]
    blocked, _ = await fire_one(tmp_path, reply(0, {"decision": "block", "reason": "no"}))
    assert (blocked.verdict, blocked.reason) == ("deny", "no")


async def test_continue_false_stops_and_wins_over_allow(tmp_path: Path) -> None:
    stop = {"continue": False, "stopReason": "quota reached", "systemMessage": "bye"}
    hooks = claude_hooks(
        spec(reply(0, decision("allow"))), spec(reply(0, stop)), project_dir=tmp_path
    )
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert (outcome.verdict, outcome.reason, outcome.messages) == (
        "stop",
        "quota reached",
        ("bye",),
    )
    assert [e.action for e in exchanges(hooks)] == ["allow", "stop"]


async def test_unknown_permission_decision_is_no_decision(tmp_path: Path) -> None:
    outcome, exchange = await fire_one(tmp_path, reply(0, decision("approve")))
    assert outcome.verdict == "continue" and codes(exchange) == ["claude-unknown-decision"]


async def test_permission_decision_at_the_top_level_is_ignored(tmp_path: Path) -> None:
    outcome, exchange = await fire_one(tmp_path, reply(0, {"permissionDecision": "deny"}))
    assert outcome.verdict == "continue" and codes(exchange) == ["claude-misplaced-key"]


async def test_updated_input_replaces_the_input(tmp_path: Path) -> None:
    answer = decision("allow", updatedInput={"command": "ls -la"})
    outcome, _ = await fire_one(tmp_path, reply(0, answer))
    assert outcome.updated_input == {"command": "ls -la"}


async def test_the_last_hook_to_finish_gives_the_reason_and_updated_input(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "first-done"
    first = decision("allow", "first", updatedInput={"command": "ls -1"})
    last = decision("allow", "last", updatedInput={"command": "ls -2"})
    hooks = claude_hooks(
        spec(
            f"echo $$ > {marker}.new && mv {marker}.new {marker}; exec {reply(0, first)}",
            name="early",
        ),
        spec(script("after.sh", str(marker), "0", json.dumps(last)), name="late"),
        project_dir=tmp_path,
    )
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert (outcome.reason, outcome.updated_input) == ("last", {"command": "ls -2"})
    assert outcome.by == ("early", "late") and outcome.winner is not None
    early, late = exchanges(hooks)
    assert codes(early) == ["claude-updated-input-ignored"]
    assert codes(late) == ["claude-last-to-finish"]
    assert "late's, the last to finish" in late.findings[0].message


async def test_updated_input_without_a_decision_is_applied(tmp_path: Path) -> None:
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"a": 1}}}
    outcome, exchange = await fire_one(tmp_path, reply(0, answer))
    assert (outcome.verdict, outcome.updated_input, codes(exchange)) == ("continue", {"a": 1}, [])


# ---- exit 2 ------------------------------------------------------------------------------------


async def test_exit_2_blocks_the_tool_and_ignores_stdout(tmp_path: Path) -> None:
    command = reply(2, decision("allow"), "no rm here")
    outcome, exchange = await fire_one(tmp_path, command)
    assert (outcome.verdict, outcome.reason, exchange.action) == ("deny", "no rm here", "block")
    assert exchange.status == "error" and codes(exchange) == ["claude-json-ignored"]


async def test_a_guard_script_blocks_with_exit_2(tmp_path: Path) -> None:
    hooks = claude_hooks(spec(script("guard_rm.sh")), project_dir=tmp_path)
    denied = await hooks.fire("PreToolUse", tool_event(command="rm -rf /"), source="test")
    allowed = await hooks.fire("PreToolUse", tool_event(command="ls"), source="test")
    assert denied.verdict == "deny" and "not allowed" in denied.reason
    assert allowed.verdict == "continue"


@pytest.mark.parametrize(
    ("event", "payload"),
    [("UserPromptSubmit", PROMPT), ("Stop", STOP), ("PostToolUse", POST)],
)
async def test_exit_2_blocks_on_each_event(tmp_path: Path, event: str, payload: dict) -> None:
    outcome, exchange = await fire_one(tmp_path, reply(2, "", "not yet"), event, payload)
    assert (outcome.verdict, outcome.reason, exchange.action) == ("block", "not yet", "block")


async def test_exit_2_on_notification_only_tells_the_user(tmp_path: Path) -> None:
    payload = {"hook_event_name": "Notification", "notification_type": "idle_prompt"}
    outcome, exchange = await fire_one(tmp_path, reply(2, "", "meh"), "Notification", payload)
    assert outcome.verdict == "continue" and exchange.action == "error"
    assert codes(exchange) == ["claude-exit-2-not-blocking"]


async def test_decision_block_on_user_prompt_submit(tmp_path: Path) -> None:
    answer = {"decision": "block", "reason": "contains a secret"}
    outcome, _ = await fire_one(tmp_path, reply(0, answer), "UserPromptSubmit", PROMPT)
    assert (outcome.verdict, outcome.reason) == ("block", "contains a secret")


async def test_blocking_stop_again_while_stop_hook_active_is_a_loop(tmp_path: Path) -> None:
    again = {**STOP, "stop_hook_active": True}
    _, exchange = await fire_one(tmp_path, reply(2, "", "keep going"), "Stop", again)
    assert "claude-stop-loop" in codes(exchange)


# ---- other exits -------------------------------------------------------------------------------


async def test_exit_1_refusal_is_a_non_blocking_error(tmp_path: Path) -> None:
    outcome, exchange = await fire_one(tmp_path, script("refuse_exit_1.sh"))
    assert (outcome.verdict, exchange.action) == ("continue", "error")
    assert outcome.messages == (f"{exchange.hook}: exit status 1: BLOCKED: rm is dangerous",)
    assert codes(exchange) == ["claude-exit-1-meant-2"]


@pytest.mark.parametrize("stderr", ["jq: command failed", "cat: /etc/x: Permission denied"])
async def test_exit_1_without_a_refusal_is_only_an_error(tmp_path: Path, stderr: str) -> None:
    _, exchange = await fire_one(tmp_path, reply(1, "", stderr))
    assert exchange.action == "error" and exchange.findings == []


async def test_a_missing_script_is_exit_127(tmp_path: Path) -> None:
    outcome, exchange = await fire_one(tmp_path, str(tmp_path / "no-such-hook.sh"))
    assert (outcome.verdict, exchange.exit_code) == ("continue", 127)
    assert "claude-command-not-found" in codes(exchange)


async def test_a_script_that_is_not_executable_is_exit_126(tmp_path: Path) -> None:
    hook = tmp_path / "hook.sh"
    hook.write_text("#!/bin/sh\nexit 2\n")
    outcome, exchange = await fire_one(tmp_path, str(hook))
    assert (outcome.verdict, exchange.exit_code) == ("continue", 126)
    assert "claude-not-executable" in codes(exchange)


async def test_a_timeout_kills_the_tree_and_does_not_block(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    hooks = claude_hooks(
        spec(script("sleepy.sh", str(pid_file)), timeout_ms=300), project_dir=tmp_path
    )
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    exchange = exchanges(hooks)[0]
    assert (outcome.verdict, exchange.action, exchange.status) == ("continue", "error", "timeout")
    assert codes(exchange) == ["claude-timeout"]
    child = int(pid_file.read_text())
    await wait_for(lambda: dead(child), timeout=20)  # SIGKILL lands, the exit takes a moment


def dead(pid: int) -> bool:
    """Gone, or a zombie (dead, only waiting for its parent to reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except FileNotFoundError:
        return True


async def test_hooks_run_in_the_project_with_claude_project_dir(tmp_path: Path) -> None:
    command = 'cat > /dev/null; echo "$CLAUDE_PROJECT_DIR|$(pwd)" >&2; exit 3'
    outcome, _ = await fire_one(tmp_path, command)
    assert outcome.messages[0].endswith(f"exit status 3: {tmp_path}|{tmp_path}")


# ---- ask: the approval prompt ------------------------------------------------------------------


async def test_ask_answered_allow_once(tmp_path: Path) -> None:
    hooks = claude_hooks(
        spec(reply(0, decision("ask", "pushes to origin"))),
        spec(reply(0, decision("allow", "fine by me"))),
        project_dir=tmp_path,
    )
    seen = answer_prompts(hooks.approvals, Verdict("allow_once"))
    event = tool_event(command="git push")
    outcome = await hooks.fire("PreToolUse", event, source="test", turn="t1")
    assert (outcome.verdict, outcome.by, outcome.resolution.by) == ("allow", ("human",), "human")
    [prompt] = seen
    asker, allower = exchanges(hooks)
    assert (prompt.tool, prompt.arguments, prompt.exchange) == (
        "Bash",
        {"command": "git push"},
        asker.seq,
    )
    assert [(e.hook, e.verdict, e.reason) for e in prompt.earlier] == [
        (asker.hook, "ask", "pushes to origin"),
        (allower.hook, "allow", "fine by me"),
    ]
    assert prompt.session_key == "s1" and prompt.turn_id == "t1" and prompt.on_timeout == "deny"
    [record] = decisions(hooks)
    assert (record.verdict, record.by, record.chain[-1]) == (
        "allow",
        "human",
        {"hook": "human", "action": "allow_once"},
    )


async def test_ask_answered_deny(tmp_path: Path) -> None:
    hooks = claude_hooks(spec(reply(0, decision("ask"))), project_dir=tmp_path)
    answer_prompts(hooks.approvals, Verdict("deny", reason="not today"))
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert (outcome.verdict, outcome.reason, outcome.blocked) == ("deny", "not today", True)


async def test_ask_nobody_answers_denies_at_the_timeout(tmp_path: Path) -> None:
    hooks = claude_hooks(spec(reply(0, decision("ask"))), project_dir=tmp_path, ask_timeout_ms=100)
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert (outcome.verdict, outcome.by) == ("deny", ("timeout",))
    assert "no decision within 0.1 s" in outcome.reason and hooks.approvals.pending == []


async def test_ask_with_nobody_to_answer_is_a_deny_with_the_hooks_reason(tmp_path: Path) -> None:
    answer = decision("ask", "pushes to origin", updatedInput={"command": "git push -n"})
    hooks = claude_hooks(spec(reply(0, answer)), project_dir=tmp_path)
    hooks.approvals.unattended = True  # a headless run or serve, like claude -p
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert (outcome.verdict, outcome.reason, outcome.updated_input) == (
        "deny",
        "pushes to origin",
        None,
    )
    assert codes(exchanges(hooks)[0]) == ["claude-ask-unattended", "claude-updated-input-ignored"]


async def test_ask_allow_always_answers_the_next_ask_by_rule(tmp_path: Path) -> None:
    hooks = claude_hooks(spec(reply(0, decision("ask"))), project_dir=tmp_path)
    seen = answer_prompts(hooks.approvals, Verdict("allow_always"))
    await hooks.fire("PreToolUse", tool_event(), source="test")
    again = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert again.verdict == "allow" and again.by == ("rule:r1",) and len(seen) == 1


async def test_ask_shows_the_updated_input(tmp_path: Path) -> None:
    answer = decision("ask", updatedInput={"command": "git push --dry-run"})
    hooks = claude_hooks(spec(reply(0, answer)), project_dir=tmp_path)
    seen = answer_prompts(hooks.approvals, Verdict("allow_once"))
    outcome = await hooks.fire("PreToolUse", tool_event(command="git push"), source="test")
    assert seen[0].arguments == {"command": "git push --dry-run"}
    assert outcome.updated_input == {"command": "git push --dry-run"}


# ---- several hooks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answers", "verdict"),
    [
        (["allow", "deny", "ask"], "deny"),
        (["allow", "ask"], "ask-prompted"),
        (["ask", "defer", "allow"], "defer"),
        (["allow", "allow"], "allow"),
        (["allow", "exit 2"], "deny"),
    ],
)
async def test_precedence_deny_defer_ask_allow(
    tmp_path: Path, answers: list[str], verdict: str
) -> None:
    commands = [
        reply(2, "", "blocked") if answer == "exit 2" else reply(0, decision(answer, answer))
        for answer in answers
    ]
    hooks = claude_hooks(*(spec(command) for command in commands), project_dir=tmp_path)
    seen = answer_prompts(hooks.approvals, Verdict("allow_once"))
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    if verdict == "ask-prompted":
        assert outcome.verdict == "allow" and len(seen) == 1
    else:
        assert outcome.verdict == verdict and seen == []


async def test_matching_hooks_run_in_parallel(tmp_path: Path) -> None:
    slow = "cat > /dev/null; sleep 0.5"
    hooks = claude_hooks(spec(slow), spec(slow + " "), project_dir=tmp_path)
    started = time.perf_counter()
    await hooks.fire("PreToolUse", tool_event(), source="test")
    assert time.perf_counter() - started < 0.95 and len(exchanges(hooks)) == 2  # not 1 s


async def test_identical_commands_run_once(tmp_path: Path) -> None:
    command = reply(0, decision("allow"))
    hooks = claude_hooks(
        spec(command, name="a"), spec(command, name="b", matcher="Bash"), project_dir=tmp_path
    )
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert [e.hook for e in exchanges(hooks)] == ["a"] and outcome.duplicates == (("b", "a"),)
    assert decisions(hooks)[0].chain[-1] == {"hook": "b", "action": "deduplicated", "same_as": "a"}


async def test_no_matching_hook_decides_nothing_and_records_nothing(tmp_path: Path) -> None:
    hooks = claude_hooks(spec(reply(0), matcher="Write"), project_dir=tmp_path)
    outcome = await hooks.fire("PreToolUse", tool_event(), source="test")
    assert outcome.verdict == "continue" and outcome.runs == () and len(hooks.journal) == 0


# ---- matchers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("matcher", "tool", "expected"),
    [
        (None, "Bash", True),
        ("", "Bash", True),
        ("*", "mcp__memory__store", True),
        ("Bash", "Bash", True),
        ("Bash", "BashOutput", False),
        ("Bash", "bash", False),
        ("Edit|Write", "Write", True),
        ("Edit|Write", "Read", False),
        ("mcp__.*", "mcp__memory__store", True),
        ("mcp__.*", "Bash", False),
        ("Notebook.*", "NotebookEdit", True),
        ("^Bash$", "BashOutput", False),
        ("Write.*", "TodoWrite", True),  # a regex is searched anywhere, like RegExp.test
    ],
)
def test_matcher_forms(matcher: str | None, tool: str, expected: bool) -> None:
    assert matches(matcher, tool) is expected


def test_matchers_test_the_field_of_their_event(tmp_path: Path) -> None:
    hooks = claude_hooks(
        spec("a", matcher="Bash"),
        spec("b", matcher="mcp__.*"),
        spec("c", "Stop", matcher="Bash"),
        spec("d", "SessionStart", matcher="resume"),
        project_dir=tmp_path,
    )
    picked = [hook.spec.command for hook in hooks.matching("PreToolUse", tool_event())]
    assert picked == ["a"]
    assert [hook.spec.command for hook in hooks.matching("Stop", STOP)] == ["c"]
    startup = {"hook_event_name": "SessionStart", "source": "startup"}
    assert hooks.matching("SessionStart", startup) == []


async def test_system_message_and_additional_context(tmp_path: Path) -> None:
    answer = {
        "systemMessage": "remember the style guide",
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "branch: main",
        },
    }
    outcome, exchange = await fire_one(tmp_path, reply(0, answer), "UserPromptSubmit", PROMPT)
    assert outcome.messages == ("remember the style guide",)
    assert outcome.context == ("branch: main",) and exchange.findings == []


@pytest.mark.parametrize(
    ("name", "error"),
    [
        (None, 'hookSpecificOutput is missing required field "hookEventName"'),
        ("PostToolUse", "Hook returned incorrect event name: expected 'PreToolUse' but got "
         "'PostToolUse'"),
    ],
)  # fmt: skip
async def test_a_wrong_hook_event_name_voids_the_answer_and_the_tool_runs(
    tmp_path: Path, name: str | None, error: str
) -> None:
    specific = {"permissionDecision": "deny", "permissionDecisionReason": "no"}
    if name is not None:
        specific["hookEventName"] = name
    answer = {"hookSpecificOutput": specific, "continue": False}
    outcome, exchange = await fire_one(tmp_path, reply(0, answer))
    assert (outcome.verdict, exchange.action) == ("continue", "error")
    assert outcome.messages == (f"{exchange.hook}: {error}",)
    assert codes(exchange) == ["claude-event-name"]
    assert exchange.findings[0].severity == "error"
