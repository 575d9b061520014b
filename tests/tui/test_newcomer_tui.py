"""What a new user met on the screen (issue 27): each rough edge, through the real app."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.message import Message
from textual.notifications import Notify
from textual.widgets import Input, Label, Static, TextArea
from textual.widgets._toast import Toast

from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.engine import Engine
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter
from inspector.journal.records import STATUS_PENDING, Event, Exchange, Lifecycle
from inspector.tui import app as tui_app
from inspector.tui.app import InspectorApp, Session
from inspector.tui.launch import build_session, read_only_session
from inspector.tui.screens.approval import ApprovalScreen, PromptView
from inspector.tui.screens.composer import ComposerScreen
from inspector.tui.widgets.detail_pane import NOTHING, DetailPane, raw_view
from inspector.tui.widgets.status_line import StatusLine
from tests.support.scripted import config_of, scripted
from tests.support.tui import (
    exchange_list,
    listed,
    live_app,
    make_app,
    opened,
    paste,
    running,
    until,
)


def call_of(command: str) -> dict[str, Any]:
    return {"tool": "exec", "arguments": {"command": command}}


async def test_a_filter_made_invalid_by_typing_keeps_the_filter_in_effect(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("redactor"), scripted("weather")), tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: len(listed(app)) == 2, what="both hellos")
        field = app.query_one("#filter", Input)
        await pilot.press("slash")
        await paste(pilot, "hook:weather")
        await pilot.press("enter")
        await until(pilot, lambda: {e.hook for e in listed(app)} == {"weather"}, what="narrowed")

        await pilot.press("slash", "end")
        for character in " & status:timout":  # all queued at once, as fast typing arrives
            key = "space" if character == " " else character
            app.post_message(events.Key(key, character))
        await until(pilot, lambda: field.value.endswith("timout"), what="typed")
        await until(pilot, lambda: field.has_class("-invalid"), what="the error shown")
        await until(pilot, lambda: app._filter_timer is None, what="nothing pending")
        assert {e.hook for e in listed(app)} == {"weather"}


# ---- item 12: the smaller things -------------------------------------------------------------


def collect(notes: list[str]) -> Callable[[Message], None]:
    def note(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(f"{message.notification.title}: {message.notification.message}")

    return note


def scenario_over(app: InspectorApp) -> bool:
    journal = app.engine.journal
    ended = any(event.kind == "agent.turn.end" for event in journal.of_type(Event))
    return ended and all(e.status != STATUS_PENDING for e in journal.exchanges())


def saved_session(folder: Path) -> Path:
    saved, journal = folder / "saved.jsonl", Journal()
    journal.append(Lifecycle(ts=1.0, hook="alpha", state="ready", pid=4101))
    JsonlWriter(saved).attach(journal).close()
    return saved


async def test_the_empty_filter_field_reads_as_off_and_names_no_hook(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("weather")), tmp_path)
    async with running(app):
        placeholder = app.query_one("#filter", Input).placeholder
        assert placeholder.startswith("off") and "hook:" not in placeholder


async def test_after_a_resend_the_cursor_is_on_the_new_row(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha")), tmp_path)
    async with running(app) as pilot:
        for command in ("ls", "pwd"):
            await app.engine.send_to_hook("alpha", "hook.before_tool", call_of(command))
        await until(pilot, lambda: len(listed(app)) == 3, what="hello and two calls")
        rows = exchange_list(app)
        await pilot.press("g", "j")  # the first call, not the tail
        original = rows.highlighted_record
        assert isinstance(original, Exchange) and original.method == "hook.before_tool"
        await pilot.press("e")
        await opened(pilot, ComposerScreen, "the composer")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: len(listed(app)) == 4, what="the resent call")
        resent = listed(app)[-1]
        await until(pilot, lambda: rows.highlighted_record is resent, what="the new row")


async def test_the_source_column_keeps_its_width_when_the_scrollbar_comes(tmp_path: Path) -> None:
    session = build_session(None, None)
    session.watch = False
    app = make_app(session, tmp_path)
    async with app.run_test(size=(160, 30)) as pilot:
        rows = exchange_list(app)
        await until(pilot, lambda: scenario_over(app), what="the demo's scenario")
        await until(pilot, lambda: rows.max_scroll_y > 0, what="the list scrolls")
        await pilot.pause()
        shown = [rows.render_line(y).text for y in range(1, rows.size.height)]
        scenario_rows = [line for line in shown if " scenario " in line]
        assert scenario_rows and not [line for line in shown if "scena…" in line]


def test_the_raw_tab_of_a_command_hook_shows_its_name_whole() -> None:
    name = "PreToolUse:python3 $CLAUDE_PROJECT_DIR/.claude/hooks/ask_before_pushing_to_main.py"
    run = Exchange(hook=name, method="PreToolUse", status="ok", exit_code=0, raw_request="{}")
    assert name in raw_view(run).plain


async def test_the_approval_prompt_leaves_out_what_the_agent_did_not_name() -> None:
    view = PromptView("Bash", {}, "", "6d3c1f0e", "", time.monotonic() + 60, 60)
    app = App[None]()
    async with app.run_test(size=(160, 48)) as pilot:
        app.push_screen(ApprovalScreen(view))
        screen = await opened(pilot, ApprovalScreen, "the prompt")  # type: ignore[arg-type]
        assert str(screen.query_one("#where", Label).render()) == "session 6d3c1f0e"


async def test_nothing_selected_has_no_line_number(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with running(app) as pilot:
        area = app.query_one(DetailPane).query_one(TextArea)
        await until(pilot, lambda: area.text == NOTHING, what="the empty pane")
        assert not area.show_line_numbers


async def test_no_line_of_the_screen_under_the_approval_prompt_shows_beside_it() -> None:
    class Busy(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("\n".join("x" * 160 for _ in range(48)))

    view = PromptView("Bash", {"command": "ls"}, "", "s", "", time.monotonic() + 60, 60)
    app = Busy()
    async with app.run_test(size=(160, 48)) as pilot:
        app.push_screen(ApprovalScreen(view))
        screen = await opened(pilot, ApprovalScreen, "the prompt")  # type: ignore[arg-type]
        await pilot.pause()
        dialog = screen.query_one("#dialog").region
        lines = [strip.text for strip in screen._compositor.render_strips()]
        outside = [line[: dialog.x] + line[dialog.right :] for line in lines]
        assert not [line for line in outside if "x" in line]


async def test_a_saved_session_says_why_x_and_e_do_nothing(tmp_path: Path) -> None:
    notes: list[str] = []
    app = make_app(read_only_session(saved_session(tmp_path)), tmp_path / "settings")
    async with running(app, message_hook=collect(notes)) as pilot:
        await pilot.press("x")
        await until(pilot, lambda: any("saved session" in note for note in notes), what="x")
        await pilot.press("e")
        await until(pilot, lambda: len([n for n in notes if "saved session" in n]) == 2)
        assert any(note.startswith(": Edit/resend") for note in notes), notes


async def test_a_toast_leaves_the_intercept_field_in_sight(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with app.run_test(size=(140, 45), notifications=True) as pilot:
        app.notify("a message long enough to reach over the field " * 2)
        await until(pilot, lambda: bool(app.screen.query(Toast)), what="the toast")
        await pilot.pause()
        toast = app.screen.query_one(Toast).region
        for field in ("#intercept", "#filter"):
            assert not toast.overlaps(app.query_one(field).region), field


async def test_the_status_line_names_a_project_opened_as_dot_by_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    session = Session(Engine(config_of()), config_path=Path("."), watch=False)
    app = make_app(session, tmp_path / "settings")
    async with running(app) as pilot:
        line = app.query_one(StatusLine)
        await until(pilot, lambda: line.state is not None, what="the status line")
        assert line.state is not None and line.state.source == str(tmp_path.resolve())
        assert f"{tmp_path.name}  ·  watching" in str(line.render())


async def test_a_second_ui_listens_once_the_first_has_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tui_app, "LISTEN_RETRY_S", 0.1)
    options = ListenOptions(socket_path=tmp_path / "inspector.sock")
    first = await listen_for_relays(Engine(config_of()), options)
    notes: list[str] = []
    session = Session(Engine(config_of()), watch=False, listen=options)
    app = make_app(session, tmp_path / "settings")
    try:
        async with running(app, message_hook=collect(notes)) as pilot:
            await until(pilot, lambda: any("trying again" in n for n in notes), what=str(notes))
            assert app.listener is None
            await first.close()
            await until(pilot, lambda: app.listener is not None, what="listening at last")
            assert "relays " in str(app.query_one(StatusLine).render())
    finally:
        await first.close()
