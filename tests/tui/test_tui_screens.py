"""The composer, approval and rules modals, driven through Textual's pilot."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Label, Select, Static, TextArea

from inspector.hooks.approvals import Verdict
from inspector.hosts.picoclaw import templates
from inspector.hosts.picoclaw.runtime import composer_offer
from inspector.tui.screens.approval import ApprovalScreen, PromptView
from inspector.tui.screens.composer import ComposeRequest, ComposerScreen
from inspector.tui.screens.rules import RulesScreen, RuleView

SIZE = (110, 40)


class Host(App[None]):
    """Pushes one modal and records what it was dismissed with."""

    def __init__(self, modal: ModalScreen[Any]) -> None:
        super().__init__()
        self.modal = modal
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.animation_level = "none"
        self.push_screen(self.modal, self.results.append)


async def wait_until(
    pilot: Pilot[None], predicate: Callable[[], bool], timeout: float = 20.0
) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.05)


def plain(widget: Static | Label) -> str:
    return str(widget.render())


# ---- composer ------------------------------------------------------------------------------


def composer_host(**kwargs: Any) -> tuple[Host, ComposerScreen]:
    screen = ComposerScreen(composer_offer(["review-gate", "redactor"]), **kwargs)
    return Host(screen), screen


def editor_of(screen: ComposerScreen) -> TextArea:
    editor = screen.query_one("#editor", TextArea)
    editor.cursor_blink = False
    return editor


async def test_invalid_json_shows_position_and_blocks_send() -> None:
    app, screen = composer_host()
    async with app.run_test(size=SIZE) as pilot:
        editor = editor_of(screen)
        editor.text = '{\n  "tool": "exec",\n  "arguments": }'
        await pilot.pause()
        status = screen.query_one("#status", Label)
        assert plain(status).startswith("line 3, column 16: Expecting value")
        assert status.has_class("-error")
        assert screen.query_one("#send", Button).disabled
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen and app.results == []

        editor.text = '{"deep": ' + "[" * 20_000 + "]" * 20_000 + "}"  # pasted, say
        await pilot.pause()
        assert plain(status) == "nested too deeply to read"
        assert screen.query_one("#send", Button).disabled

        editor.text = '{"tool": "exec", "arguments": {"command": "ls"}}'
        await pilot.pause()
        assert screen.query_one("#status", Label).has_class("-ok")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.results != [])
    request = app.results[0]
    assert request == ComposeRequest(
        "review-gate", "hook.hello", {"tool": "exec", "arguments": {"command": "ls"}}, None
    )


async def test_params_must_be_an_object() -> None:
    app, screen = composer_host()
    async with app.run_test(size=SIZE) as pilot:
        editor_of(screen).text = "[1, 2]"
        await pilot.pause()
        assert plain(screen.query_one("#status", Label)) == "must be a JSON object, not an array"
        assert screen.query_one("#send", Button).disabled


async def test_params_picoclaw_could_not_send_are_refused_with_go_s_reason() -> None:
    app, screen = composer_host()
    async with app.run_test(size=SIZE) as pilot:
        screen.query_one("#method", Select).value = "hook.before_tool"
        await pilot.pause()
        editor_of(screen).text = '{"tool": "exec", "arguments": "rm -rf /"}'
        await pilot.pause()
        status = plain(screen.query_one("#status", Label))
        assert status.startswith("PicoClaw's structs cannot hold these params: ")
        assert "arguments" in status and screen.query_one("#send", Button).disabled


async def test_method_change_swaps_an_untouched_template_but_keeps_edits() -> None:
    app, screen = composer_host()
    async with app.run_test(size=SIZE) as pilot:
        editor = editor_of(screen)
        assert json.loads(editor.text) == templates.template("hook.hello")
        screen.query_one("#method", Select).value = "hook.before_tool"
        await pilot.pause()
        assert json.loads(editor.text) == templates.template("hook.before_tool")

        editor.text = '{"tool": "read_file"}'
        await pilot.pause()
        screen.query_one("#method", Select).value = "hook.approve_tool"
        await pilot.pause()
        assert editor.text == '{"tool": "read_file"}'

        await pilot.press("ctrl+t")
        await pilot.pause()
        assert json.loads(editor.text) == templates.template("hook.approve_tool")


async def test_revert_restores_the_initial_params() -> None:
    initial = ComposeRequest("redactor", "hook.before_tool", {"tool": "exec", "arguments": {}})
    app, screen = composer_host(initial=initial)
    async with app.run_test(size=SIZE) as pilot:
        editor = editor_of(screen)
        assert screen.query_one("#target", Select).value == "redactor"
        editor.text = '{"broken": '
        await pilot.pause()
        # An edited past exchange is not a template: a method change keeps the text.
        screen.query_one("#method", Select).value = "hook.after_tool"
        await pilot.pause()
        assert editor.text == '{"broken": '
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert json.loads(editor.text) == initial.params
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.results != [])
    sent = app.results[0]
    assert (sent.target, sent.method, sent.params) == (
        "redactor",
        "hook.after_tool",
        initial.params,
    )
    assert sent.original == initial.params


async def test_whole_pipeline_target_sends_none_and_needs_a_stage_method() -> None:
    app, screen = composer_host()
    async with app.run_test(size=SIZE) as pilot:
        editor_of(screen)
        screen.query_one("#target", Select).value = None
        await pilot.pause()
        assert "does not take hook.hello" in plain(screen.query_one("#status", Label))
        assert screen.query_one("#send", Button).disabled

        screen.query_one("#method", Select).value = "hook.before_llm"
        await pilot.pause()
        await pilot.click("#send")
        await wait_until(pilot, lambda: app.results != [])
    sent = app.results[0]
    assert sent.target is None and sent.method == "hook.before_llm"
    assert sent.params == templates.template("hook.before_llm")


async def test_composer_escape_cancels_from_the_editor() -> None:
    app, screen = composer_host()
    async with app.run_test(size=SIZE) as pilot:
        assert editor_of(screen).has_focus
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.results != [])
    assert app.results == [None]


async def test_escape_closes_an_open_drop_down_before_the_composer() -> None:
    app, screen = composer_host()
    async with app.run_test(size=SIZE) as pilot:
        method = screen.query_one("#method", Select)
        method.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: method.expanded)
        await pilot.press("escape")
        await pilot.pause()
        assert not method.expanded and app.screen is screen and app.results == []


async def test_composer_keys_can_be_remapped_by_id() -> None:
    app, screen = composer_host()
    async with app.run_test(size=SIZE) as pilot:
        app.set_keymap({"composer.send": "f5"})
        editor_of(screen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.results == []
        await pilot.press("f5")
        await wait_until(pilot, lambda: app.results != [])
    assert app.results[0].params == templates.template("hook.hello")


# ---- approval ------------------------------------------------------------------------------


def prompt(seconds: float = 60, **overrides: Any) -> PromptView:
    fields: dict[str, Any] = {
        "tool": "exec",
        "arguments": {"command": "rm -rf build"},
        "agent_id": "main",
        "session_key": "agent:main:main",
        "turn_id": "turn-3",
        "deadline": time.monotonic() + seconds,
        "timeout_s": 60,
        "severity": "high",
        "earlier": [{"hook": "review-gate", "verdict": "allow", "reason": "in workspace"}],
        "queue_position": 1,
        "queue_length": 3,
    } | overrides
    return PromptView(**fields)


async def decide(keys: list[str], view: PromptView | None = None) -> list[Any]:
    app = Host(ApprovalScreen(view or prompt()))
    async with app.run_test(size=SIZE) as pilot:
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await wait_until(pilot, lambda: app.results != [])
    return app.results


async def test_allow_once() -> None:
    assert await decide(["a"]) == [Verdict("allow_once")]
    assert await decide(["y"]) == [Verdict("allow_once")]


async def test_a_stray_enter_answers_nothing_but_buttons_are_a_tab_away() -> None:
    app = Host(ApprovalScreen(prompt(severity="critical")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [] and isinstance(app.screen, ApprovalScreen)
        await pilot.press("tab", "enter")
        await wait_until(pilot, lambda: app.results != [])
    assert app.results == [Verdict("allow_once")]


async def test_approval_keys_can_be_remapped_by_id() -> None:
    app = Host(ApprovalScreen(prompt()))
    async with app.run_test(size=SIZE) as pilot:
        app.set_keymap({"approval.allow_once": "o"})
        await pilot.press("a")
        await pilot.pause()
        assert app.results == []
        await pilot.press("o")
        await wait_until(pilot, lambda: app.results != [])
    assert app.results == [Verdict("allow_once")]


async def test_deny_with_reason_and_without() -> None:
    keys = ["d", *"not on main", "enter"]
    assert await decide(keys) == [Verdict("deny", reason="not on main")]
    assert await decide(["n", "enter"]) == [Verdict("deny", reason="")]


async def test_allow_always_with_each_scope_shows_the_rule_first() -> None:
    app = Host(ApprovalScreen(prompt()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("A")
        await pilot.pause()
        rule = plain(app.screen.query_one("#scope-rule", Static))
        assert 'exec with exactly these arguments: {"command":"rm -rf build"}' in rule
        await pilot.press("t")
        await pilot.pause()
        assert "every exec call, whatever its arguments" in plain(
            app.screen.query_one("#scope-rule", Static)
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.results != [])
    assert app.results == [Verdict("allow_always", "tool")]
    assert await decide(["A", "enter"]) == [Verdict("allow_always", "exact")]


async def test_escape_in_a_sub_step_goes_back_then_closes_undecided() -> None:
    app = Host(ApprovalScreen(prompt()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.mode == "choose" and app.results == []
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.results != [])
    assert app.results == [None]


async def test_countdown_decreases_and_turns_urgent() -> None:
    app = Host(ApprovalScreen(prompt(seconds=10.9, on_timeout="allow")))
    async with app.run_test(size=SIZE) as pilot:
        countdown = app.screen.query_one("#countdown", Label)

        def shown() -> int:
            seconds, rest = plain(countdown).split(" ", 1)
            assert rest == "s left — then allow"
            return int(seconds)

        first = shown()
        await wait_until(pilot, lambda: shown() < first)
        await wait_until(pilot, lambda: shown() == 9)
        assert countdown.has_class("-urgent")
        await pilot.press("escape")


async def test_countdown_is_calm_with_time_to_spare() -> None:
    app = Host(ApprovalScreen(prompt(seconds=60)))
    async with app.run_test(size=SIZE) as pilot:
        countdown = app.screen.query_one("#countdown", Label)
        assert plain(countdown) in ("60 s left — then deny", "59 s left — then deny")
        assert not countdown.has_class("-urgent")
        await pilot.press("escape")


async def test_deadline_dismisses_with_none() -> None:
    app = Host(ApprovalScreen(prompt(seconds=1)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.results != [])
        assert not isinstance(app.screen, ApprovalScreen)
    assert app.results == [None]


async def test_markup_in_arguments_and_names_is_shown_literally() -> None:
    view = prompt(
        tool="[bold]exec[/bold]",
        arguments={"command": "[red]rm -rf /[/red]", "note": "[link=http://x]y[/link]"},
        earlier=[{"hook": "[b]gate[/b]", "verdict": "deny", "reason": "[i]no[/i]"}],
    )
    app = Host(ApprovalScreen(view))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        args = plain(screen.query_one("#arguments-text", Static))
        assert '"command": "[red]rm -rf /[/red]"' in args
        assert '"note": "[link=http://x]y[/link]"' in args
        assert "[bold]exec[/bold]" in plain(screen.query_one("#title", Label))
        assert "[b]gate[/b]  deny — [i]no[/i]" in plain(screen.query_one("#earlier", Static))
        await pilot.press("escape")


async def test_huge_arguments_are_capped() -> None:
    view = prompt(arguments={"lines": [f"line {i}" for i in range(5000)]})
    app = Host(ApprovalScreen(view))
    async with app.run_test(size=SIZE) as pilot:
        shown = plain(app.screen.query_one("#arguments-text", Static))
        assert shown.count("\n") <= 401
        assert "more characters not shown" in shown
        await pilot.press("escape")


# ---- rules ---------------------------------------------------------------------------------


async def test_revoke_calls_back_and_removes_the_row() -> None:
    rules = [
        RuleView("r1", "exec", {"command": "ls"}, uses=2, created=time.time()),
        RuleView("r2", "read_file", None, uses=0, created=time.time()),
    ]
    revoked: list[str] = []
    app = Host(RulesScreen(rules, revoke=revoked.append))
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        await pilot.press("down", "r")
        await pilot.pause()
        assert revoked == ["r2"]
        assert [key.value for key in table.rows] == ["r1"]
        await pilot.press("delete")
        await pilot.pause()
        assert revoked == ["r2", "r1"] and table.row_count == 0
        assert app.screen.query_one("#empty").display
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.results != [])
    assert app.results == [None]
