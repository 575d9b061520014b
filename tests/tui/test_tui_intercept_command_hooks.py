"""The intercept in the UI holds a Claude Code event at its entry, before its hooks: the same keys
as for a JSON-RPC request edit its stdin context and forward it, and the hook process gets the
edit."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from textual.widgets import Label, TextArea

from inspector.journal.records import STATUS_OK, Decision
from inspector.tui.screens.composer import ComposerScreen
from tests.pipeline.test_intercept_command_hooks import claude_config, recording_guard
from tests.support.claude import spec, tool_event
from tests.support.tui import exchange_list, listed, live_app, opened, paste, running, until


async def test_e_edits_a_held_claude_event_and_the_hook_gets_the_edited_stdin(
    tmp_path: Path,
) -> None:
    log = tmp_path / "stdin.json"
    app = live_app(claude_config(tmp_path, spec(recording_guard(log), name="guard")), tmp_path)
    engine = app.engine
    async with running(app) as pilot:
        await pilot.press("i")
        await paste(pilot, "method:PreToolUse & tool:Bash")
        await pilot.press("enter")
        await until(pilot, lambda: exchange_list(app).has_focus, what="focus back on the list")
        fire = engine.send_through_pipeline("PreToolUse", tool_event(command="rm -rf /"))
        task = asyncio.create_task(fire)
        await until(pilot, lambda: len(engine.held) == 1, what="the run held")
        held = engine.held[0].exchange
        await until(
            pilot,
            lambda: exchange_list(app).highlighted_record is held,
            what="the held run highlighted",
        )
        assert held.status == "held" and held in listed(app) and not log.exists()

        await pilot.press("e")
        screen = await opened(pilot, ComposerScreen, "the composer")
        editor = screen.query_one("#editor", TextArea)
        context = json.loads(editor.text)
        assert context == tool_event(command="rm -rf /")
        status = screen.query_one("#status", Label).render()
        assert str(status) == "valid hook input (the JSON on the hook's stdin)"
        context["tool_input"]["command"] = "echo safe"
        editor.text = json.dumps(context)
        await pilot.press("ctrl+s")
        outcome = await task
    assert json.loads(log.read_text()) == context
    assert held.status == STATUS_OK and held.edited and held.params == context
    assert outcome.verdict == "continue"
    human = [d.verdict for d in engine.journal.of_type(Decision) if d.by == "human"]
    assert human == ["forwarded edited"]
