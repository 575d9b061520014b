"""mitmproxy's and Posting's keys: j/k/g/G in the lists, 1-6 and [ / ] for the detail tabs, and
the journal's numbers in the list."""

from __future__ import annotations

from pathlib import Path

from inspector.tui.widgets.detail_pane import TITLES, DetailPane
from inspector.tui.widgets.exchange_list import ExchangeList
from tests.support.scripted import config_of, scripted
from tests.support.tui import exchange_list, listed, live_app, running, until

CALL = {"tool": "exec", "arguments": {"command": "ls"}}


async def test_vi_keys_move_the_cursor_and_numbers_switch_detail_tabs(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha")), tmp_path)
    async with running(app) as pilot:
        for _ in range(3):
            await app.engine.send_to_hook("alpha", "hook.before_tool", CALL)
        await until(pilot, lambda: len(listed(app)) == 4, what="hello and three calls")
        rows = exchange_list(app)
        await until(pilot, lambda: rows.cursor_row == 3, what="the cursor following the tail")
        await pilot.press("k", "k")
        assert rows.cursor_row == 1
        await pilot.press("j")
        assert rows.cursor_row == 2
        await pilot.press("g")
        assert rows.cursor_row == 0
        await pilot.press("G")
        assert rows.cursor_row == 3

        pane = app.query_one(DetailPane)
        for number, tab in enumerate(TITLES, start=1):
            await pilot.press(str(number))
            await until(pilot, lambda tab=tab: pane.active_tab == tab, what=f"the {tab} tab")
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: pane.active_tab == "request", what="round to the first tab")
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: pane.active_tab == "findings", what="back to the last tab")


async def test_the_list_numbers_rows_as_the_journal_and_replay_reports_do(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha")), tmp_path)
    async with running(app) as pilot:
        await app.engine.send_to_hook("alpha", "hook.before_tool", CALL)
        await until(pilot, lambda: len(listed(app)) == 2, what="hello and a call")
        rows = app.query_one(ExchangeList)
        header = rows.render_line(0).text.split()
        assert header[0] == "#"
        for y, record in enumerate(rows.rows, start=1):
            assert rows.render_line(y).text.split()[0] == str(record.seq)
