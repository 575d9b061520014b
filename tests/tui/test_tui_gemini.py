"""A Gemini CLI project in the UI, opened as CONFIG: its scenario plays (the guard's deny in the
journal), and a saved hook script reloads."""

from __future__ import annotations

import shutil
from pathlib import Path

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Decision, Reload
from inspector.tui.app import Session
from tests.support.paths import EXAMPLES
from tests.support.tui import make_app, running
from tests.support.waiting import wait_for


async def test_a_gemini_turn_plays_in_the_ui_and_a_saved_script_reloads(tmp_path: Path) -> None:
    folder = tmp_path / "gemini"
    shutil.copytree(EXAMPLES / "gemini", folder)
    engine = Engine(load_config(folder))
    app = make_app(Session(engine, config_path=folder), tmp_path / "settings")
    async with running(app):
        await wait_for(lambda: app.reloader is not None and app.reloader.armed.is_set())
        app.play_scenario(folder / "scenario.yaml")

        def denied() -> list[Decision]:
            return [d for d in engine.journal.of_type(Decision) if d.verdict == "deny"]

        await wait_for(lambda: bool(denied()), timeout=30)
        [deny] = denied()
        assert (deny.stage, deny.by, deny.tool) == (
            "BeforeTool",
            "BeforeTool:no-rm-rf",
            "run_shell_command",
        )
        script = folder / ".gemini" / "hooks" / "no_rm_rf.py"
        script.write_text(script.read_text() + "\n# saved again\n")
        await wait_for(lambda: any(r.restarted for r in engine.journal.of_type(Reload)))
        reload = next(r for r in engine.journal.of_type(Reload) if r.restarted)
        assert reload.restarted == ["BeforeTool:no-rm-rf"] and reload.error is None
