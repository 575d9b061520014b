"""The composer puts first what a user edits, in the detail pane's order, and has a key to leave
its editor for the buttons (issue 27, item 10)."""

from __future__ import annotations

import json
from typing import Any

from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select, TextArea

from inspector.hosts.picoclaw.runtime import composer_offer
from inspector.journal.records import Exchange
from inspector.tui.screens.composer import ComposeRequest, ComposerScreen
from inspector.tui.widgets.detail_pane import request_view

META = {"AgentID": "main", "TurnID": "turn-1", "SessionKey": "agent:main:main"}
CALL = {"meta": META, "context": {"channel": "cli"}, "tool": "exec", "arguments": {"command": "ls"}}


class Host(App[None]):
    def __init__(self, modal: ModalScreen[Any]) -> None:
        super().__init__()
        self.modal = modal

    def on_mount(self) -> None:
        self.push_screen(self.modal)


def top_keys(text: str) -> list[str]:
    """The object's keys in the order the text has them."""
    return list(json.loads(text))


async def test_the_composer_shows_the_fields_in_the_detail_panes_order() -> None:
    edited = ComposeRequest("redactor", "hook.before_tool", CALL, CALL)
    screen = ComposerScreen(composer_offer(["redactor"]), initial=edited)
    async with Host(screen).run_test(size=(110, 40)):
        editor = screen.query_one("#editor", TextArea)
        assert top_keys(editor.text) == ["tool", "arguments", "meta", "context"]
        assert str(screen.query_one("#status", Label).render()) == "valid params object"
        exchange = Exchange(hook="redactor", method="hook.before_tool", request={"params": CALL})
        pane = json.loads(request_view(exchange).text)
        assert top_keys(editor.text) == list(pane["params"])

    fresh = ComposerScreen(composer_offer(["redactor"]))
    async with Host(fresh).run_test(size=(110, 40)) as pilot:
        fresh.query_one("#method", Select).value = "hook.before_tool"
        await pilot.pause()
        editor = fresh.query_one("#editor", TextArea)
        assert top_keys(editor.text)[:2] == ["tool", "arguments"]


async def test_a_key_leaves_the_editor_for_the_buttons_while_tab_still_indents() -> None:
    screen = ComposerScreen(composer_offer(["redactor"]))
    async with Host(screen).run_test(size=(110, 40)) as pilot:
        editor = screen.query_one("#editor", TextArea)
        assert editor.has_focus
        before = editor.text
        await pilot.press("tab")
        assert editor.has_focus and editor.text != before  # Tab indents, as in a code editor
        await pilot.press("ctrl+r")  # back to the template
        await pilot.press("ctrl+j")
        assert screen.focused is screen.query_one("#send", Button)
