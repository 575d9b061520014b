"""Sessions: a saved journal opened read-only, and replayed as a regression test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from inspector.demo import DEMO_CONFIG, DEMO_FOLDER
from inspector.journal.jsonl import ONE_PER_LINE
from inspector.journal.records import Exchange
from inspector.tui.app import InspectorApp
from inspector.tui.launch import read_only_session
from inspector.tui.widgets.exchange_list import ExchangeList
from tests.support.paths import SCRIPTED
from tests.support.waiting import wait_for


def hook_inspector(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo scenario played against the demo hooks, saved with --journal."""
    path = tmp_path_factory.mktemp("session") / "demo.jsonl"
    result = hook_inspector("run", "--journal", path)
    assert result.returncode == 0, result.stderr
    return path


def demo_with_approver(tmp_path: Path, script: dict[str, object]) -> Path:
    """The demo config with review_gate swapped for a scripted hook; the others run as they are."""
    hooks = yaml.safe_load(DEMO_CONFIG.read_text())["hooks"]
    for spec in hooks.values():
        spec["dir"] = str(DEMO_FOLDER)
    hooks["review_gate"]["command"] = [sys.executable, str(SCRIPTED), json.dumps(script)]
    path = tmp_path / "hooks.yaml"
    path.write_text(yaml.safe_dump({"hooks": hooks}))
    return path


def test_replay_against_the_same_hooks_finds_no_difference(session: Path) -> None:
    result = hook_inspector("replay", session)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "16 requests, 16 same, 0 different, 0 missing hook" in result.stdout


def test_replay_against_a_changed_hook_shows_the_approval_that_differs(
    session: Path, tmp_path: Path
) -> None:
    config = demo_with_approver(tmp_path, {})  # scripted's default: approve everything
    result = hook_inspector("replay", session, config)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "16 requests, 15 same, 1 different, 0 missing hook" in result.stdout
    denied = next(
        line for line in session.read_text().splitlines() if "review_gate blocked" in line
    )
    seq = json.loads(denied)["seq"]
    assert f"#{seq} review_gate hook.approve_tool: different" in result.stdout
    assert '-    "approved": false,' in result.stdout
    assert '+    "approved": true' in result.stdout


def test_replay_json_reports_every_request(session: Path, tmp_path: Path) -> None:
    config = demo_with_approver(tmp_path, {"approve_tool": {"error": {"code": 1, "message": "no"}}})
    result = hook_inspector("replay", session, config, "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert (report["requests"], report["same"], report["different"]) == (16, 14, 2)
    different = [item for item in report["items"] if item["outcome"] == "different"]
    assert {item["method"] for item in different} == {"hook.approve_tool"}
    assert all(item["replayed"] == {"error": "no"} for item in different)


def test_replay_reports_a_hook_missing_from_the_config(session: Path, tmp_path: Path) -> None:
    hooks = yaml.safe_load(DEMO_CONFIG.read_text())["hooks"]
    del hooks["weather"]
    for spec in hooks.values():
        spec["dir"] = str(DEMO_FOLDER)
    config = tmp_path / "hooks.yaml"
    config.write_text(yaml.safe_dump({"hooks": hooks}))
    result = hook_inspector("replay", session, config)
    assert result.returncode == 1
    assert "weather hook.before_tool: missing hook" in result.stdout
    assert "16 requests, 6 same, 0 different, 10 missing hook" in result.stdout


def test_a_corrupt_journal_is_one_line_and_exit_2(session: Path, tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.jsonl"
    lines = session.read_text().splitlines()
    corrupt.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    for command in ("open", "replay"):
        result = hook_inspector(command, corrupt)
        assert result.returncode == 2
        assert result.stderr.startswith(f"hook-inspector: {corrupt}:2: not JSON")
        assert len(result.stderr.splitlines()) == 1
        assert "Traceback" not in result.stderr


def test_replay_of_a_journal_with_no_requests_is_bad_input(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = hook_inspector("replay", empty)
    assert result.returncode == 2
    assert result.stderr == f"hook-inspector: {empty}: empty: {ONE_PER_LINE}\n"


async def test_open_shows_the_saved_session_without_starting_hooks(
    session: Path, tmp_path: Path
) -> None:
    app = InspectorApp(read_only_session(session), settings_path=tmp_path)
    async with app.run_test(size=(160, 48)):
        exchanges = app.query_one(ExchangeList)
        await wait_for(
            lambda: any(isinstance(r, Exchange) and r.hook == "review_gate" for r in exchanges.rows)
        )
        assert app.engine.runtime.hooks == {}
