"""The list's tools from mitmproxy: mark rows, clear the list, copy the raw request or answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from inspector.journal.jsonl import JsonlWriter
from inspector.journal.records import Exchange
from inspector.tui.app import InspectorApp
from inspector.tui.launch import read_only_session
from inspector.tui.widgets.record_list import RecordList
from tests.support.scripted import config_of, scripted
from tests.support.tui import exchange_list, listed, live_app, make_app, running, until

CALL = {"tool": "exec", "arguments": {"command": "ls"}}
LIVE_AND_OPENED = pytest.mark.parametrize("kind", ["live", "opened"])


async def hellos_and_a_call(kind: str, folder: Path) -> InspectorApp:
    """alpha's hello and a call to it, made by the test when live, or by a live run saved and
    opened from disk through the index, as `hook-inspector open` opens it."""
    config = config_of(scripted("alpha"))
    if kind == "live":
        return live_app(config, folder)
    recorder = live_app(config, folder)
    async with running(recorder) as pilot:
        await until(pilot, lambda: listed(recorder), what="the hello")
        await recorder.engine.send_to_hook("alpha", "hook.before_tool", CALL)
        await until(pilot, lambda: len(listed(recorder)) == 2, what="the call")
    return saved_and_opened(recorder, folder)


async def two_hellos(kind: str, folder: Path) -> InspectorApp:
    """An app over alpha's and beta's hellos: live, or saved by a live run and opened from disk
    through the index."""
    config = config_of(scripted("alpha"), scripted("beta"))
    if kind == "live":
        return live_app(config, folder)
    recorder = live_app(config, folder)
    async with running(recorder) as pilot:
        await until(pilot, lambda: len(listed(recorder)) == 2, what="two hellos")
    return saved_and_opened(recorder, folder)


def saved_and_opened(recorder: InspectorApp, folder: Path) -> InspectorApp:
    path = folder / "saved.jsonl"
    JsonlWriter(path).attach(recorder.engine.journal).close()
    return make_app(read_only_session(path), folder)


@LIVE_AND_OPENED
async def test_mark_clear_and_copy_raw_lines(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMUX", raising=False)
    app = await hellos_and_a_call(kind, tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: listed(app), what="the hello")
        if kind == "live":
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


async def test_a_cleared_list_shows_the_calls_made_after(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha")), tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: listed(app), what="the hello")
        await pilot.press("z")
        await until(pilot, lambda: not exchange_list(app).rows, what="an empty list")
        await app.engine.send_to_hook("alpha", "hook.before_tool", CALL)
        await until(pilot, lambda: len(exchange_list(app).rows) == 1, what="only the new call")


@LIVE_AND_OPENED
async def test_marked_yes_filters_the_marked_rows_and_follows_new_marks(
    kind: str, tmp_path: Path
) -> None:
    app = await two_hellos(kind, tmp_path)
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


@LIVE_AND_OPENED
async def test_highlight_mode_marks_matches_and_hides_nothing(kind: str, tmp_path: Path) -> None:
    app = await two_hellos(kind, tmp_path)
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


async def test_a_filter_settling_as_the_app_closes_is_no_crash(tmp_path: Path) -> None:
    """The filter applies a moment after the last key: when the app closes in that moment, the
    timer fires as the lists go (it raised NoMatches, seen at the end of a screenshot run)."""
    app = await two_hellos("live", tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: len(listed(app)) == 2, what="two hellos")
        app.query_one("#filter", Input).value = "hook:beta"  # as if typed
        for records in app.query(RecordList):
            await records.remove()  # as the app's closing removes them
        await until(pilot, lambda: app._filter_timer is None, what="the filter settled")
