"""`hook-inspector check` on j-cli and Claude Code projects: every hook is run once per event it
subscribes to, with the stdin that host sends, and judged by that host's rules. (conftest gives
every test a HOME of its own, so the user's own hooks stay out of it.)"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli import hook_inspector
from tests.support.claude import reply as claude_reply
from tests.support.jcli import SCRIPTS as JCLI_SCRIPTS
from tests.support.jcli import record as jcli_record
from tests.support.jcli import recorded
from tests.support.jcli import reply as jcli_reply
from tests.support.paths import EXAMPLES


def words(text: str) -> str:
    """`text` with its line breaks as spaces: check wraps a finding at the terminal's width."""
    return " ".join(text.split())


def jcli_project(tmp_path: Path, hooks: dict[str, str]) -> Path:
    """A j-cli project whose hooks are HOOK.yaml folders (the text of each HOOK.yaml given)."""
    project = tmp_path / "project"
    for name, hook_yaml in hooks.items():
        folder = project / ".jcli" / "hooks" / name
        folder.mkdir(parents=True)
        (folder / "HOOK.yaml").write_text(hook_yaml)
    return project


def hook_yaml(events: list[str], command: str, **more: Any) -> str:
    fields = {"events": events, "command": command, "timeout": 10, **more}
    return "\n".join(f"{key}: {json.dumps(value)}" for key, value in fields.items()) + "\n"


def claude_project(tmp_path: Path, hooks: dict[str, list[dict[str, Any]]]) -> Path:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    return project


def command(line: str, matcher: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"hooks": [{"type": "command", "command": line, "timeout": 10}]}
    return entry if matcher is None else {"matcher": matcher, **entry}


def report_of(result: subprocess.CompletedProcess[str]) -> dict[str, dict[str, Any]]:
    return {hook["hook"]: hook for hook in json.loads(result.stdout)["hooks"]}


# ---- j-cli ----------------------------------------------------------------------------------


def test_jcli_hooks_that_behave_pass_and_each_event_gets_its_call_sites_context(
    tmp_path: Path,
) -> None:
    log = tmp_path / "seen.jsonl"
    project = jcli_project(
        tmp_path,
        {
            "guard": hook_yaml(
                ["pre_tool_execution"], jcli_record(log), filter={"tool_name": "Edit"}
            ),
            "audit": hook_yaml(
                ["post_tool_execution", "stop", "pre_llm_request"], jcli_record(log)
            ),
            "greet": hook_yaml(["session_start"], jcli_reply({})),
        },
    )
    result = hook_inspector("check", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 of 3 hook(s) pass" in result.stdout
    for event in ("pre_tool_execution", "post_tool_execution", "stop", "pre_llm_request"):
        assert event in result.stdout
    seen = {entry["context"]["event"]: entry for entry in recorded(log)}
    assert set(seen) == {"pre_tool_execution", "post_tool_execution", "stop", "pre_llm_request"}
    assert seen["pre_tool_execution"]["context"]["tool_name"] == "Edit"  # what its filter takes
    assert "tool_result" in seen["post_tool_execution"]["context"]
    assert {"messages", "model", "system_prompt"} <= seen["stop"]["context"].keys()
    assert seen["stop"]["env"]["JCLI_HOOK_EVENT"] == "stop"  # run as j-cli runs it
    assert seen["stop"]["env"]["JCLI_HOOK_DIR"].endswith("audit")


def test_jcli_hooks_that_break_jcli_rules_fail_check_with_the_problem_named(
    tmp_path: Path,
) -> None:
    exit_1 = " ".join(shlex.quote(str(p)) for p in ("sh", JCLI_SCRIPTS / "exit.sh", 1, "{}"))
    project = jcli_project(
        tmp_path,
        {
            "fine": hook_yaml(["pre_tool_execution"], jcli_reply({})),
            "chatty": hook_yaml(["post_tool_execution"], jcli_reply("looks fine to me")),
            "crashy": hook_yaml(["stop"], exit_1),
        },
    )
    result = hook_inspector("check", str(project), "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    hooks = report_of(result)
    assert {name: hook["ok"] for name, hook in hooks.items()} == {
        "project:fine": True,
        "project:chatty": False,
        "project:crashy": False,
    }
    chatty = hooks["project:chatty"]
    assert chatty["host"] == "jcli" and chatty["probed"] == ["post_tool_execution"]
    assert any(problem.startswith("jcli-not-json") for problem in chatty["problems"])
    assert any("exit status 1" in problem for problem in hooks["project:crashy"]["problems"])

    human = hook_inspector("check", str(project))
    assert human.returncode == 1
    assert "jcli-not-json" in human.stdout and "1 of 3 hook(s) pass" in human.stdout
    assert "(j-cli: j-cli counts the run as a failure" in words(human.stdout)
    assert "PicoClaw" not in human.stdout


def test_check_runs_every_jcli_example_hook_and_they_pass(tmp_path: Path) -> None:
    result = hook_inspector("check", str(EXAMPLES / "jcli"), "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    hooks = report_of(result)
    assert len(hooks) == 3
    assert all(hook["ok"] and hook["probed"] for hook in hooks.values())
    assert hooks["project:guard_dangerous"]["probed"] == ["pre_tool_execution"]


# ---- Claude Code ----------------------------------------------------------------------------


def test_claude_hooks_that_behave_pass_and_each_event_gets_claudes_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "seen.jsonl"
    allow = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    project = claude_project(
        tmp_path,
        {
            "PreToolUse": [command(claude_reply(0, allow), matcher="Write|Edit")],
            "PostToolUse": [command(claude_reply(0), matcher="*")],
            "UserPromptSubmit": [command(claude_reply(0, "Remember: tests first."))],
            # exit 2 is how Claude Code hooks block: an answer, not a failed run
            "Stop": [command(claude_reply(0)), command(claude_reply(2, "", "run the tests first"))],
        },
    )
    monkeypatch.setenv("CLAUDE_HOOK_RECORD", str(log))
    result = hook_inspector("check", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 of 5 hook(s) pass" in result.stdout
    for event in ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"):
        assert event in result.stdout
    seen = {
        entry["hook_event_name"]: entry for entry in map(json.loads, log.read_text().splitlines())
    }
    assert set(seen) == {"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"}
    assert seen["PreToolUse"]["tool_name"] == "Write"  # a tool its matcher takes
    assert "tool_response" in seen["PostToolUse"]
    assert seen["Stop"]["stop_hook_active"] is False
    assert all(entry["cwd"] == str(project) for entry in seen.values())


def test_claude_hooks_that_break_claudes_rules_fail_check_with_the_problem_named(
    tmp_path: Path,
) -> None:
    unknown = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "block"}}
    project = claude_project(
        tmp_path,
        {
            "PreToolUse": [command(claude_reply(0, unknown), matcher="Bash")],
            "PostToolUse": [command(claude_reply(1, {"decision": "block", "reason": "no"}))],
            "Stop": [command(claude_reply(0))],
        },
    )
    result = hook_inspector("check", str(project), "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    hooks = list(json.loads(result.stdout)["hooks"])
    verdicts = {hook["probed"][0]: hook["ok"] for hook in hooks}
    assert verdicts == {"PreToolUse": False, "PostToolUse": False, "Stop": True}
    problems = {hook["probed"][0]: " ".join(hook["problems"]) for hook in hooks}
    assert "claude-unknown-decision" in problems["PreToolUse"]
    assert "claude-json-ignored" in problems["PostToolUse"]
    assert all(hook["host"] == "claude" for hook in hooks)

    human = hook_inspector("check", str(project))
    assert human.returncode == 1
    assert "1 of 3 hook(s) pass" in human.stdout
    assert "(Claude Code: Reads stdout's JSON on exit 0 only" in words(human.stdout)
    assert "PicoClaw" not in human.stdout


def test_check_runs_every_claude_example_hook_and_they_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "tool-log.jsonl"
    monkeypatch.setenv("CLAUDE_TOOL_LOG", str(log))
    result = hook_inspector("check", str(EXAMPLES / "claude"), "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    hooks = report_of(result)
    assert len(hooks) == 3
    assert all(hook["ok"] and hook["probed"] for hook in hooks.values())
    assert json.loads(log.read_text())["tool"] == "Bash"  # the logger ran on PostToolUse
