"""At 100x30 the state that matters stays on screen (issue 27, item 11): the status line gives
way in the config's path, never in what is held or waiting; the footer keeps help and quit."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget

from inspector.engine import Engine
from inspector.tui.app import InspectorApp, Session
from inspector.tui.widgets.status_line import SessionState, StatusLine, status_text
from tests.support.scripted import config_of, scripted
from tests.support.tui import make_app, until

SMALL = (100, 30)
BEFORE_TOOL = {"tool": "exec", "arguments": {"command": "ls"}}


def whole_on_screen(app: InspectorApp, widget: Widget) -> bool:
    """Every cell of `widget` is on the screen and is its own, not under another widget."""
    region = widget.region
    if not region or not app.screen.region.contains_region(region):
        return False
    cells = [(x, region.y) for x in range(region.x, region.right)]
    return all(app.screen.get_widget_at(x, y)[0] in (widget, *widget.children) for x, y in cells)


async def test_at_100x30_held_requests_and_help_and_quit_stay_on_screen(tmp_path: Path) -> None:
    deep = tmp_path / "a-project-folder-with-a-long-name" / "and-its-hooks" / "hooks.yaml"
    session = Session(Engine(config_of(scripted("alpha"))), config_path=deep, watch=False)
    app = make_app(session, tmp_path / "settings")
    async with app.run_test(size=SMALL) as pilot:
        app.engine.set_intercept("tool:exec")
        app.run_worker(app.engine.send_through_pipeline("hook.before_tool", BEFORE_TOOL))
        line = app.query_one(StatusLine)
        await until(pilot, lambda: "1 held" in str(line.render()), what="the held request")
        shown = str(line.render())
        assert shown.endswith("1 held  ·  0 approvals pending")
        assert len(shown) <= line.content_size.width
        assert "intercept tool:exec" in shown and "hooks.yaml" not in shown  # the path gave way

        keys = {key.action: key for key in app.screen.query("FooterKey")}
        for action in ("manual", "help", "quit"):
            assert whole_on_screen(app, keys[action]), f"{action} cut from the footer"


def test_the_counts_are_the_last_to_give_way() -> None:
    state = SessionState(
        "/home/someone/projects/agent/.claude/settings.json",
        socket="/run/user/1000/hook-inspector/inspector.sock",
        intercept="tool:exec & args:rm (per hook)",
        held=2,
        approvals=1,
    )
    shown = status_text(state, 98).plain
    assert len(shown) <= 98
    assert shown.endswith("2 held  ·  1 approval pending")
    assert "intercept tool:exec & args:rm (per hook)" in shown
    assert status_text(state).plain.startswith(f"config {state.source}")
