"""Replay of command-hook sessions: a j-cli and a Claude Code project recorded with `run
--journal`, then each run sent again to the hook of the same name and event, and compared with
its recorded outcome as the host reads it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.tui.app import Session
from inspector.tui.screens.pick import PickScreen
from inspector.tui.screens.replay_report import ReplayReportScreen
from tests.cli.test_cli import hook_inspector
from tests.support.claude import SCRIPTS as CLAUDE_SCRIPTS
from tests.support.paths import EXAMPLES
from tests.support.tui import make_app, opened, running

GUARD = Path(".jcli") / "hooks" / "guard_dangerous" / "guard.py"
NO_RM_RF = Path(".claude") / "hooks" / "no_rm_rf.py"
REPLY = CLAUDE_SCRIPTS / "reply.sh"  # reply.sh CODE STDOUT STDERR, for either host


def example(tmp_path: Path, name: str) -> Path:
    """A copy of an example project, so its scripts can be changed."""
    return Path(shutil.copytree(EXAMPLES / name, tmp_path / name))


def record(project: Path) -> Path:
    """The project's scenario played with `run --journal`: the session to replay."""
    journal = project.parent / f"{project.name}.jsonl"
    scenario = project / "scenario.yaml"
    result = hook_inspector(
        "run", str(project), "--scenario", str(scenario), "--journal", str(journal)
    )
    # 1 says a hook failed, which some sessions here are about
    assert result.returncode in (0, 1) and journal.exists(), result.stdout + result.stderr
    return journal


def replay(journal: Path, project: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return hook_inspector("replay", str(journal), str(project), *more)


def runs(journal: Path) -> list[dict[str, Any]]:
    """The recorded command-hook runs that got an answer, each as last saved: a run touched
    after a flush wrote it (the action its host took, on a slow machine) has a second line with
    the same seq."""
    latest: dict[int, dict[str, Any]] = {}
    for line in journal.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "exchange":
            latest[record["seq"]] = record
    return [r for r in latest.values() if r["status"] != "not_sent"]


def run_of(journal: Path, hook: str, answer: str) -> dict[str, Any]:
    return next(r for r in runs(journal) if r["hook"] == hook and answer in r["raw_response"])


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.mark.parametrize("host", ["jcli", "claude"])
def test_replay_against_the_same_hooks_finds_every_run_the_same(tmp_path: Path, host: str) -> None:
    project = example(tmp_path, host)
    journal = record(project)
    recorded = runs(journal)
    assert recorded and all(not r["method"].startswith("hook.") for r in recorded)
    result = replay(journal, project, "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] and report["requests"] == report["same"] == len(recorded)
    assert sorted(item["seq"] for item in report["items"]) == sorted(r["seq"] for r in recorded)
    assert all(item["outcome"] == "same" for item in report["items"])
    text = replay(journal, project)
    assert text.returncode == 0, text.stdout + text.stderr
    assert f"{len(recorded)} requests, {len(recorded)} same, 0 different" in text.stdout


def test_a_jcli_hook_that_now_stops_instead_of_skipping_is_a_difference(tmp_path: Path) -> None:
    project = example(tmp_path, "jcli")
    journal = record(project)
    skipped = run_of(journal, "project:guard_dangerous", '"skip"')
    edit(project / GUARD, '{"action": "skip"}', '{"action": "stop"}')
    result = replay(journal, project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"#{skipped['seq']} project:guard_dangerous pre_tool_execution: different" in (
        result.stdout
    )
    assert '-    "action": "skip"' in result.stdout
    assert '+    "action": "stop"' in result.stdout
    assert f"{len(runs(journal))} requests, {len(runs(journal)) - 1} same, 1 different" in (
        result.stdout
    )


def test_a_claude_deny_that_became_exit_2_shows_the_code_and_the_stderr(tmp_path: Path) -> None:
    project = example(tmp_path, "claude")
    journal = record(project)
    denied = run_of(journal, "PreToolUse:no_rm_rf.py", '"deny"')
    edit(
        project / NO_RM_RF,
        'print(json.dumps({"hookSpecificOutput": answer}))',
        'print("no", file=sys.stderr)\n        sys.exit(2)',
    )
    result = replay(journal, project, "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads(result.stdout)
    different = [item for item in report["items"] if item["outcome"] == "different"]
    assert [item["seq"] for item in different] == [denied["seq"]]
    assert different[0]["replayed"] == {"exit_code": 2, "stderr": "no"}
    assert different[0]["recorded"]["exit_code"] == 0
    decision = different[0]["recorded"]["stdout"]["hookSpecificOutput"]["permissionDecision"]
    assert decision == "deny"
    assert f"#{denied['seq']} PreToolUse:no_rm_rf.py PreToolUse: different" in (
        replay(journal, project).stdout
    )


def failing_hook(project: Path, host: str, stderr: str) -> None:
    """One more hook in the project that fails with exit 1 and `stderr`."""
    command = f"sh {REPLY} 1 '' '{stderr}'"
    if host == "jcli":
        folder = project / ".jcli" / "hooks" / "failing"
        folder.mkdir(exist_ok=True)
        (folder / "HOOK.yaml").write_text(
            f"events: [pre_llm_request]\ncommand: {json.dumps(command)}\non_error: skip\n"
        )
        return
    settings = project / ".claude" / "settings.json"
    config = json.loads(settings.read_text())
    config["hooks"]["UserPromptSubmit"] = [{"hooks": [{"type": "command", "command": command}]}]
    settings.write_text(json.dumps(config))


@pytest.mark.parametrize(("host", "outcome"), [("jcli", "same"), ("claude", "different")])
def test_stderr_of_a_failed_run_counts_only_where_the_host_shows_it(
    tmp_path: Path, host: str, outcome: str
) -> None:
    """j-cli only logs a failed hook's stderr; Claude Code shows it (to the user on exit 1)."""
    project = example(tmp_path, host)
    failing_hook(project, host, "first words")
    journal = record(project)
    failed = [r for r in runs(journal) if r["exit_code"] == 1]
    assert failed and all("first words" in r["stderr"] for r in failed)
    failing_hook(project, host, "other words")
    result = replay(journal, project, "--json")
    assert result.returncode == (0 if outcome == "same" else 1), result.stdout + result.stderr
    items = {item["seq"]: item for item in json.loads(result.stdout)["items"]}
    assert {items[r["seq"]]["outcome"] for r in failed} == {outcome}


def test_a_hook_gone_from_the_config_is_a_missing_hook(tmp_path: Path) -> None:
    project = example(tmp_path, "jcli")
    journal = record(project)
    shutil.rmtree(project / GUARD.parent)
    result = replay(journal, project)
    assert result.returncode == 1
    assert "project:guard_dangerous pre_tool_execution: missing hook" in result.stdout


async def test_replay_in_the_ui_shows_a_changed_jcli_hook(tmp_path: Path) -> None:
    project = example(tmp_path, "jcli")
    journal = record(project)
    engine = Engine(load_config(project))
    app = make_app(Session(engine, config_path=project, watch=False), tmp_path / "settings")
    edit(project / GUARD, '{"action": "skip"}', '{"action": "stop"}')
    async with running(app) as pilot:
        await pilot.press("P")
        picker = await opened(pilot, PickScreen, "the session picker")
        choices = picker.query_one(OptionList)
        choices.highlighted = choices.get_option_index(str(journal))
        await pilot.press("enter")
        report = await opened(pilot, ReplayReportScreen, "the replay report")
        shown = str(report.query_one("#summary", Static).render())
        recorded = len(runs(journal))
        assert f"{recorded} requests, {recorded - 1} same, 1 different" in shown
