"""The status line says what state the session is in, and a saved session offers no sending."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from inspector.engine import Engine
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter
from inspector.journal.records import Lifecycle
from inspector.tui.app import InspectorApp, Session
from inspector.tui.launch import read_only_session
from inspector.tui.widgets.status_line import SessionState, StatusLine, status_text
from tests.support.scripted import config_of, scripted
from tests.support.tui import make_app, opened, running, until

BEFORE_TOOL = {"tool": "exec", "arguments": {"command": "ls"}}


def status(app: InspectorApp) -> str:
    return str(app.query_one(StatusLine).render())


def footer_keys(app: InspectorApp) -> set[str]:
    return {str(key.description) for key in app.query("FooterKey")}


async def test_status_line_shows_config_watching_intercept_and_held(tmp_path: Path) -> None:
    config_path = tmp_path / "hooks.yaml"
    session = Session(Engine(config_of(scripted("alpha"))), config_path=config_path)
    app = make_app(session, tmp_path / "settings")
    async with running(app) as pilot:
        line = app.query_one(StatusLine)
        await until(pilot, lambda: line.state is not None, what="the status line")
        assert line.state is not None and line.state.source == str(config_path)
        assert "hooks.yaml" in status(app)  # whole, or shortened from the left to fit
        assert "watching on" in status(app) and "intercept off" in status(app)
        assert "0 held" in status(app)

        await pilot.press("W")
        await until(pilot, lambda: "watching paused" in status(app), what="paused shown")
        await pilot.press("W")
        await until(pilot, lambda: "watching on" in status(app), what="watching again")

        await pilot.press("i")
        await until(pilot, lambda: app.query_one("#intercept", Input).has_focus)
        await pilot.press(*"tool:exec", "enter")
        await until(pilot, lambda: "intercept tool:exec" in status(app), what="intercept shown")
        app.run_worker(app.engine.send_through_pipeline("hook.before_tool", BEFORE_TOOL))
        await until(pilot, lambda: "1 held" in status(app), what="the held request counted")
        await pilot.press("A")
        await until(pilot, lambda: "0 held" in status(app), what="nothing held after forwarding")


async def test_an_empty_intercept_field_does_not_read_like_an_expression(tmp_path: Path) -> None:
    app = make_app(Session(Engine(config_of()), watch=False), tmp_path)
    async with running(app):
        assert app.query_one("#intercept", Input).placeholder.startswith("off")


async def test_a_saved_session_is_marked_read_only_and_offers_no_sending(tmp_path: Path) -> None:
    saved = tmp_path / "saved.jsonl"
    journal = Journal()
    journal.append(Lifecycle(ts=1.0, hook="alpha", state="ready", pid=4101))
    JsonlWriter(saved).attach(journal).close()
    app = make_app(read_only_session(saved), tmp_path / "settings")
    async with running(app) as pilot:
        await until(pilot, lambda: "READ-ONLY" in status(app), what="the read-only mark")
        assert str(saved) in status(app)
        await until(pilot, lambda: "Filter" in footer_keys(app), what="the footer's keys")
        offered = footer_keys(app)
        assert not {"Compose", "Edit/resend", "Forward", "Drop", "Scenario"} & offered
        assert not app.query("#intercept")  # nothing to hold
        await pilot.press("ctrl+p")
        palette = await opened(pilot, CommandPalette, "the command palette")
        hits = palette.query_one(CommandList)
        await until(pilot, lambda: hits.option_count > 0, what="the palette's commands")
        prompts = [str(hits.get_option_at_index(i).prompt) for i in range(hits.option_count)]
        titles = {prompt.split("\n")[0] for prompt in prompts}
        assert "Filter" in titles and "Compose" not in titles


def test_the_pending_approvals_are_counted_in_words_that_agree() -> None:
    one, two = SessionState("x", approvals=1), SessionState("x", approvals=2)
    assert "1 approval pending" in status_text(one).plain
    assert "2 approvals pending" in status_text(two).plain
