"""What a new user met on the screen (issue 27): each rough edge, through the real app."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.widgets import Input

from tests.support.scripted import config_of, scripted
from tests.support.tui import listed, live_app, paste, running, until


async def test_a_filter_made_invalid_by_typing_keeps_the_filter_in_effect(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("redactor"), scripted("weather")), tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: len(listed(app)) == 2, what="both hellos")
        field = app.query_one("#filter", Input)
        await pilot.press("slash")
        await paste(pilot, "hook:weather")
        await pilot.press("enter")
        await until(pilot, lambda: {e.hook for e in listed(app)} == {"weather"}, what="narrowed")

        await pilot.press("slash", "end")
        for character in " & status:timout":  # all queued at once, as fast typing arrives
            key = "space" if character == " " else character
            app.post_message(events.Key(key, character))
        await until(pilot, lambda: field.value.endswith("timout"), what="typed")
        await until(pilot, lambda: field.has_class("-invalid"), what="the error shown")
        await until(pilot, lambda: app._filter_timer is None, what="nothing pending")
        assert {e.hook for e in listed(app)} == {"weather"}
