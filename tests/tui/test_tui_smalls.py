"""Issue 13 item 9 in the UI: small things that said nothing, or the wrong thing."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.message import Message
from textual.notifications import Notify
from textual.widgets import Input, Label, Select

from inspector.journal.records import Event
from inspector.jsonrpc.stages import RUNTIME_EVENT
from inspector.tui.screens.composer import ComposerScreen
from inspector.tui.settings import SETTINGS_FILE
from inspector.tui.widgets.exchange_list import ExchangeList
from tests.support.scripted import config_of, scripted
from tests.support.tui import listed, live_app, opened, running, until


def collect(notes: list[str]) -> object:
    def note(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(f"{message.notification.title}: {message.notification.message}")

    return note


async def test_p_with_nothing_pending_says_so(tmp_path: Path) -> None:
    notes: list[str] = []
    app = live_app(config_of(), tmp_path)
    async with running(app, message_hook=collect(notes)) as pilot:  # type: ignore[arg-type]
        await pilot.press("p")
        await until(pilot, lambda: any("No approval" in note for note in notes), what=str(notes))


async def test_an_unknown_keymap_id_is_reported_with_its_line(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text("keymap:\n  app.compose: o\n  app.composer: m\n")
    notes: list[str] = []
    app = live_app(config_of(), tmp_path)
    async with running(app, message_hook=collect(notes)) as pilot:  # type: ignore[arg-type]
        await until(pilot, lambda: any("app.composer" in note for note in notes), what=str(notes))
        [report] = [note for note in notes if "app.composer" in note]
        assert f"{SETTINGS_FILE}:3:" in report and 'did you mean "app.compose"' in report
        assert not any("app.compose:" in note or '"app.compose" ' in note for note in notes)


async def test_a_keymap_key_a_panel_takes_first_is_reported(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text('keymap:\n  app.compose: "k"\n  app.quit: "q"\n')
    notes: list[str] = []
    app = live_app(config_of(), tmp_path)
    async with running(app, message_hook=collect(notes)) as pilot:  # type: ignore[arg-type]
        await until(pilot, lambda: any("app.compose" in note for note in notes), what=str(notes))
    [report] = [note for note in notes if "app.compose" in note]
    assert "k for app.compose" in report and "records.cursor_up" in report
    assert not any("app.quit" in note for note in notes)  # q is no panel's key


async def test_keys_typed_right_after_slash_land_in_the_filter(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with running(app) as pilot:
        # All in the queue at once, as a loaded machine reads them: `w` and `e` are commands
        # in the list, and must not run as such.
        for key, character in (("slash", "/"), ("w", "w"), ("e", "e")):
            app.post_message(events.Key(key, character))
        field = app.query_one("#filter", Input)
        await until(pilot, lambda: field.value == "we", what="we typed")
        assert len(app.screen_stack) == 1  # no save-as prompt, no composer
        await pilot.press("i", "slash")  # in the field they are typed, not commands
        await until(pilot, lambda: field.value == "wei/", what="i and / typed")
        assert field.has_focus


async def test_the_composer_sends_a_runtime_event_to_the_observers(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("watcher", observe=("*",))), tmp_path)
    async with running(app) as pilot:
        await until(pilot, lambda: listed(app), what="the watcher's hello")
        await pilot.press("c")
        screen = await opened(pilot, ComposerScreen, "the composer")
        method = screen.query_one("#method", Select)
        assert RUNTIME_EVENT in [value for _label, value in method._options]
        method.value = RUNTIME_EVENT
        screen.query_one("#target", Select).value = None  # whole pipeline: every observer
        await until(pilot, lambda: not screen.query_one("#send").disabled, what="sendable")
        await pilot.press("ctrl+s")

        def delivered() -> bool:
            return any(
                e.source == "composer" and "watcher" in e.delivered
                for e in app.engine.journal.of_type(Event)
            )

        await until(pilot, delivered, what="the event delivered to the watcher")


async def test_a_long_filter_error_is_shown_whole(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with running(app) as pilot:
        await pilot.press("slash")
        await until(pilot, lambda: app.query_one("#filter", Input).has_focus)
        app.query_one("#filter", Input).value = "bogus:1"  # the error lists every field
        error = app.query_one("#filter-error", Label)
        await until(pilot, lambda: "type)" in str(error.render()), what="the error")
        await pilot.pause()
        visible = error.region.intersection(app.screen.region)
        for container in error.ancestors_with_self:
            if container is not app.screen and hasattr(container, "region"):
                visible = visible.intersection(container.region)
        assert visible.area >= len(str(error.render()).strip())


async def test_typing_a_filter_refilters_once_when_the_typing_settles(tmp_path: Path) -> None:
    app = live_app(config_of(), tmp_path)
    async with running(app) as pilot:
        rows = app.query_one(ExchangeList)
        applied: list[object] = []
        original = rows.set_filter

        def counting(predicate: object) -> None:
            applied.append(predicate)
            original(predicate)  # type: ignore[arg-type]

        rows.set_filter = counting  # type: ignore[method-assign]
        await pilot.press("slash")
        await until(pilot, lambda: app.query_one("#filter", Input).has_focus, what="the field")
        for character in "hook:alpha":  # all queued at once, as fast typing arrives
            app.post_message(events.Key(character, character))
        field = app.query_one("#filter", Input)
        await until(pilot, lambda: field.value == "hook:alpha", what="typed")
        await until(pilot, lambda: bool(applied), what="the filter applied")
        await pilot.press("enter")  # applies a filter still waiting to settle: none is
        assert len(applied) == 1 and applied[0] is not None
