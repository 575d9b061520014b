"""`w` saves the journal where the person says, never silently over a file; `y` copies the
replay one-liner, shows it, and `Y` writes it to a file."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from textual.widgets import Input

from inspector.engine import Engine
from inspector.tui.app import Session
from inspector.tui.screens.save_as import SaveAsScreen
from tests.support.scripted import config_of, scripted
from tests.support.tui import exchange_list, listed, live_app, make_app, opened, running, until

CALL = {"tool": "exec", "arguments": {"command": "ls"}}


async def test_w_asks_where_and_overwrites_only_when_asked_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    earlier = tmp_path / "hook-inspector-session.jsonl"
    earlier.write_text("an earlier session\n")
    app = live_app(config_of(scripted("alpha")), tmp_path / "settings")
    async with running(app) as pilot:
        await until(pilot, lambda: listed(app), what="the hello")
        await pilot.press("w")
        screen = await opened(pilot, SaveAsScreen, "the save-as prompt")
        assert screen.query_one("#path", Input).value == str(earlier)
        await pilot.press("enter")
        await until(pilot, lambda: "exists" in str(screen.query_one("#problem").render()))
        assert earlier.read_text() == "an earlier session\n"  # not yet

        chosen = tmp_path / "mine.jsonl"
        screen.query_one("#path", Input).value = str(chosen)
        await pilot.press("enter")
        await until(pilot, lambda: chosen.exists(), what="the journal at the chosen path")
        assert '"hook.hello"' in chosen.read_text()
        assert earlier.read_text() == "an earlier session\n"

        await pilot.press("w")
        screen = await opened(pilot, SaveAsScreen, "the save-as prompt again")
        await pilot.press("enter", "enter")  # asked twice: overwrite
        await until(pilot, lambda: '"hook.hello"' in earlier.read_text(), what="overwritten")


async def test_w_will_not_save_over_the_sessions_own_journal(tmp_path: Path) -> None:
    own = tmp_path / "own.jsonl"
    engine = Engine(config_of(scripted("alpha")), journal_path=own, store_on_disk=True)
    app = make_app(Session(engine, watch=False), tmp_path / "settings")
    notes: list[str] = []

    def note(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    async with running(app, note) as pilot:
        await until(pilot, lambda: listed(app), what="the hello")
        await pilot.press("w")
        screen = await opened(pilot, SaveAsScreen, "the save-as prompt")
        screen.query_one("#path", Input).value = str(own)
        await pilot.press("enter", "enter")  # asked twice: overwrite, were it another file
        await until(pilot, lambda: any("own journal" in n for n in notes), what="the refusal")
        await until(pilot, lambda: '"hook.hello"' in own.read_text(), what="the journal as written")
    hellos = [line for line in own.read_text().splitlines() if '"hook.hello"' in line]
    assert len(hellos) == 1  # written once, by the session itself


async def test_y_copies_and_shows_the_one_liner_and_capital_y_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMUX", raising=False)
    monkeypatch.chdir(tmp_path)
    notes: list[str] = []

    def note(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    app = live_app(config_of(scripted("alpha")), tmp_path / "settings")
    async with running(app, message_hook=note) as pilot:
        await until(pilot, lambda: listed(app), what="the hello")
        await app.engine.send_to_hook("alpha", "hook.before_tool", CALL)

        def call_highlighted() -> bool:
            record = exchange_list(app).highlighted_record
            return getattr(record, "method", "") == "hook.before_tool"

        await until(pilot, call_highlighted, what="the call highlighted")
        await pilot.press("y")
        await until(pilot, lambda: app.clipboard.startswith("printf"), what="OSC 52 copy")
        assert app.clipboard in notes  # shown as well: the terminal may have refused it

        await pilot.press("Y")
        screen = await opened(pilot, SaveAsScreen, "where to write the one-liner")
        target = Path(screen.query_one("#path", Input).value)
        assert target.parent == tmp_path
        await pilot.press("enter")
        await until(pilot, lambda: target.exists(), what="the one-liner file")
        assert target.read_text() == app.clipboard + "\n"
