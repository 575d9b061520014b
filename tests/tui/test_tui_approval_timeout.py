"""An approval nobody answered in time is reported as timed out, with what was decided."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.message import Message
from textual.notifications import Notify

from inspector.tui.screens.approval import ApprovalScreen
from tests.support.scripted import config_of
from tests.support.tui import live_app, opened, running, until
from tests.tui.test_tui_app import GATE, MANUAL, approve, started


def collector(notes: list[str]) -> Callable[[Message], None]:
    """A message hook that keeps every toast's text in `notes`."""

    def collect(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    return collect


async def test_a_timed_out_approval_says_so_and_what_was_decided(tmp_path: Path) -> None:
    notes: list[str] = []
    app = live_app(config_of(GATE, MANUAL, approval_timeout_ms=1500), tmp_path)
    async with running(app, message_hook=collector(notes)) as pilot:
        await started(pilot)
        outcome = await approve(app, "ls")
        await until(pilot, lambda: any("timed out" in note for note in notes), what="a toast")
        await until(pilot, lambda: not isinstance(app.screen, ApprovalScreen), what="closed")
    assert not outcome.approved
    assert not any("still pending" in note for note in notes)
    timed_out = [note for note in notes if "timed out" in note]
    assert timed_out == [
        "Approval of exec timed out and was denied: no decision within 1.5 s (on_timeout: deny)."
    ]


async def test_the_modal_closing_at_its_deadline_does_not_say_still_pending(
    tmp_path: Path,
) -> None:
    notes: list[str] = []
    app = live_app(config_of(GATE, MANUAL, approval_timeout_ms=3000), tmp_path)
    async with running(app, message_hook=collector(notes)) as pilot:
        await started(pilot)
        task = approve(app, "ls")
        await opened(pilot, ApprovalScreen, "the approval modal")
        await until(pilot, lambda: not isinstance(app.screen, ApprovalScreen), 20, "closed")
        await task
        await until(pilot, lambda: any("timed out" in note for note in notes), what="a toast")
    assert not any("still pending" in note for note in notes)
