"""`check` on settings written for a Claude Code newer than the newest known here: a hook on an
event 2.1.332 knows is checked like any other, and one on an event no known release has is named
with why and counts against `ok`, never left out of the report."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import hook_inspector
from tests.drivers.test_check_hosts import claude_project, command, report_of
from tests.support.claude import reply


def test_check_names_a_hook_on_an_event_no_known_release_has(tmp_path: Path) -> None:
    project = claude_project(
        tmp_path,
        {
            "PostDeploy": [command(reply(0))],  # a newer release's, or a typo: nobody knows
            "PreSkillShellCommand": [command(reply(0), matcher="Bash")],  # 2.1.332's
        },
    )
    result = hook_inspector("check", str(project), "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    assert json.loads(result.stdout)["ok"] is False
    hooks = report_of(result)
    unknown = hooks[next(name for name in hooks if name.startswith("PostDeploy:"))]
    assert unknown["ok"] is False and unknown["probed"] == []
    problems = " ".join(unknown["problems"])
    assert 'unknown hook event "PostDeploy"' in problems and "2.1.332" in problems
    known = hooks[next(name for name in hooks if name.startswith("PreSkillShellCommand:"))]
    assert known["problems"] == []
