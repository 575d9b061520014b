"""A real `gemini -p`, relayed on every event `hook-inspector install gemini` puts the relay on
by default, to a real `hook-inspector serve`: Gemini CLI names no turn, so the inspector counts
them per session from BeforeAgent. Its prompt's calls, and serve's own hook run for the tool
call, are in one turn named by the session; SessionStart, before the prompt, is in none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fake_gemini import Reply, shell
from gemini_cli import GeminiCli
from gemini_fixtures import gemini_cli, gemini_project  # noqa: F401 (fixtures used by name)
from test_claude_relay import serving
from test_gemini_real import play
from test_gemini_relay import inspector_config, socket_path  # noqa: F401 (fixture)

from inspector.hosts.gemini.install import INSTALLER
from inspector.hosts.installer import Options, Place
from tests.support.claude import reply


def test_a_relayed_prompts_calls_are_one_turn_of_its_session(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, socket_path: Path
) -> None:
    INSTALLER.install(Place(project=gemini_project), Options(socket=socket_path))
    config = inspector_config(gemini_project.parent, reply(0, {"decision": "allow"}))
    script = [Reply(calls=(shell("touch made.txt"),)), Reply("Ok.")]
    with serving(config, socket_path) as journal:
        play(gemini_cli, gemini_project, home, script)

    latest: dict[int, dict[str, Any]] = {}  # each exchange as last saved
    for line in journal.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "exchange":
            latest[record["seq"]] = record
    calls = [r for r in latest.values() if r["hook"] == "gemini"]
    session = calls[0]["request"]["session_id"]
    turns = {r["method"]: r["turn"] for r in calls}
    assert turns["SessionStart"] is None
    assert turns["BeforeAgent"] == turns["BeforeTool"] == turns["AfterAgent"]
    assert turns["BeforeAgent"] == f"{session[:8]}/turn-1"
    (guard_run,) = [r for r in latest.values() if r["hook"] == "guard"]
    assert guard_run["turn"] == turns["BeforeTool"]
