"""The list's tools from mitmproxy: mark rows, clear the list, copy the raw request or answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import config_of, scripted
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
