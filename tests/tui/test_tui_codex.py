"""A Codex project in the UI, opened as CONFIG: its scenario plays (the guard's block in the
journal), the hooks panel lists its hooks, and a saved hook script reloads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Decision, Reload
from inspector.tui.app import Session
from inspector.tui.widgets.hooks_panel import COLUMNS, HooksPanel
from tests.support.paths import EXAMPLES
from tests.support.tui import make_app, running
from tests.support.waiting import wait_for


async def test_a_codex_turn_plays_in_the_ui_and_a_saved_script_reloads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_TOOL_LOG", str(tmp_path / "tool-log.jsonl"))
    folder = tmp_path / "codex"
    shutil.copytree(EXAMPLES / "codex", folder)
    engine = Engine(load_config(folder))
    app = make_app(Session(engine, config_path=folder), tmp_path / "settings")
    async with running(app):
        await wait_for(lambda: app.reloader is not None and app.reloader.armed.is_set())
        app.play_scenario(folder / "scenario.yaml")

        def blocked() -> list[Decision]:
            return [d for d in engine.journal.of_type(Decision) if d.verdict == "block"]

        await wait_for(lambda: bool(blocked()), timeout=30)
        [block] = blocked()
        assert (block.stage, block.by, block.tool) == (
            "PreToolUse",
            "PreToolUse:no_rm_r.py",
            "Bash",
        )
        panel = app.query_one(HooksPanel)
        panel.refresh_rows()
        shown = {str(panel.get_row(key)[COLUMNS.index("hook")]) for key in panel.rows}
        assert {"PreToolUse:no_rm_r.py", "PostToolUse:log_tool.py"} <= shown
        script = folder / ".codex" / "hooks" / "no_rm_r.py"
        script.write_text(script.read_text() + "\n# saved again\n")
        await wait_for(lambda: any(r.restarted for r in engine.journal.of_type(Reload)))
        reload = next(r for r in engine.journal.of_type(Reload) if r.restarted)
        assert reload.restarted == ["PreToolUse:no_rm_r.py"] and reload.error is None
