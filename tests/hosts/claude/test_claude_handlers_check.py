"""`check` on a Claude Code project names every hook of the file: a handler host mode cannot run
(prompt, agent, mcp_tool: no model, no MCP server here) is listed with why, and counts against
`ok`, where it used to be left out with `{"ok": true, "hooks": []}`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli.test_cli import hook_inspector
from tests.drivers.test_check_hosts import claude_project, command, report_of
from tests.support.claude import reply


def group(*handlers: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"hooks": list(handlers)}
    return entry if matcher is None else {"matcher": matcher, **entry}


def test_check_names_the_hooks_it_cannot_run_and_fails(tmp_path: Path) -> None:
    project = claude_project(
        tmp_path,
        {
            "PreToolUse": [
                group(
                    {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"},
                    {"type": "mcp_tool", "server": "guard", "tool": "vet"},
                    matcher="Bash",
                )
            ],
            "Stop": [group({"type": "agent", "prompt": "Did the tests run?"})],
        },
    )
    result = hook_inspector("check", str(project), "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] is False
    hooks = report_of(result)
    assert set(hooks) == {"PreToolUse:prompt", "PreToolUse:mcp_tool", "Stop:agent"}
    for hook in hooks.values():
        assert hook["ok"] is False and hook["probed"] == []
    problems = {name: " ".join(hook["problems"]) for name, hook in hooks.items()}
    assert "cannot run" in problems["PreToolUse:prompt"]
    assert "model" in problems["PreToolUse:prompt"]
    assert "MCP server" in problems["PreToolUse:mcp_tool"]
    assert "model" in problems["Stop:agent"]


def test_check_counts_a_hook_it_cannot_run_beside_ones_that_pass(tmp_path: Path) -> None:
    project = claude_project(
        tmp_path,
        {
            "Stop": [command(reply(0)), group({"type": "agent", "prompt": "Tests ran?"})],
        },
    )
    human = hook_inspector("check", str(project))
    assert human.returncode == 1, human.stdout + human.stderr
    assert "1 of 2 hook(s) pass" in human.stdout
    assert "Stop:agent" in human.stdout
    assert "cannot run" in human.stdout
