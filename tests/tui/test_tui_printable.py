"""Hostile text in every field of every record, in a relayed approval and in the screens built
from them: what the app would write to the terminal has no control sequence but its own colours
and cursor moves, and shows the replaced characters."""

from __future__ import annotations

import asyncio
import io
import re
import time
from pathlib import Path

from rich.console import Console
from textual.widgets import TabbedContent, TextArea

from inspector.drivers.replay import ReplayItem, ReplayReport
from inspector.hooks.approvals import ApprovalPrompt, EarlierAnswer, Resolution
from inspector.journal.records import Event, Lifecycle, Record
from inspector.tui.app import InspectorApp
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.screens.composer import ComposerScreen
from inspector.tui.screens.pick import PickScreen
from inspector.tui.screens.replay_report import ReplayReportScreen
from inspector.tui.screens.rules import RulesScreen
from inspector.tui.widgets.detail_pane import (
    STATIC_VIEWS,
    TITLES,
    DetailPane,
    request_view,
    response_view,
    stderr_lines,
    stderr_view,
)
from inspector.tui.widgets.event_stream import EventStream
from tests.support.hostile_text import HOSTILE, hostile_records, raw_characters
from tests.support.scripted import config_of
from tests.support.tui import SIZE, exchange_list, live_app, opened, running, until

# What Textual itself writes: colours and attributes (SGR), and the cursor moved to each line.
APP_SGR = re.compile(r"\x1b\[[0-9;:]*m")
CURSOR_MOVE = re.compile(r"\x1b\[\d+;\d+H")
VISIBLE = ("␛]0;pwned␇", "␛]52;c;cHduZWQ=␛\\", "\\x9b2J", "[@click=app.quit]")


def terminal_output(app: InspectorApp) -> str:
    """What a full repaint of the screen sends to the terminal, as Textual's driver sends it."""
    console = Console(
        width=SIZE[0],
        height=SIZE[1],
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        safe_box=False,
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return update.render_segments(console)


def assert_nothing_raw(app: InspectorApp, where: str, *visible: str) -> str:
    """The screen's text, once it is checked: nothing but the app's own sequences is sent, and
    each of `visible` is on screen."""
    text = APP_SGR.sub("", CURSOR_MOVE.sub("\n", terminal_output(app)))
    raw_lines = [line for line in text.splitlines() if raw_characters(line)]
    assert raw_lines == [], f"{where}: {raw_lines[:3]!r}"
    for part in visible:
        assert part in text, f"{where}: {part!r} not on screen"
    return text


def expected_tab_text(pane: DetailPane, record: Record, tab: str) -> str:
    if tab == "request":
        return request_view(record)[0]
    if tab == "response":
        return response_view(record)[0]
    if tab == "stderr":
        return stderr_view(record, stderr_lines(pane.journal, record)).plain
    return STATIC_VIEWS[tab](record).plain


def tab_text(pane: DetailPane, tab: str) -> str:
    body = pane.query_one(f"#detail-{tab}").query_one("TextArea, Static")
    return body.text if isinstance(body, TextArea) else str(body.render())


async def every_tab(pilot, app: InspectorApp, record: Record) -> None:  # type: ignore[no-untyped-def]
    pane = app.query_one(DetailPane)
    await until(pilot, lambda: pane.record is record, what="the detail pane to follow")
    for tab in TITLES:
        pane.query_one(TabbedContent).active = f"detail-{tab}"
        expected = expected_tab_text(pane, record, tab).strip()
        await until(pilot, lambda t=tab, e=expected: tab_text(pane, t).strip() == e, what=tab)
        assert_nothing_raw(app, f"{type(record).__name__} {record.seq} {tab}")


async def test_every_record_field_in_every_view_is_shown_never_obeyed(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path / "settings")
    async with running(app) as pilot:
        journal = app.engine.journal
        for record in hostile_records():
            journal.append(record)
        journal.append(Lifecycle(hook=HOSTILE, state="connected"))  # a relay: the hooks panel
        listed = exchange_list(app)
        await until(pilot, lambda: len(listed.rows) == 8, what="the hostile rows")
        assert_nothing_raw(app, "the main screen", "␛]0;pwned␇")
        for row in range(len(listed.rows)):
            listed.focus()
            listed.action_first()
            for _ in range(row):
                listed.action_cursor_down()
            await every_tab(pilot, app, listed.rows[row])
        # The pane follows the event stream once its cursor moves: onto each of its rows (the
        # hostile event, stderr line, lifecycle change and decision).
        journal.append(Event(kind="agent.turn.end"))
        events = app.query_one(EventStream)
        await until(pilot, lambda: agent_events(events) == 2, what="both events")
        for row in range(len(events.rows)):
            events.focus()
            events.action_first()
            for _ in range(row):
                events.action_cursor_down()
            await every_tab(pilot, app, events.rows[row])


def agent_events(events: EventStream) -> int:
    return sum(isinstance(row, Event) for row in events.rows)


async def test_a_hostile_approval_its_rule_and_the_composer_show_every_field_escaped(
    tmp_path: Path,
) -> None:
    app = live_app(config_of(), tmp_path / "settings")
    prompt = ApprovalPrompt(
        id="p1",
        exchange=0,
        hook=HOSTILE,
        tool=HOSTILE,
        arguments={HOSTILE: [HOSTILE]},
        agent_id=HOSTILE,
        session_key=HOSTILE,
        turn_id=HOSTILE,
        earlier=(EarlierAnswer(HOSTILE, HOSTILE, HOSTILE),),
        severity="high",
        deadline=time.monotonic() + 60,
        timeout_s=60,
        on_timeout="deny",
    )
    async with running(app) as pilot:
        asked = asyncio.create_task(
            app.engine.approvals.ask(prompt, lambda: Resolution(False, "", "deny", "timeout"))
        )
        await opened(pilot, ApprovalScreen, "the approval")
        text = assert_nothing_raw(app, "the approval", *VISIBLE[:3])
        assert "Tool <␛[2J␛[31m␛]0;pwned␇" in text
        assert text.count("␛]0;pwned␇") >= 6  # tool, agent, session, turn, earlier hook, reason
        await pilot.press("A")
        await until(pilot, lambda: app.screen.mode == "scope")
        assert_nothing_raw(app, "the exact rule", "␛]0;pwned␇")
        await pilot.press("t", "enter")
        assert (await asked) is not None
        await pilot.press("R")
        await opened(pilot, RulesScreen, "the rules")
        assert_nothing_raw(app, "the rules", "␛]0;pwned␇")
        await pilot.press("escape")

        app.engine.journal.append(hostile_records()[0])
        await until(pilot, lambda: len(exchange_list(app).rows) == 1, what="the hostile row")
        exchange_list(app).focus()
        await pilot.press("e")
        await opened(pilot, ComposerScreen, "the composer")
        assert_nothing_raw(app, "the composer", "\\u001b]0;pwned\\u0007")
        await pilot.press("escape")


async def test_replay_report_and_file_picker_show_names_escaped(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path / "settings")
    item = ReplayItem(
        seq=1,
        hook=HOSTILE,
        method=HOSTILE,
        outcome="different",
        recorded={HOSTILE: HOSTILE},
        replayed={HOSTILE: 1},
        note=HOSTILE,
    )
    async with running(app) as pilot:
        await app.push_screen(ReplayReportScreen(HOSTILE, ReplayReport([item])))
        await opened(pilot, ReplayReportScreen, "the replay report")
        assert_nothing_raw(app, "the replay report", *VISIBLE[:3])
        await pilot.press("escape")
        app.push_screen(PickScreen(HOSTILE, [Path(f"{HOSTILE}.jsonl")]))
        await opened(pilot, PickScreen, "the picker")
        assert_nothing_raw(app, "the picker", "␛]0;pwned␇")


async def test_a_toast_shows_its_words_escaped_and_never_reads_markup(tmp_path: Path) -> None:
    """Reload errors, scenario errors and file names reach toasts: `[@click=...]` there would
    be a live action, and an escape sequence would reach the terminal."""
    app = live_app(config_of(), tmp_path / "settings")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.notify(HOSTILE, title=HOSTILE, severity="error")
        await until(pilot, lambda: "pwned" in terminal_output(app), what="the toast")
        assert_nothing_raw(app, "a toast", "␛[2J", "pwned", "@click")
