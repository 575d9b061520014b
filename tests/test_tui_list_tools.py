"""The list's tools from mitmproxy: mark rows, clear the list, copy the raw request or answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import config_of, scripted
from textual.widgets import Input
from tui_support import exchange_list, listed, live_app, running, until

from inspector.journal.records import Exchange

CALL = {"tool": "exec", "arguments": {"command": "ls"}}


async def test_mark_clear_and_copy_raw_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMUX", raising=False)
    app = live_app(config_of(scripted("alpha")), tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: listed(app), what="the hello")
        await app.engine.send_to_hook("alpha", "hook.before_tool", CALL)
        rows = exchange_list(app)
        await until(pilot, lambda: rows.cursor_row == 1, what="the call highlighted")
        call = rows.highlighted_record
        assert isinstance(call, Exchange)

        await pilot.press("m")
        assert rows.render_line(2).text.split()[0] == f"●{call.seq}"
        await pilot.press("m")
        assert rows.render_line(2).text.split()[0] == str(call.seq)

        await pilot.press("u")
        await until(pilot, lambda: app.clipboard == call.raw_request, what="the raw request")
        await pilot.press("U")
        await until(pilot, lambda: app.clipboard == call.raw_response, what="the raw response")

        await pilot.press("z")
        await until(pilot, lambda: not rows.rows, what="an empty list")
        assert call in app.engine.journal.records  # the journal keeps what the view cleared
        await app.engine.send_to_hook("alpha", "hook.before_tool", CALL)
        await until(pilot, lambda: len(rows.rows) == 1, what="only the new call")


async def test_marked_yes_filters_the_marked_rows_and_follows_new_marks(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha"), scripted("beta")), tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: len(listed(app)) == 2, what="two hellos")
        rows = exchange_list(app)
        await pilot.press("g", "m")  # mark the first row
        marked = rows.rows[0]
        await pilot.press("slash", *"marked:yes", "enter")
        await until(pilot, lambda: list(rows.rows) == [marked], what="only the marked row")
        await pilot.press("m")  # unmarked: it no longer matches
        await until(pilot, lambda: not rows.rows, what="an empty list")
        await pilot.press("slash")
        app.query_one("#filter", Input).value = "marked:no"
        await until(pilot, lambda: len(rows.rows) == 2, what="both rows, none marked")


async def test_highlight_mode_marks_matches_and_hides_nothing(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha"), scripted("beta")), tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: len(listed(app)) == 2, what="two hellos")
        rows = exchange_list(app)
        await pilot.press("slash", *"hook:beta", "enter")
        await until(pilot, lambda: len(rows.rows) == 1, what="the filter hiding alpha")
        await pilot.press("H")
        await until(pilot, lambda: len(rows.rows) == 2, what="alpha shown again")
        await pilot.press("g")  # the cursor off the beta row, whose colour it would hide
        lines = {rows.render_line(y).text.split()[3]: rows.render_line(y) for y in (1, 2)}
        match, other = lines["beta"], lines["alpha"]
        assert next(iter(match)).style != next(iter(other)).style
        assert rows.cursor_row == 0 and rows.rows[0].hook == "alpha"
        await pilot.press("H")
        await until(pilot, lambda: len(rows.rows) == 1, what="hiding again")


async def test_the_filter_field_remembers_what_was_submitted(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with running(app) as pilot:
        field = app.query_one("#filter", Input)
        for expression in ("hook:alpha", "status:error"):
            await pilot.press("slash")
            field.value = expression
            await pilot.press("enter")
        await pilot.press("slash")
        field.value = ""
        await pilot.press("up")
        assert field.value == "status:error"
        await pilot.press("up")
        assert field.value == "hook:alpha"
        await pilot.press("down", "down")
        assert field.value == ""
