"""The hooks panel is folded from the journal: a saved session opened later shows the rows,
states and counters the live session showed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.journal.records import STATUS_PENDING, Event, Lifecycle
from inspector.tui.app import InspectorApp
from inspector.tui.launch import build_session, read_only_session
from inspector.tui.widgets import hooks_panel
from inspector.tui.widgets.hooks_panel import COLUMNS, HooksPanel
from tests.support.tui import make_app, running, until

DEMO_HOOKS = {"redactor", "weather", "review_gate", "event_logger"}
SAVED_BLANK = {"prio"}  # the config's: no record carries it


def panel_rows(app: InspectorApp) -> dict[str, dict[str, str]]:
    panel = app.query_one(HooksPanel)
    panel.refresh_rows()
    return {
        str(key.value): dict(zip(COLUMNS, map(str, panel.get_row(key)), strict=True))
        for key in panel.rows
    }


def scenario_over(app: InspectorApp) -> bool:
    journal = app.engine.journal
    ended = any(e.kind == "agent.turn.end" for e in journal.of_type(Event))
    return ended and all(e.status != STATUS_PENDING for e in journal.exchanges())


@pytest.mark.parametrize("long_session", [False, True], ids=["in-place", "folded-in-a-thread"])
async def test_a_saved_demo_session_opens_with_the_hooks_panel_it_had_live(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, long_session: bool
) -> None:
    if long_session:  # as a session past FOLD_BESIDE records is: the panel fills after the lists
        monkeypatch.setattr(hooks_panel, "FOLD_BESIDE", 0)
    journal_path, saved = tmp_path / "live.jsonl", tmp_path / "saved.jsonl"
    session = build_session(None, journal_path)
    session.watch = False
    live = make_app(session, tmp_path / "settings")
    async with running(live) as pilot:
        await until(pilot, lambda: scenario_over(live), what="the demo scenario played")
        assert live.engine.writer is not None
        live.engine.writer.flush()
        shutil.copyfile(journal_path, saved)  # the journal on disk as the panel is read
        live_rows = panel_rows(live)
    assert set(live_rows) == DEMO_HOOKS
    assert {row["state"] for row in live_rows.values()} == {"ready"}
    assert int(live_rows["review_gate"]["calls"]) == 3  # its hello and two approvals
    assert all(row["pid"] != "-" and row["fail"] == "0" for row in live_rows.values())

    opened = make_app(read_only_session(saved), tmp_path / "settings")
    async with running(opened) as pilot:
        await until(pilot, lambda: opened.query_one(HooksPanel).row_count > 0, what="rows")
        saved_rows = panel_rows(opened)
    assert saved_rows == {
        name: {column: "" if column in SAVED_BLANK else cell for column, cell in row.items()}
        for name, row in live_rows.items()
    }


async def test_rows_that_read_alike_each_keep_a_row(tmp_path: Path) -> None:
    """A hook named `relay:agent` beside the relay `agent`: both labels read `relay:agent`."""
    saved = tmp_path / "saved.jsonl"
    records = [
        Lifecycle(hook="relay:agent", state="ready", pid=7, seq=1),
        Lifecycle(hook="agent", state="connected", pid=8, seq=2),
    ]
    saved.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records))
    app = make_app(read_only_session(saved), tmp_path / "settings")
    async with running(app) as pilot:
        await until(pilot, lambda: len(panel_rows(app)) == 2, what="both rows")
        states = sorted(row["state"] for row in panel_rows(app).values())
    assert states == ["connected", "ready"]
