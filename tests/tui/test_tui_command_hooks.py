"""Command hooks in the UI: a j-cli project and a Claude Code project, opened as CONFIG."""

from __future__ import annotations

import shutil
from pathlib import Path

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Decision, Exchange, Reload
from inspector.tui.app import Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.widgets.detail_pane import command_view
from tests.support.paths import EXAMPLES
from tests.support.tui import make_app, opened, running
from tests.support.waiting import wait_for


def project(tmp_path: Path, name: str) -> Path:
    copy = tmp_path / name
    shutil.copytree(EXAMPLES / name, copy)
    return copy


def runs(engine: Engine, event: str) -> list[Exchange]:
    return [e for e in engine.journal.exchanges() if e.method == event and e.status != "pending"]


async def test_a_jcli_turn_plays_in_the_ui_and_a_saved_script_reloads(tmp_path: Path) -> None:
    folder = project(tmp_path, "jcli")
    engine = Engine(load_config(folder))
    app = make_app(Session(engine, config_path=folder), tmp_path / "settings")
    async with running(app):
        await wait_for(lambda: app.reloader is not None and app.reloader.armed.is_set())
        app.play_scenario(folder / "scenario.yaml")
        await wait_for(lambda: len(runs(engine, "pre_tool_execution")) >= 2, timeout=30)
        guard = runs(engine, "pre_tool_execution")[0]
        raw = command_view(guard).plain
        assert "exit code 0" in raw and "stdin" in raw and '"tool_name"' in raw
        assert guard.cwd and f"ran in {guard.cwd}" in raw
        script = folder / ".jcli" / "hooks" / "guard_dangerous" / "guard.py"
        script.write_text(script.read_text() + "\n# saved again\n")
        await wait_for(lambda: any(r.restarted for r in engine.journal.of_type(Reload)))
        reload = next(r for r in engine.journal.of_type(Reload) if r.restarted)
        assert reload.restarted == ["project:guard_dangerous"] and reload.error is None


async def test_a_claude_ask_opens_the_approval_modal(tmp_path: Path) -> None:
    folder = project(tmp_path, "claude")
    engine = Engine(load_config(folder))
    app = make_app(Session(engine, config_path=folder, watch=False), tmp_path / "settings")
    async with running(app) as pilot:
        app.play_scenario(folder / "scenario.yaml")
        await opened(pilot, ApprovalScreen, "the approval modal", timeout=30)
        await pilot.press("a")
        await wait_for(lambda: any(d.by == "human" for d in engine.journal.of_type(Decision)))
        human = next(d for d in engine.journal.of_type(Decision) if d.by == "human")
        assert human.verdict == "allow"
