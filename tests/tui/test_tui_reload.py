"""Hot reload in the UI: a saved script changes the next answer; a broken config changes nothing."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import yaml
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets import Static

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.journal.records import Exchange, Reload
from inspector.tui.app import InspectorApp, Session
from inspector.tui.screens.pick import PickScreen
from inspector.tui.screens.replay_report import ReplayReportScreen
from tests.reload.test_reload import hook_script
from tests.support.tui import make_app, opened, running
from tests.support.waiting import wait_for


def write_config(folder: Path, priority: int = 0) -> Path:
    hooks = {
        name: {
            "command": [sys.executable, f"{name}.py"],
            "intercept": ["before_tool"],
            "priority": priority,
        }
        for name in ("alpha", "beta")
    }
    path = folder / "hooks.yaml"
    path.write_text(yaml.safe_dump({"hooks": hooks}))
    return path


@asynccontextmanager
async def watching_app(
    tmp_path: Path, message_hook: Callable[[Message], None] | None = None
) -> AsyncIterator[tuple[InspectorApp, Engine, Path, Pilot[int]]]:
    """The app on two script hooks, alpha and beta, with every hook up and the watcher armed."""
    for name in ("alpha", "beta"):
        (tmp_path / f"{name}.py").write_text(hook_script(f"{name}-v1"))
    config = write_config(tmp_path)
    engine = Engine(load_config(config))
    app = make_app(Session(engine, config_path=config), tmp_path / "settings")
    async with running(app, message_hook=message_hook) as pilot:
        await wait_for(
            lambda: all(getattr(h, "running", False) for h in engine.runtime.hooks.values())
        )
        await wait_for(lambda: app.reloader is not None and app.reloader.armed.is_set())
        yield app, engine, config, pilot


async def test_saving_a_script_changes_the_next_answer_and_nothing_else(tmp_path: Path) -> None:
    notes: list[str] = []

    def collect(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    async with watching_app(tmp_path, collect) as (app, engine, config, _pilot):
        beta = engine.runtime.hooks["beta"]
        assert isinstance(beta, ProcessHook)
        beta_pid = beta.pid
        (tmp_path / "alpha.py").write_text(hook_script("alpha-v2"))
        await wait_for(
            lambda: any(r.restarted == ["alpha"] for r in engine.journal.of_type(Reload))
        )
        answer = await engine.send_to_hook("alpha", "hook.before_tool", {"tool": "t"})
        assert answer.response is not None and answer.response["result"]["reason"] == "alpha-v2"
        assert engine.runtime.hooks["beta"] is beta and beta.pid == beta_pid
        exchanges = app.query_one("#exchanges")
        # The list takes new records on its 20 Hz ingest tick, so the row lands a moment later.
        await wait_for(lambda: any(isinstance(row, Reload) for row in exchanges.rows))
        shown = [row for row in exchanges.rows if isinstance(row, Reload)]
        assert shown[-1].restarted == ["alpha"]

        config.write_text("hooks: [not, a, map]\n")
        await wait_for(lambda: any(r.error for r in engine.journal.of_type(Reload)))
        await wait_for(lambda: any("hooks.yaml" in note for note in notes))
        assert engine.runtime.hooks["beta"] is beta and beta.running
        still = await engine.send_to_hook("beta", "hook.before_tool", {"tool": "t"})
        assert isinstance(still, Exchange) and still.status == "ok"


async def test_reload_by_hand_and_paused_watching(tmp_path: Path) -> None:
    async with watching_app(tmp_path) as (app, engine, _config, pilot):
        await pilot.press("W")
        assert app.reloader is not None and app.reloader.paused
        write_config(tmp_path, priority=3)
        await pilot.press("r")
        await wait_for(lambda: any(r.trigger == "hand" for r in engine.journal.of_type(Reload)))
        reload = next(r for r in engine.journal.of_type(Reload) if r.trigger == "hand")
        assert sorted(reload.restarted) == ["alpha", "beta"]
        await pilot.press("W")
        assert not app.reloader.paused


async def test_replaying_this_session_after_an_edit_shows_what_changed(tmp_path: Path) -> None:
    async with watching_app(tmp_path) as (_app, engine, _config, pilot):
        for name in ("alpha", "beta"):
            await engine.send_to_hook(name, "hook.before_tool", {"tool": "t"})
        (tmp_path / "alpha.py").write_text(hook_script("alpha-v2"))
        await wait_for(
            lambda: any(r.restarted == ["alpha"] for r in engine.journal.of_type(Reload))
        )
        await pilot.press("P")
        await opened(pilot, PickScreen, "the session picker")
        await pilot.press("enter")
        report = await opened(pilot, ReplayReportScreen, "the replay report")
        shown = str(report.query_one("#summary", Static).render())
        assert "answers changed" in shown and "2 requests, 1 same, 1 different" in shown
