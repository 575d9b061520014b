"""An idle app sleeps: nothing wakes it on a clock while nothing arrives."""

from __future__ import annotations

from pathlib import Path

from textual.timer import Timer

from inspector.tui.app import InspectorApp
from tests.support.scripted import config_of, scripted
from tests.support.tui import listed, live_app, running, until


def running_clocks(app: InspectorApp) -> list[str]:
    """Interval timers of the app and every widget that are running, not paused."""
    nodes = [app, *app.screen_stack, *app.query("*")]
    timers: list[Timer] = [timer for node in nodes for timer in list(node._timers)]
    return [
        timer.name
        for timer in timers
        if timer._repeat is None
        and timer._task is not None
        and not timer._task.done()
        and timer._active.is_set()
    ]


async def test_no_clock_runs_once_the_traffic_has_settled(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha")), tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: listed(app), what="the hello in the list")
        await until(pilot, lambda: not running_clocks(app), what=f"no clock: {running_clocks(app)}")
        before = len(listed(app))
        await app.engine.send_to_hook("alpha", "hook.before_tool", {"tool": "x", "arguments": {}})
        await until(pilot, lambda: len(listed(app)) > before, what="a row that arrived later")
        await until(pilot, lambda: not running_clocks(app), what=f"no clock: {running_clocks(app)}")
