"""The installed command, run as a user would run it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from inspector import __version__
from tests.support.paths import SCRIPTED


def hook_inspector(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


def write_config(tmp_path: Path, hooks: dict[str, dict[str, Any]]) -> Path:
    path = tmp_path / "hooks.yaml"
    path.write_text(yaml.safe_dump({"hooks": hooks}))
    return path


def scripted_hook(script: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"command": [sys.executable, str(SCRIPTED), json.dumps(script)], **fields}


def test_run_with_no_arguments_plays_the_demo_and_exits_0(tmp_path: Path) -> None:
    journal = tmp_path / "demo.jsonl"
    result = hook_inspector("run", "--journal", str(journal))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "review_gate" in result.stdout and "denied" in result.stdout
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    exchanges = [r for r in records if r["type"] == "exchange"]
    assert {e["method"] for e in exchanges} == {
        "hook.hello",
        "hook.before_llm",
        "hook.after_llm",
        "hook.before_tool",
        "hook.approve_tool",
        "hook.after_tool",
    }  # every method, in the first run; hook.runtime_event notifications are the events
    assert any("event_logger" in r["delivered"] for r in records if r["type"] == "event")
    injected = [
        e
        for e in exchanges
        if e["hook"] == "weather" and e["method"] == "hook.before_llm" and e["action"] == "modify"
    ]
    assert injected, "the weather plugin injects get_weather's definition in before_llm"
    assert all("tools-changed" in {f["code"] for f in e["findings"]} for e in injected)
    for exchange in exchanges:
        for key in ("ts", "hook", "method", "request", "response", "error", "status"):
            assert key in exchange
        assert isinstance(exchange["duration_ms"], float)
        assert isinstance(exchange["findings"], list)
    assert {r["type"] for r in records} >= {"exchange", "event", "stderr", "lifecycle", "decision"}


def test_run_json_prints_one_record_per_line() -> None:
    result = hook_inspector("run", "--json")
    assert result.returncode == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert all("type" in record and "ts" in record for record in records)
    assert any(r["type"] == "decision" and r["verdict"] == "denied" for r in records)


def test_run_exits_1_when_a_hook_answers_with_an_error_finding(tmp_path: Path) -> None:
    broken = scripted_hook({"approve_tool": {"result": {"reason": "forgot approved"}}})
    config = write_config(tmp_path, {"sloppy": {**broken, "intercept": ["approve_tool"]}})
    result = hook_inspector("run", str(config))
    assert result.returncode == 1
    assert "approval-missing-approved" in result.stdout


def test_check_passes_the_demo_hooks() -> None:
    result = hook_inspector("check")
    assert result.returncode == 0, result.stdout
    assert "4 of 4 hook(s) pass" in result.stdout


def test_check_fails_a_misbehaving_hook_and_names_the_problem(tmp_path: Path) -> None:
    good = scripted_hook({}, intercept=["before_tool"])
    bad = scripted_hook(
        {"before_tool": {"result": {"action": "allow"}, "print_before": "debug: hi"}},
        intercept=["before_tool"],
    )
    config = write_config(tmp_path, {"good": good, "bad": bad})
    result = hook_inspector("check", str(config), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    verdicts = {hook["hook"]: hook["ok"] for hook in report["hooks"]}
    assert verdicts == {"good": True, "bad": False}
    problems = next(h["problems"] for h in report["hooks"] if h["hook"] == "bad")
    assert any(problem.startswith("unknown-action") for problem in problems)


def test_check_fails_a_hook_that_never_answers_hello(tmp_path: Path) -> None:
    mute = scripted_hook({"hello": {"never": True}}, intercept=["before_tool"])
    config = tmp_path / "hooks.yaml"
    config.write_text(
        yaml.safe_dump({"defaults": {"handshake_timeout_ms": 300}, "hooks": {"mute": mute}})
    )
    result = hook_inspector("check", str(config))
    assert result.returncode == 1
    assert "never became ready" in result.stdout
    assert "no answer to hook.hello within 300 ms" in result.stdout


@pytest.mark.parametrize("command", ["run", "check"])
def test_a_bad_config_exits_2_naming_file_line_and_key(tmp_path: Path, command: str) -> None:
    config = tmp_path / "hooks.yaml"
    config.write_text("hooks:\n  gate:\n    command: [python3, gate.py]\n    prority: 3\n")
    result = hook_inspector(command, str(config))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"{config}:4:" in result.stderr and "prority" in result.stderr


def test_a_bad_scenario_exits_2(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text("turns:\n  - user: hi\n    rounds: nope\n")
    result = hook_inspector("run", "--scenario", str(scenario))
    assert result.returncode == 2
    assert "s.yaml:3" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [[], ["run"], ["check"]])
def test_every_command_has_help(command: list[str]) -> None:
    result = hook_inspector(*command, "--help")
    assert result.returncode == 0 and "usage: hook-inspector" in result.stdout


def test_version() -> None:
    assert hook_inspector("--version").stdout.strip() == f"hook-inspector {__version__}"


def test_relay_starts_without_importing_the_ui_or_the_config_layer() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "inspector", "relay", "--help"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0 and "--socket" in result.stdout
    imported = {line.split("|")[-1].strip().split(".")[0] for line in result.stderr.splitlines()}
    assert not imported & {"textual", "rich", "yaml", "watchfiles"}


def test_a_headless_run_does_not_wait_for_a_human_who_is_not_there(tmp_path: Path) -> None:
    hooks = {"me": {"kind": "manual", "intercept": ["approve_tool"]}}
    result = hook_inspector("run", str(write_config(tmp_path, hooks)), "--json")
    decisions = [r for r in map(json.loads, result.stdout.splitlines()) if r["type"] == "decision"]
    by_timeout = [d for d in decisions if d["stage"] == "approve_tool"]
    assert by_timeout and all(d["verdict"] in ("deny", "denied") for d in by_timeout)
    assert all("nobody at the inspector" in d["reason"] for d in by_timeout)


def poll(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait for `condition` from outside the event loop, failing after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def write_config_with(tmp_path: Path, hooks: dict[str, Any], **defaults: int) -> Path:
    path = tmp_path / "hooks.yaml"
    path.write_text(yaml.safe_dump({"defaults": defaults, "hooks": hooks}))
    return path


@pytest.mark.parametrize(
    ("behaviour", "status"),
    [({"never": True}, "timeout"), ({"exit": 3}, "exited")],
)
def test_strict_fails_a_run_whose_calls_failed(
    tmp_path: Path, behaviour: dict[str, Any], status: str
) -> None:
    hook = scripted_hook({"before_tool": behaviour}, intercept=["before_tool"])
    config = write_config_with(tmp_path, {"flaky": hook}, interceptor_timeout_ms=300)
    lenient = hook_inspector("run", str(config))
    assert lenient.returncode == 0, lenient.stderr
    assert f"  {status}" in lenient.stdout
    strict = hook_inspector("run", str(config), "--strict")
    assert strict.returncode == 1, strict.stderr
    assert "0 failed call(s)" not in strict.stderr and "failed call(s)" in strict.stderr


def test_strict_passes_a_run_whose_calls_all_succeeded() -> None:
    result = hook_inspector("run", "--strict")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 failed call(s); 0 crash(es)" in result.stderr
