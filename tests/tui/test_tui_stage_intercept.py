"""Intercept where a person means it: a call held at the agent's entry to a stage, before the
whole chain, so an edit changes what every hook and the agent get; beside it, `@hook` holds one
hook's request, and the screen says which kind a held row is and what an edit will change."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from inspector.hosts.picoclaw.results import ApprovalResult, StageResult
from inspector.journal.records import Decision, Exchange
from inspector.tui.app import InspectorApp
from inspector.tui.widgets.exchange_list import ExchangeList
from tests.support.recorded import recorded_lines
from tests.support.scripted import config_of, scripted
from tests.support.tui import exchange_list, listed, live_app, paste, running, until
from tests.tui.test_tui_app import call, editor, open_composer, started

# README worked example 3, as printed
DESTRUCTIVE = 'method:before_tool & tool:exec & ("rm -rf" | "git push --force" | "DROP TABLE")'
ANY_STAGE = 'tool:exec & ("git push --force" | "DROP TABLE")'


@asynccontextmanager
async def two_hooks(
    tmp_path: Path, intercept: str
) -> AsyncIterator[tuple[InspectorApp, Pilot[int]]]:
    """Two before_tool hooks that answer continue and record what they receive, a manual-free
    approver, and the intercept typed into its field."""
    hooks = [
        scripted(
            name,
            intercept=("before_tool", "approve_tool"),
            priority=priority,
            env={"HOOK_RECORD": str(tmp_path / f"{name}.jsonl")},
        )
        for name, priority in (("first", 1), ("second", 2))
    ]
    app = live_app(config_of(*hooks), tmp_path / "settings")
    async with running(app) as pilot:
        await started(pilot)
        await pilot.press("i")
        await paste(pilot, intercept)
        await pilot.press("enter")
        await until(pilot, lambda: exchange_list(app).has_focus, what="focus back on the list")
        yield app, pilot


def commands_received(tmp_path: Path, hook: str, method: str = "hook.before_tool") -> list[str]:
    return [
        line["params"]["arguments"]["command"]
        for line in recorded_lines(tmp_path / f"{hook}.jsonl")
        if line.get("method") == method
    ]


def through_pipeline(app: InspectorApp, method: str, params: dict[str, Any]) -> asyncio.Task[Any]:
    return asyncio.create_task(app.engine.send_through_pipeline(method, params))


async def held_row(pilot: Pilot[int]) -> Exchange:
    app = pilot.app
    assert isinstance(app, InspectorApp)
    await until(pilot, lambda: app.engine.held, what="a call held")
    held = app.engine.held[-1].exchange
    await until(pilot, lambda: exchange_list(app).highlighted_record is held, what="highlighted")
    return held


def row_text(app: InspectorApp, exchange: Exchange) -> str:
    return " ".join(cell.text for cell in app.query_one(ExchangeList).cells(exchange))


async def test_an_edit_at_the_stage_changes_what_every_hook_and_the_agent_get(
    tmp_path: Path,
) -> None:
    async with two_hooks(tmp_path, DESTRUCTIVE) as (app, pilot):
        task = through_pipeline(app, "hook.before_tool", call("rm -rf /"))
        held = await held_row(pilot)
        assert commands_received(tmp_path, "first") == []  # held before any hook saw it
        assert re.search(r"⇥ every hook\s+before_tool\s+@stage\s+held", row_text(app, held))
        assert any(
            f.code == "held-at-stage" and "every hook and the agent" in f.message
            for f in held.findings
        )
        screen = await open_composer(pilot, "e")
        title = str(screen.query_one("#dialog").border_title)
        assert "before_tool" in title and "every hook and the agent" in title
        editor(screen).text = json.dumps(call("ls /"))
        await pilot.press("ctrl+s")
        result = await task
        await until(pilot, lambda: "forwarded edited" in row_text(app, held), what="row settled")
    assert isinstance(result, StageResult)
    assert result.value["arguments"] == {"command": "ls /"} and result.changed
    assert commands_received(tmp_path, "first") == commands_received(tmp_path, "second") == ["ls /"]
    assert held.status == "ok" and held.edited
    # a command that matches nothing goes straight through
    assert app.engine.held == []


async def test_drop_at_the_stage_stops_the_call_before_any_hook(tmp_path: Path) -> None:
    async with two_hooks(tmp_path, ANY_STAGE) as (app, pilot):
        task = through_pipeline(app, "hook.before_tool", call("git push --force"))
        await held_row(pilot)
        await pilot.press("x")
        result = await task
        approval = through_pipeline(app, "hook.approve_tool", call("DROP TABLE users"))
        await held_row(pilot)
        await pilot.press("x")
        approved = await approval
    assert isinstance(result, StageResult) and result.action == "deny_tool"
    assert result.decided_by == "human" and "before any hook" in result.reason
    assert isinstance(approved, ApprovalResult) and not approved.approved
    assert commands_received(tmp_path, "first") == []
    assert commands_received(tmp_path, "first", "hook.approve_tool") == []
    verdicts = [(d.stage, d.verdict, d.by) for d in app.engine.journal.of_type(Decision)]
    assert ("before_tool", "deny_tool", "human") in verdicts
    assert ("approve_tool", "denied", "human") in verdicts


async def test_at_hook_holds_one_hooks_request_and_says_the_edit_stops_there(
    tmp_path: Path,
) -> None:
    async with two_hooks(tmp_path, "@hook hook:first & tool:exec") as (app, pilot):
        assert app.engine.intercept_expression == "@hook hook:first & tool:exec"
        task = through_pipeline(app, "hook.before_tool", call("rm -rf /"))
        held = await held_row(pilot)
        assert held.hook == "first"
        assert re.search(r"first\s+before_tool\s+@hook\s+held", row_text(app, held))
        screen = await open_composer(pilot, "e")
        title = str(screen.query_one("#dialog").border_title)
        assert "only what first gets" in title
        editor(screen).text = json.dumps(call("ls /"))
        await pilot.press("ctrl+s")
        result = await task
    assert isinstance(result, StageResult)
    # first answered continue: the host kept its own call, so second and the agent get rm -rf
    assert commands_received(tmp_path, "first") == ["ls /"]
    assert commands_received(tmp_path, "second") == ["rm -rf /"]
    assert result.value["arguments"] == {"command": "rm -rf /"}


async def test_a_bad_target_in_the_intercept_field_is_refused(tmp_path: Path) -> None:
    async with two_hooks(tmp_path, DESTRUCTIVE) as (app, pilot):
        field = app.query_one("#intercept", Input)
        await pilot.press("i", "ctrl+u")
        await paste(pilot, "@hooks tool:exec")
        await pilot.press("enter")
        await until(pilot, lambda: field.has_class("-invalid"), what="refused")
        assert app.engine.intercept_expression == DESTRUCTIVE
        assert listed(app)
