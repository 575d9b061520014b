"""`check` on a Claude Code project names every hook of the file: a handler host mode cannot run
(prompt, agent, mcp_tool: no model, no MCP server here) is listed with why, and counts against
`ok`, where it used to be left out with `{"ok": true, "hooks": []}`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Exchange, Lifecycle
from inspector.tui.launch import build_session
from inspector.tui.widgets.hooks_panel import HooksPanel
from tests.cli.test_cli import hook_inspector
from tests.drivers.test_check_hosts import claude_project, command, report_of
from tests.support.claude import reply
from tests.support.tui import make_app, running, until


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


def test_run_names_a_hook_it_cannot_run_with_why(tmp_path: Path) -> None:
    project = claude_project(
        tmp_path, {"PreToolUse": [group({"type": "prompt", "prompt": "Safe? $ARGUMENTS"})]}
    )
    (project / "scenario.yaml").write_text(SCENARIO)
    result = hook_inspector("run", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    [line] = [line for line in result.stdout.splitlines() if "PreToolUse:prompt" in line]
    assert "cannot run here" in line and "no model" in line


async def test_the_hooks_panel_shows_a_hook_it_cannot_run_and_why(tmp_path: Path) -> None:
    project = claude_project(
        tmp_path, {"Stop": [command(reply(0)), group({"type": "agent", "prompt": "Tests ran?"})]}
    )
    async with Engine(load_config(project)) as engine:
        failed = [r for r in engine.journal.of_type(Lifecycle) if r.state == "failed"]
        [record] = failed  # the command hook it can run is not among them
        assert record.hook == "Stop:agent" and "no model" in record.detail
        assert engine.runtime.hook_names() == ["Stop:reply.sh"]  # the composer offers what runs
    session = build_session(project, tmp_path / "live.jsonl")
    session.watch = False
    app = make_app(session, tmp_path / "settings")
    async with running(app) as pilot:
        panel = app.query_one(HooksPanel)

        def states() -> dict[str, str]:
            panel.refresh_rows()
            return {str(panel.get_row(key)[0]): str(panel.get_row(key)[1]) for key in panel.rows}

        await until(pilot, lambda: states().get("Stop:agent") == "failed", what="the agent row")


def test_replay_says_why_a_hook_it_cannot_run_is_not_replayed(tmp_path: Path) -> None:
    project = claude_project(tmp_path, {"Stop": [group({"type": "agent", "prompt": "Ran?"})]})
    recorded = Exchange(hook="Stop:agent", method="Stop", request={"hook_event_name": "Stop"})
    engine = Engine(load_config(project))
    why = engine.runtime.unreplayable(recorded)
    assert why is not None and why.outcome == "skipped"
    assert "cannot run here" in why.note and "no model" in why.note


SCENARIO = """\
name: one Bash call
turns:
  - user: "list"
    rounds:
      - content: "Listing."
        tool_calls:
          - tool: Bash
            arguments: {command: "ls"}
            result: '{"stdout": "", "stderr": "", "interrupted": false}'
      - content: "Done."
"""
