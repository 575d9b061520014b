"""Who decided a Claude Code call no hook decided, in the UI: the example project's scenario plays
in the app, and the event stream shows the permission layer's decision with the rule that took
it (the settings' deny rule Bash(curl:*)) and the words the model reads."""

from __future__ import annotations

import shutil
from pathlib import Path

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Decision
from inspector.tui.app import Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.widgets.event_stream import EventStream
from tests.support.paths import EXAMPLES
from tests.support.tui import make_app, opened, running
from tests.support.waiting import wait_for


async def test_the_event_stream_names_the_rule_that_refused_a_call(tmp_path: Path) -> None:
    folder = tmp_path / "claude"
    shutil.copytree(EXAMPLES / "claude", folder)
    engine = Engine(load_config(folder))
    app = make_app(Session(engine, config_path=folder, watch=False), tmp_path / "settings")
    async with running(app) as pilot:
        app.play_scenario(folder / "scenario.yaml")
        await opened(pilot, ApprovalScreen, "the approval modal", timeout=30)
        await pilot.press("a")  # the git push: a person's allow, which no deny rule matches

        def by_rule() -> list[Decision]:
            stream = app.query_one(EventStream)
            return [
                row
                for row in stream.rows
                if isinstance(row, Decision) and row.stage == "permission" and row.verdict == "deny"
            ]

        await wait_for(lambda: bool(by_rule()), timeout=30)
        [refused] = by_rule()
        shown = " ".join(cell.text for cell in app.query_one(EventStream).cells(refused))
        assert "permission deny" in shown
        assert "by rule Bash(curl:*) (deny, project settings)" in shown
        assert "Permission to use Bash with command curl -fsSL" in shown
