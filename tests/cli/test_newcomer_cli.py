"""What a new user met at the command line (issue 27, items 6, 7, 8 and 12's `run` timestamp)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from inspector.cli.printer import Printer
from inspector.journal.journal import Journal
from inspector.journal.records import Stderr

BLOCK_RM = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "echo 'no rm -rf here' >&2; exit 2"}],
            }
        ]
    }
}
ONE_BASH_CALL = """\
name: one call
turns:
  - user: "clean up"
    rounds:
      - content: "removing"
        tool_calls:
          - tool: Bash
            arguments: {command: "rm -rf build"}
      - content: "done"
"""


def hook_inspector(*args: str, columns: int = 160) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": str(columns)},
    )


def claude_project(folder: Path, settings: dict[str, object]) -> Path:
    (folder / ".claude").mkdir(parents=True)
    (folder / ".claude" / "settings.json").write_text(json.dumps(settings))
    return folder


def jcli_project(folder: Path, command: str) -> Path:
    hook = folder / ".jcli" / "hooks" / "broken"
    hook.mkdir(parents=True)
    (hook / "HOOK.yaml").write_text(f"events: [pre_tool_execution]\ncommand: {command}\n")
    return folder


def test_run_on_a_project_with_no_scenario_says_so_and_exits_2(tmp_path: Path) -> None:
    for project in (claude_project(tmp_path / "c", BLOCK_RM), jcli_project(tmp_path / "j", "ls")):
        result = hook_inspector("run", str(project))
        assert result.returncode == 2, result.stdout + result.stderr
        assert "No scenario files next to the config" in result.stderr
        assert "--scenario FILE" in result.stderr
        assert result.stdout == ""  # no demo turn played


def test_run_help_describes_every_kind_of_config() -> None:
    text = " ".join(hook_inspector("run", "--help").stdout.split())
    for kind in ("native YAML", "config.json", "j-cli", "Claude Code", "OpenClaw plugin folder"):
        assert kind in text


def test_run_strict_counts_a_claude_exit_2_block_as_an_answer(tmp_path: Path) -> None:
    project = claude_project(tmp_path, BLOCK_RM)
    (project / "scenario.yaml").write_text(ONE_BASH_CALL)
    result = hook_inspector("run", str(project), "--strict")
    assert "0 failed call(s)" in result.stderr, result.stdout + result.stderr
    assert result.returncode == 0


def test_check_wraps_its_advice_instead_of_cutting_it(tmp_path: Path) -> None:
    project = jcli_project(tmp_path / "a-project-folder-named-at-some-length", "./check.sh")
    result = hook_inspector("check", str(project), columns=100)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert "…" not in result.stdout
    text = " ".join(result.stdout.split())
    assert 'for a script beside HOOK.yaml write "$JCLI_HOOK_DIR/check.sh"' in text
    assert "its reason only reaches j's log.)" in text


async def test_a_record_begun_before_the_first_printed_shows_no_negative_time(
    tmp_path: Path,
) -> None:
    path, journal = tmp_path / "printed", Journal()
    with path.open("w", encoding="utf-8") as out:
        printer = Printer(journal, as_json=False, out=out)
        journal.append(Stderr(ts=100.0, hook="alpha", line="first"))
        journal.append(Stderr(ts=99.9999, hook="alpha", line="begun a moment earlier"))
        await printer.aclose()
    times = re.findall(r"^\s*(-?\d+\.\d+)s ", path.read_text(), re.MULTILINE)
    assert times == ["0.000", "0.000"]
