"""Sortable columns: `S` sorts by the next column, `v` turns the order round, a click on a title
sorts by that column; rows arriving or changing later take their sorted place."""

from __future__ import annotations

import pytest

from inspector.journal.journal import Journal
from inspector.tui.widgets import record_list
from inspector.tui.widgets.exchange_list import ExchangeList
from tests.support.saved_sessions import LIVE_AND_OPENED, Session, seqs
from tests.tui.test_tui_widgets import exchange, harness, until


def hooks(widget: ExchangeList) -> list[str]:
    return [getattr(record, "hook", "") for record in widget.rows]


async def test_rows_sort_by_a_column_and_new_or_changed_rows_take_their_place() -> None:
    journal = Journal()
    for hook, ms in (("gamma", 30.0), ("alpha", 10.0), ("beta", 20.0)):
        journal.append(exchange(hook=hook, duration_ms=ms))
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(120, 20)) as pilot:
        await until(pilot, lambda: len(widget.rows) == 3)
        widget.focus()
        hook_column = [column.title for column in widget.COLUMNS].index("hook")
        widget.sort_by(hook_column)
        assert hooks(widget) == ["alpha", "beta", "gamma"]
        assert "hook▲" in widget.render_line(0).text
        await pilot.press("v")
        assert hooks(widget) == ["gamma", "beta", "alpha"] and widget.sort == ("hook", True)

        journal.append(exchange(hook="delta", duration_ms=5.0))  # lands in its sorted place
        await until(pilot, lambda: len(widget.rows) == 4)
        assert hooks(widget) == ["gamma", "delta", "beta", "alpha"]

        ms_column = [column.title for column in widget.COLUMNS].index("ms")
        widget.sort_by(ms_column)
        assert hooks(widget) == ["delta", "alpha", "beta", "gamma"]
        slow = journal.append(exchange(hook="pending", status="pending", duration_ms=None))
        await until(pilot, lambda: len(widget.rows) == 5)
        assert hooks(widget)[-1] == "pending"  # no duration yet: empty values sort last
        journal.amend(slow, status="ok", duration_ms=1.0)  # finishing moves it
        await until(pilot, lambda: hooks(widget)[0] == "pending")
        assert hooks(widget) == ["pending", "delta", "alpha", "beta", "gamma"]


@LIVE_AND_OPENED
async def test_s_cycles_the_sort_columns_back_to_journal_order_and_a_title_click_sorts(
    session: Session,
) -> None:
    journal = Journal()
    records = [journal.append(exchange(hook=h)) for h in ("b", "c", "a")]
    journal = session(journal)
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(120, 20)) as pilot:
        await until(pilot, lambda: len(widget.rows) == 3)
        widget.focus()
        titles = [column.title for column in widget.COLUMNS if column.key is not None]
        seen = []
        for _ in titles:
            await pilot.press("S")
            sort = widget.sort
            assert sort is not None
            seen.append(sort[0])
        assert seen == titles
        await pilot.press("S")
        assert widget.sort is None and seqs(widget.rows) == seqs(records)  # journal order again

        header = widget.render_line(0).text
        await pilot.click(ExchangeList, offset=(header.index("hook") + 1, 0))
        assert widget.sort == ("hook", False) and hooks(widget) == ["a", "b", "c"]
        await pilot.click(ExchangeList, offset=(header.index("hook") + 1, 0))
        assert widget.sort == ("hook", True)
        await pilot.click(ExchangeList, offset=(header.index("hook") + 1, 0))
        assert widget.sort is None


async def test_more_rows_than_can_be_sorted_stay_in_journal_order_and_say_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(record_list, "SORT_LIMIT", 2)
    journal = Journal()
    for hook in ("gamma", "alpha", "beta"):
        journal.append(exchange(hook=hook))
    widget = ExchangeList(journal)
    app = harness(widget)
    async with app.run_test(size=(120, 20)) as pilot:
        await until(pilot, lambda: len(widget.rows) == 3)
        widget.focus()
        await pilot.press("S")
        assert hooks(widget) == ["gamma", "alpha", "beta"] and widget.sort is None
        said = [notice.message for notice in app._notifications]
        assert any("more than can be sorted (2)" in message for message in said)
