"""At 100x30 and 60x20 the layout degrades gracefully: the panes stack, the list keeps rows on
screen and the hook name stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.tui.widgets.detail_pane import DetailPane
from tests.support.scripted import config_of, scripted
from tests.support.tui import exchange_list, listed, live_app, until

CALL = {"tool": "exec", "arguments": {"command": "ls"}}


@pytest.mark.parametrize("size", [(100, 30), (60, 20)])
async def test_small_terminals_stack_the_panes_and_keep_the_hook(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = live_app(config_of(scripted("alpha"), scripted("beta")), tmp_path)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: len(listed(app)) == 2, what="two hellos")
        for _ in range(4):
            await app.engine.send_to_hook("alpha", "hook.before_tool", CALL)
        await until(pilot, lambda: len(listed(app)) == 6, what="the calls")
        await pilot.pause()
        rows, detail = exchange_list(app), app.query_one(DetailPane)
        assert detail.region.y >= rows.region.bottom  # below the list, not beside it
        assert detail.region.width >= size[0] - 2
        assert rows.size.height >= 4  # the header and three rows at least
        assert "hook" in rows.render_line(0).text.split()
        assert "alpha" in rows.render_line(rows.size.height - 1).text
