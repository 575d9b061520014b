"""A Claude Code hook that blocks by exit 2 gave its answer: the hooks panel counts no failure,
live or in the saved session (issue 27, item 7)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.journal.records import STATUS_PENDING, Exchange
from inspector.tui.app import InspectorApp
from inspector.tui.launch import build_session, read_only_session
from inspector.tui.widgets import hooks_panel
from inspector.tui.widgets.hooks_panel import COLUMNS, HooksPanel
from tests.cli.test_newcomer_cli import BLOCK_RM, ONE_BASH_CALL, claude_project
from tests.support.tui import make_app, running, until


def column(app: InspectorApp, name: str) -> list[str]:
    """One column of the hooks panel, a cell per row."""
    panel = app.query_one(HooksPanel)
    panel.refresh_rows()
    return [str(panel.get_row(key)[COLUMNS.index(name)]) for key in panel.rows]


def counted(app: InspectorApp) -> bool:
    """The run is counted: some row has its call."""
    return "1" in column(app, "calls")


@pytest.mark.parametrize("long_session", [False, True], ids=["in-place", "folded-in-a-thread"])
async def test_the_hooks_panel_counts_an_exit_2_block_as_an_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, long_session: bool
) -> None:
    if long_session:  # as a session past FOLD_BESIDE records is, folded from its index
        monkeypatch.setattr(hooks_panel, "FOLD_BESIDE", 0)
    project = claude_project(tmp_path / "project", BLOCK_RM)
    (project / "scenario.yaml").write_text(ONE_BASH_CALL)
    journal_path, saved = tmp_path / "live.jsonl", tmp_path / "saved.jsonl"
    session = build_session(project, journal_path)
    session.watch = False
    live = make_app(session, tmp_path / "settings")
    async with running(live) as pilot:
        live.play_scenario(project / "scenario.yaml")

        def blocked() -> bool:
            runs = list(live.engine.journal.of_type(Exchange))
            return bool(runs) and all(run.status != STATUS_PENDING for run in runs)

        await until(pilot, blocked, what="the hook's run")
        await until(pilot, lambda: counted(live), what="the run counted")
        assert set(column(live, "fail")) == {"0"}
        assert live.engine.writer is not None
        live.engine.writer.flush()
        shutil.copyfile(journal_path, saved)

    opened = make_app(read_only_session(saved), tmp_path / "settings")
    async with running(opened) as pilot:
        await until(pilot, lambda: counted(opened), what="the run counted")
        assert set(column(opened, "fail")) == {"0"}
