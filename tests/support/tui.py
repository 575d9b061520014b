"""Shared by the app's pilot tests and its snapshot tests: a pinned app, polling, widget access."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from textual import events
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, TextArea

from inspector.config.model import Config
from inspector.engine import Engine
from inspector.journal.records import Exchange
from inspector.tui.app import InspectorApp, Session
from inspector.tui.widgets.exchange_list import ExchangeList

SIZE = (140, 45)
ScreenT = TypeVar("ScreenT", bound=Screen[Any])


def make_app(session: Session, settings: Path) -> InspectorApp:
    """The app with its settings in `settings` (never the real home) and no animations. Its theme
    is pinned by the empty settings folder: the app's own default, inspector-dark."""
    app = InspectorApp(session, settings_path=settings)
    app.animation_level = "none"
    return app


def live_app(config: Config, settings: Path) -> InspectorApp:
    """An app whose engine starts the configured hooks as real processes (no file watching)."""
    return make_app(Session(Engine(config), watch=False), settings)


@asynccontextmanager
async def running(
    app: InspectorApp, message_hook: Callable[[Message], None] | None = None
) -> AsyncIterator[Pilot[int]]:
    """`app.run_test` at SIZE."""
    async with app.run_test(size=SIZE, message_hook=message_hook) as pilot:
        yield pilot


async def until(
    pilot: Pilot[int], predicate: Callable[[], object], timeout: float = 30.0, what: str = ""
) -> None:
    """Let the app run until `predicate` holds; fail after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"not met within {timeout} s: {what or predicate}")
        await pilot.pause(0.02)


async def opened(
    pilot: Pilot[int], screen_type: type[ScreenT], what: str, timeout: float = 30.0
) -> ScreenT:
    """Wait until a screen of `screen_type` is on top with everything it composed mounted (a
    pushed screen is on top a moment before its widgets are), and return it."""

    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, screen_type) and screen.is_mounted

    await until(pilot, ready, timeout, what)
    screen = pilot.app.screen
    assert isinstance(screen, screen_type)
    return screen


async def paste(pilot: Pilot[int], text: str) -> None:
    """Paste `text` into the focused widget, as a terminal's bracketed paste does (one event,
    where typing would take one key press, and one idle wait, per character)."""
    focused = pilot.app.focused
    assert focused is not None, "nothing has focus to paste into"
    focused.post_message(events.Paste(text))
    await pilot.pause()


def steady(screen: Screen[object]) -> None:
    """No blinking cursors on `screen`, so what it shows does not depend on when it is looked at."""
    for widget in screen.query(Input):
        widget.cursor_blink = False
    for area in screen.query(TextArea):
        area.cursor_blink = False


def exchange_list(app: InspectorApp) -> ExchangeList:
    return app.query_one(ExchangeList)  # the app queries its main screen, under any modal


def listed(app: InspectorApp) -> list[Exchange]:
    """The exchanges the exchange list shows, in order."""
    return [row for row in exchange_list(app).rows if isinstance(row, Exchange)]
