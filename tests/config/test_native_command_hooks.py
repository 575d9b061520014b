"""Command hooks declared in the native YAML: one host's rules, the same run and UI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from inspector.config import ConfigError
from inspector.config.model import CommandHookSpec
from inspector.hosts.load import load_config

GUARD = """\
import json, sys
call = json.load(sys.stdin)
if "rm -rf" in json.dumps(call.get("tool_input", {})):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
          "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"}}))
"""
SCENARIO = """\
turns:
  - user: clean up
    rounds:
      - content: removing
        tool_calls: [{tool: Bash, arguments: {command: "rm -rf build"}}]
      - content: done
"""


def write(tmp_path: Path, hooks: dict[str, object]) -> Path:
    (tmp_path / "guard.py").write_text(GUARD)
    path = tmp_path / "hooks.yaml"
    path.write_text(yaml.safe_dump({"hooks": hooks}))
    return path


def test_a_claude_command_hook_in_native_yaml_runs_a_turn(tmp_path: Path) -> None:
    guard = {
        "kind": "command",
        "host": "claude",
        "event": "PreToolUse",
        "matcher": "Bash",
        "command": f"{sys.executable} guard.py",
        "timeout_ms": 5000,
    }
    config = write(tmp_path, {"guard": guard})
    loaded = load_config(config)
    assert loaded.host == "claude"
    assert [spec.event for spec in loaded.hooks if isinstance(spec, CommandHookSpec)] == [
        "PreToolUse"
    ]
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(SCENARIO)
    command = ["run", str(config), "--scenario", str(scenario), "--json"]
    result = subprocess.run(
        [sys.executable, "-m", "inspector", *command],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    records = [json.loads(line) for line in result.stdout.splitlines()]
    runs = [r for r in records if r["type"] == "exchange" and r["method"] == "PreToolUse"]
    assert runs and runs[0]["exit_code"] == 0 and runs[0]["action"] == "deny"


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        ({"g": {"kind": "command", "host": "nope", "event": "x", "command": "true"}}, "host must"),
        (
            {"g": {"kind": "command", "host": "jcli", "event": "PreToolUse", "command": "true"}},
            'no event "PreToolUse"',
        ),
        ({"g": {"kind": "command", "host": "claude", "event": "Stop"}}, "command is required"),
        (
            {
                "g": {"kind": "command", "host": "claude", "event": "Stop", "command": "true"},
                "me": {"kind": "manual"},
            },
            "not a mix",
        ),
    ],
)
def test_bad_command_hooks_name_file_line_and_key(
    tmp_path: Path, hooks: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        load_config(write(tmp_path, hooks))
    assert "hooks.yaml:" in str(caught.value)
