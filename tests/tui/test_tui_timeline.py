"""Decisions, hook stderr and lifecycle changes are rows of the event stream, so the README's
worked filter examples give what they promise on the demo."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from inspector.journal.records import Decision, Event, Exchange, Lifecycle, Record, Stderr
from inspector.tui.app import InspectorApp
from inspector.tui.launch import build_session
from inspector.tui.widgets.event_stream import EventStream
from tests.support.tui import listed, make_app, paste, running, until
from tests.tui.test_tui_app import decisions


async def demo_played(pilot: Pilot[int]) -> InspectorApp:
    app = pilot.app
    assert isinstance(app, InspectorApp)
    await until(pilot, lambda: decisions(app, stage="approve_tool", verdict="denied"), 20)
    await until(
        pilot, lambda: any(getattr(e, "kind", "") == "agent.turn.end" for e in timeline(app)), 20
    )
    return app


def timeline(app: InspectorApp) -> list[Record]:
    return list(app.query_one(EventStream).rows)


async def filtered(pilot: Pilot[int], expression: str) -> tuple[list[Record], list[Record]]:
    """The exchange list's and the event stream's rows under `expression`."""
    app = pilot.app
    assert isinstance(app, InspectorApp)
    field = app.query_one("#filter", Input)
    field.value = ""
    field.focus()
    await paste(pilot, expression)
    await until(pilot, lambda: field.value == expression, what=f"typed {expression}")
    await pilot.press("enter")  # applies it now, without waiting for typing to settle
    return list(listed(app)), timeline(app)


async def test_the_event_stream_shows_decisions_stderr_and_lifecycle(tmp_path: Path) -> None:
    session = build_session(None, None)
    session.watch = False
    async with running(make_app(session, tmp_path)) as pilot:
        app = await demo_played(pilot)
        _, shown = await filtered(pilot, "type:decision")
        assert shown and all(isinstance(row, Decision) for row in shown)
        verdicts = {(row.stage, row.verdict, row.by) for row in shown if isinstance(row, Decision)}
        assert ("approve_tool", "denied", "review_gate") in verdicts
        assert ("before_tool", "respond", "weather") in verdicts
        _, shown = await filtered(pilot, "type:stderr")
        assert shown and {row.hook for row in shown if isinstance(row, Stderr)} == {"event_logger"}
        _, shown = await filtered(pilot, "type:lifecycle")
        states = {(row.hook, row.state) for row in shown if isinstance(row, Lifecycle)}
        assert ("review_gate", "ready") in states
        assert app.query_one(EventStream).cells(shown[0])  # a row it can draw


async def test_the_worked_examples_give_what_they_promise_on_the_demo(tmp_path: Path) -> None:
    session = build_session(None, None)
    session.watch = False
    async with running(make_app(session, tmp_path)) as pilot:
        await demo_played(pilot)
        # 1. Everything one hook did: its calls, its process starts, the decisions it made.
        exchanges, shown = await filtered(pilot, "hook:review_gate")
        assert {e.method for e in exchanges} == {"hook.hello", "hook.approve_tool"}
        assert {type(row) for row in shown} == {Lifecycle, Decision}
        # 4. Why was that tool call refused: the denial and the decision that explains it.
        exchanges, shown = await filtered(pilot, "tool:exec (action:deny_tool | action:denied)")
        assert [e.action for e in exchanges] == ["denied"]
        assert [(d.verdict, d.by) for d in shown if isinstance(d, Decision)] == [
            ("denied", "review_gate")
        ]
        # 5. One turn end to end: its hook calls, its runtime events and every decision in it.
        exchanges, shown = await filtered(pilot, "turn:turn-1")
        assert exchanges and all(isinstance(e, Exchange) for e in exchanges)
        assert {type(row) for row in shown} == {Event, Decision}
        # 7. The demo's hooks leak nothing to stdout and raise nothing: no rows, no error.
        exchanges, shown = await filtered(
            pilot, "hook:weather & (type:noise | type:stderr Traceback)"
        )
        assert exchanges == [] and shown == []
        assert not pilot.app.query_one("#filter", Input).has_class("-invalid")
