"""Several PreToolUse hooks on one call answering differently, real and emulated side by side:
whose `updatedInput` the tool runs, and what a `continue: false` beside a deny does."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import claude_gaps as gaps
from claude_cli import ClaudeCli
from claude_fixtures import claude_cli, project  # noqa: F401 (fixtures used by name)
from emulation import emulate
from fake_anthropic import Reply, bash
from recorded_hooks import write_settings
from test_claude_emulation_semantics import command, deny, one_turn
from test_claude_real import REASON, RISKY, play

JSONObject = dict[str, Any]


def pre_tool_use(*handlers: JSONObject) -> JSONObject:
    return {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": list(handlers)}]}}


def rewrite(command_line: str) -> str:
    """An answer that only rewrites the command."""
    specific = {"hookEventName": "PreToolUse", "updatedInput": {"command": command_line}}
    return json.dumps({"hookSpecificOutput": specific})


def test_the_last_hook_to_finish_gives_an_update_only_answers_input(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    marker = project.parent / "early.pid"
    first = f"echo $$ > {marker}.new && mv {marker}.new {marker}; exec"
    settings = pre_tool_use(
        command(first, rewrite("touch early.txt")),
        command("", rewrite("touch late.txt"), waits_for=marker),
    )
    write_settings(project, settings)
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),)), Reply("Done.")]
    play(claude_cli, project, home, script)
    made = sorted(path.name for path in project.glob("*.txt"))
    assert made == ["late.txt"]

    marker.unlink()
    outcome = asyncio.run(emulate(project, settings, one_turn(script), version=claude_cli.version))
    [use] = outcome.tool_uses
    agrees = use.ran and use.tool_input["command"] == f"touch {made[0]}"
    assert agrees is not gaps.differs(claude_cli.version, gaps.LAST_UPDATED_INPUT), use


def test_continue_false_beside_a_deny_keeps_the_tool_from_running(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    stop = json.dumps({"continue": False, "stopReason": "the turn ends here"})
    settings = pre_tool_use(command("", stop), command("", deny(REASON)))
    write_settings(project, settings)
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),)), Reply("Understood.")]
    _, api = play(claude_cli, project, home, script)
    assert not (project / "made.txt").exists()  # the deny holds
    ended = len(api.requests) == 1  # 2.1.332 ends the turn; 2.1.197 asks the model again

    outcome = asyncio.run(emulate(project, settings, one_turn(script), version=claude_cli.version))
    [use] = outcome.tool_uses
    agrees = (use.ran, outcome.status == "stopped") == (False, ended)
    assert agrees is not gaps.differs(claude_cli.version, gaps.STOP_BESIDE_DENY), (use, outcome)
