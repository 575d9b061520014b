"""Every UI flow through the real app: real hook processes, driven with keys through the pilot."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual.command import CommandList, CommandPalette
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label, OptionList, Select, Static, TextArea

from inspector.config.model import HookSpec
from inspector.hosts.picoclaw.results import ApprovalResult
from inspector.journal.records import Decision, Exchange
from inspector.tui.app import REFRESH_S, InspectorApp
from inspector.tui.launch import build_session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.screens.composer import ComposerScreen
from inspector.tui.screens.help import HelpScreen
from inspector.tui.screens.pick import PickScreen
from inspector.tui.screens.rules import RulesScreen
from inspector.tui.settings import SETTINGS_FILE, load_settings
from inspector.tui.widgets.detail_pane import DetailPane
from inspector.tui.widgets.event_stream import EventStream
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.hooks_panel import HooksPanel
from tests.support.paths import SCRIPTED
from tests.support.recorded import recorded_lines
from tests.support.scripted import config_of, scripted
from tests.support.tui import (
    exchange_list,
    listed,
    live_app,
    make_app,
    opened,
    paste,
    running,
    until,
)

META = {"AgentID": "main", "TurnID": "turn-1", "SessionKey": "agent:main:main"}
ECHO = {"before_tool": {"echo": "modify"}}  # answers modify with the call it was sent

Call = dict[str, Any]
AppPilot = Pilot[int]


def call(command: str, tool: str = "exec") -> Call:
    """before_tool / approve_tool params for one tool call."""
    return {"meta": META, "tool": tool, "arguments": {"command": command}}


def result_of(exchange: Exchange) -> Any:
    return (exchange.response or {}).get("result")


def decisions(app: InspectorApp, **fields: str) -> list[Decision]:
    return [
        decision
        for decision in app.engine.journal.of_type(Decision)
        if all(getattr(decision, key) == value for key, value in fields.items())
    ]


def from_source(app: InspectorApp, source: str) -> list[Exchange]:
    return [e for e in app.engine.journal.exchanges() if e.source == source]


def plain(widget: Static | Label) -> str:
    return str(widget.render())


def quiet_app(settings: Path) -> InspectorApp:
    """A live session without hooks: for flows that need the app but no traffic."""
    return live_app(config_of(), settings)


def app_of(pilot: AppPilot) -> InspectorApp:
    assert isinstance(pilot.app, InspectorApp)
    return pilot.app


async def started(pilot: AppPilot) -> None:
    """Every hook is ready and the list shows the hellos of the process hooks."""
    app = app_of(pilot)
    specs = app.engine.config.enabled_hooks
    hellos = sum(spec.kind == "process" for spec in specs)

    def ready() -> bool:
        states = [getattr(hook, "state", "") for hook in app.engine.runtime.hooks.values()]
        return states == ["ready"] * len(specs) and len(listed(app)) == hellos

    await until(pilot, ready, what="every hook ready")


async def highlighted(pilot: AppPilot, exchange: Exchange) -> None:
    app = app_of(pilot)
    await until(
        pilot,
        lambda: exchange_list(app).highlighted_record is exchange,
        what=f"exchange {exchange.seq} highlighted",
    )


# ---- the demo ------------------------------------------------------------------------------


async def test_demo_session_shows_live_traffic_from_every_demo_hook(tmp_path: Path) -> None:
    session = build_session(None, None)
    session.watch = False
    app = make_app(session, tmp_path)
    demo_hooks = {"redactor", "weather", "review_gate", "event_logger"}
    async with running(app) as pilot:

        def denied_approval() -> bool:
            return any(
                e.method == "hook.approve_tool" and e.action == "denied" for e in listed(app)
            )

        await until(pilot, denied_approval, what="the denied approval in the list")
        assert {e.hook for e in listed(app)} == demo_hooks
        assert {e.source for e in listed(app)} == {"host", "scenario"}
        panel = app.query_one(HooksPanel)
        await until(
            pilot,
            lambda: {str(panel.get_row(hook)[1]) for hook in demo_hooks} == {"ready"},
            what="every hook ready in the hooks panel",
        )
    assert decisions(app, stage="approve_tool", verdict="denied", by="review_gate")


# ---- composer and resend -------------------------------------------------------------------


async def open_composer(pilot: AppPilot, key: str = "c") -> ComposerScreen:
    await pilot.press(key)
    return await opened(pilot, ComposerScreen, "the composer")


async def choose(pilot: AppPilot, select: Select[Any], label: str) -> None:
    """Open a drop-down with the keyboard, type to find the option, take it."""
    select.focus()
    await pilot.press("enter")
    await until(pilot, lambda: select.expanded, what="drop-down open")
    await pilot.press(*label, "enter")
    await until(pilot, lambda: not select.expanded, what="drop-down closed")


def editor(screen: ComposerScreen) -> TextArea:
    area = screen.query_one("#editor", TextArea)
    area.cursor_blink = False
    return area


def status_line(screen: ComposerScreen) -> Label:
    return screen.query_one("#status", Label)


async def test_compose_and_send_to_a_chosen_hook_and_method(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha"), scripted("beta", ECHO)), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        screen = await open_composer(pilot)
        await choose(pilot, screen.query_one("#target", Select), "beta")
        await choose(pilot, screen.query_one("#method", Select), "before_tool")
        area = editor(screen)
        area.text = json.dumps(call("ls -la"))
        area.focus()
        await pilot.press("x")  # a stray character at the start: not JSON any more
        await until(pilot, lambda: status_line(screen).has_class("-error"), what="invalid")
        assert plain(status_line(screen)).startswith("line 1, column 1: Expecting value")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen and from_source(app, "composer") == []

        await pilot.press("backspace")
        await until(pilot, lambda: status_line(screen).has_class("-ok"), what="valid again")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: [e.status for e in from_source(app, "composer")] == ["ok"])
        (sent,) = from_source(app, "composer")
        await until(pilot, lambda: listed(app)[-1] is sent, what="the new row in the list")
        assert not isinstance(app.screen, ComposerScreen)
    assert (sent.hook, sent.method, sent.params) == ("beta", "hook.before_tool", call("ls -la"))
    assert result_of(sent) == {"action": "modify", "call": call("ls -la")}


async def test_resend_the_highlighted_exchange_with_an_edit_and_revert(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha", ECHO)), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        first = await app.engine.send_to_hook("alpha", "hook.before_tool", call("ls"))
        last = await app.engine.send_to_hook("alpha", "hook.before_tool", call("pwd"))
        await highlighted(pilot, last)
        await pilot.press("up")
        await highlighted(pilot, first)

        screen = await open_composer(pilot, "e")
        area = editor(screen)
        assert json.loads(area.text) == call("ls")
        area.text = json.dumps(call("ls -la /tmp"))
        await pilot.press("ctrl+r")
        await until(pilot, lambda: json.loads(area.text) == call("ls"), what="reverted")
        area.text = json.dumps(call("ls -la"))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: [e.status for e in from_source(app, "composer")] == ["ok"] * 3)
        resent = from_source(app, "composer")[-1]
        await until(pilot, lambda: listed(app)[-1] is resent, what="the new row in the list")
    assert (resent.hook, resent.method) == ("alpha", "hook.before_tool")
    assert resent.params == result_of(resent)["call"] == call("ls -la")


# ---- intercept -----------------------------------------------------------------------------


@asynccontextmanager
async def intercepting(tmp_path: Path) -> AsyncIterator[tuple[InspectorApp, AppPilot]]:
    """A hook that records what it receives, and the intercept set in its input field."""
    record = tmp_path / "received.jsonl"
    hook = scripted("alpha", ECHO, env={"HOOK_RECORD": str(record)})
    app = live_app(config_of(hook), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        await pilot.press("i")
        await paste(pilot, "method:before_tool")
        await pilot.press("enter")
        await until(pilot, lambda: exchange_list(app).has_focus, what="focus back on the list")
        assert app.engine.intercept_expression == "method:before_tool"
        yield app, pilot


async def hold(pilot: AppPilot, command: str) -> tuple[asyncio.Task[Exchange], Exchange]:
    """Send a request the intercept holds; wait until the list highlights it, held."""
    app = app_of(pilot)
    before = len(app.engine.held)
    send = app.engine.send_to_hook("alpha", "hook.before_tool", call(command), source="scenario")
    task = asyncio.create_task(send)
    await until(pilot, lambda: len(app.engine.held) > before, what="the request held")
    held = app.engine.held[-1].exchange
    await highlighted(pilot, held)
    assert held.status == "held" and held in listed(app)
    return task, held


def received_commands(tmp_path: Path) -> list[str]:
    lines = recorded_lines(tmp_path / "received.jsonl")
    return [
        line["params"]["arguments"]["command"]
        for line in lines
        if line.get("method") == "hook.before_tool"
    ]


async def test_intercept_holds_and_a_forwards_unchanged(tmp_path: Path) -> None:
    async with intercepting(tmp_path) as (app, pilot):
        task, held = await hold(pilot, "ls")
        await pilot.press("a")
        exchange = await task
    assert exchange is held and exchange.status == "ok" and not exchange.edited
    assert result_of(exchange)["call"] == call("ls")
    assert [(d.verdict, d.by) for d in decisions(app, stage="before_tool")] == [
        ("forwarded", "human")
    ]
    assert received_commands(tmp_path) == ["ls"]


async def test_intercept_e_edits_the_held_request_then_forwards_it(tmp_path: Path) -> None:
    async with intercepting(tmp_path) as (app, pilot):
        task, held = await hold(pilot, "rm -rf /")
        screen = await open_composer(pilot, "e")
        assert json.loads(editor(screen).text) == call("rm -rf /")
        editor(screen).text = json.dumps(call("ls /"))
        await pilot.press("ctrl+s")
        exchange = await task
    assert exchange is held and exchange.status == "ok" and exchange.edited
    assert exchange.params == result_of(exchange)["call"] == call("ls /")
    assert app.engine.gate.originals[held.seq] == call("rm -rf /")
    assert received_commands(tmp_path) == ["ls /"]
    assert [d.verdict for d in decisions(app, by="human")] == ["forwarded edited"]


async def test_intercept_x_drops_the_held_request(tmp_path: Path) -> None:
    async with intercepting(tmp_path) as (app, pilot):
        task, _ = await hold(pilot, "rm -rf /")
        await pilot.press("x")
        assert (await task).status == "dropped"
    assert [(d.stage, d.verdict, d.by) for d in decisions(app, by="human")] == [
        ("before_tool", "dropped", "human")
    ]
    assert received_commands(tmp_path) == []


async def test_intercept_capital_a_forwards_every_held_request(tmp_path: Path) -> None:
    async with intercepting(tmp_path) as (app, pilot):
        first, _ = await hold(pilot, "ls")
        second, _ = await hold(pilot, "pwd")
        await pilot.press("A")
        exchanges = await asyncio.gather(first, second)
        assert [e.status for e in exchanges] == ["ok", "ok"]
        assert app.engine.intercept_expression == "method:before_tool"  # still intercepting
    assert sorted(received_commands(tmp_path)) == ["ls", "pwd"]


async def test_intercept_capital_x_clears_the_intercept_and_sends_what_it_held(
    tmp_path: Path,
) -> None:
    async with intercepting(tmp_path) as (app, pilot):
        task, _ = await hold(pilot, "ls")
        await pilot.press("X")
        assert (await task).status == "ok"
        assert app.query_one("#intercept", Input).value == ""
        assert app.engine.intercept_expression is None
        after = await app.engine.send_to_hook("alpha", "hook.before_tool", call("pwd"))
        assert after.status == "ok" and app.engine.held == []
    assert received_commands(tmp_path) == ["ls", "pwd"]


async def test_a_bad_intercept_expression_is_refused_and_the_old_one_kept(tmp_path: Path) -> None:
    async with intercepting(tmp_path) as (app, pilot):
        field = app.query_one("#intercept", Input)
        await pilot.press("i", "ctrl+u")
        await paste(pilot, "method:(")
        await pilot.press("enter")
        await until(pilot, lambda: field.has_class("-invalid"), what="refused")
        assert "expected a value after 'method:'" in plain(app.query_one("#filter-error", Label))
        assert app.engine.intercept_expression == "method:before_tool"


# ---- approvals by hand ---------------------------------------------------------------------


MANUAL = HookSpec(name="me", kind="manual", intercept=("approve_tool",), priority=50)
GATE = scripted("gate", intercept=("approve_tool",), priority=10)


def approve(app: InspectorApp, command: str) -> asyncio.Task[ApprovalResult]:
    async def through_pipeline() -> ApprovalResult:
        result = await app.engine.send_through_pipeline("hook.approve_tool", call(command))
        assert isinstance(result, ApprovalResult)
        return result

    return asyncio.create_task(through_pipeline())


def human_decisions(app: InspectorApp) -> list[tuple[str, str, str]]:
    """(verdict, by, reason) of what the manual hook decided, in order."""
    return [
        (d.verdict, d.by, d.reason)
        for d in decisions(app, stage="approve_tool")
        if d.chain and d.chain[0]["hook"] == "me"
    ]


async def test_approval_modal_defer_then_allow_once(tmp_path: Path) -> None:
    app = live_app(config_of(GATE, MANUAL), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        task = approve(app, "ls -la")
        screen = await opened(pilot, ApprovalScreen, "the approval modal")
        assert "exec" in plain(screen.query_one("#title", Label))
        assert "gate  approved" in plain(screen.query_one("#earlier", Static))
        await pilot.press("escape")  # decide later: the prompt stays pending
        await until(pilot, lambda: not isinstance(app.screen, ApprovalScreen), what="deferred")
        assert len(app.engine.approvals.pending) == 1 and not task.done()
        await pilot.press("p")
        await opened(pilot, ApprovalScreen, "the approval modal again")
        await pilot.press("a")
        outcome = await task
        await until(pilot, lambda: not isinstance(app.screen, ApprovalScreen), what="closed")
    assert outcome.approved
    assert human_decisions(app) == [("allow_once", "human", "allowed once by the user")]


async def test_approval_modal_deny_with_a_reason(tmp_path: Path) -> None:
    app = live_app(config_of(GATE, MANUAL), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        task = approve(app, "rm -rf /")
        screen = await opened(pilot, ApprovalScreen, "the approval modal")
        await pilot.press("d")
        await until(pilot, lambda: screen.query_one("#reason-input", Input).has_focus)
        await paste(pilot, "wipes the disk")
        await pilot.press("enter")
        outcome = await task
    assert (outcome.approved, outcome.reason, outcome.decided_by) == (False, "wipes the disk", "me")
    assert human_decisions(app) == [("deny", "human", "wipes the disk")]


async def test_allow_always_for_the_tool_then_revoke_it_in_the_rules_screen(
    tmp_path: Path,
) -> None:
    app = live_app(config_of(GATE, MANUAL), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        task = approve(app, "ls")
        await opened(pilot, ApprovalScreen, "the approval modal")
        await pilot.press("A", "t", "enter")
        assert (await task).approved
        outcome = await approve(app, "make test")  # other arguments: the tool-wide rule covers it
        await pilot.pause()
        # Nobody answers here, so a modal that had opened would still be open.
        assert outcome.approved and app.engine.approvals.pending == []
        assert not isinstance(app.screen, ApprovalScreen)

        await pilot.press("R")
        rules = await opened(pilot, RulesScreen, "the rules screen")
        table = rules.query_one(DataTable)
        assert [str(cell) for cell in table.get_row_at(0)[:3]] == ["exec", "any arguments", "1"]
        assert table.row_count == 1
        await pilot.press("r")
        await until(pilot, lambda: app.engine.approvals.rules == [], what="the rule revoked")
        await pilot.press("escape")

        task = approve(app, "make test")  # no rule any more: the person is asked again
        await opened(pilot, ApprovalScreen, "the approval modal again")
        await pilot.press("a")
        assert (await task).approved
    assert [(verdict, by) for verdict, by, _ in human_decisions(app)] == [
        ("allow_always", "human"),
        ("allow_always", "rule:r1"),
        ("allow_once", "human"),
    ]


async def test_the_approval_modal_counts_down_to_its_on_timeout(tmp_path: Path) -> None:
    app = live_app(config_of(GATE, MANUAL, approval_timeout_ms=60_000), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        task = approve(app, "ls")
        screen = await opened(pilot, ApprovalScreen, "the approval modal")
        countdown = screen.query_one("#countdown", Label)
        await until(pilot, lambda: plain(countdown), what="the countdown shown")
        seconds, _, rest = plain(countdown).partition(" s left")
        assert 40 < int(seconds) <= 60 and rest == " — then deny"
        await pilot.press("a")
        assert (await task).approved


async def test_unanswered_approval_times_out_with_on_timeout_deny(tmp_path: Path) -> None:
    # Whether the modal has painted before the deadline depends on the machine's load; the
    # verdict, the journal and a closed modal afterwards do not.
    app = live_app(config_of(GATE, MANUAL, approval_timeout_ms=300), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        outcome = await approve(app, "ls")
        await until(pilot, lambda: not isinstance(app.screen, ApprovalScreen), what="closed")
        assert app.engine.approvals.pending == []
    assert (outcome.approved, outcome.decided_by) == (False, "me")
    assert human_decisions(app) == [
        ("deny", "timeout", "no decision within 0.3 s (on_timeout: deny)")
    ]


# ---- filter --------------------------------------------------------------------------------


async def test_filter_narrows_the_list_and_a_bad_expression_keeps_it(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("redactor"), scripted("weather")), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        assert {e.hook for e in listed(app)} == {"redactor", "weather"}
        field = app.query_one("#filter", Input)
        error = app.query_one("#filter-error", Label)
        await pilot.press("slash")
        await paste(pilot, "hook:redactor")
        await until(pilot, lambda: {e.hook for e in listed(app)} == {"redactor"}, what="narrowed")

        narrowed = list(listed(app))
        await pilot.press("space", "&")
        await until(pilot, lambda: field.has_class("-invalid"), what="the error shown")
        assert plain(error).startswith("expected a term after '&'")
        assert listed(app) == narrowed

        await pilot.press("backspace", "backspace", "ctrl+u")
        await until(pilot, lambda: len(listed(app)) == 2, what="every row back")
        assert not field.has_class("-invalid") and plain(error) == ""


async def test_a_filter_too_long_to_compile_quickly_is_refused_in_the_bar(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("redactor"), scripted("weather")), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        await until(pilot, lambda: len(listed(app)) == 2, what="both hooks listed")
        field = app.query_one("#filter", Input)
        await pilot.press("slash")
        await paste(pilot, " | ".join(f"hook:h{n}" for n in range(20_000)))
        await until(pilot, lambda: field.has_class("-invalid"), what="refused")
        error = plain(app.query_one("#filter-error", Label))
        assert error.startswith("the filter is 268,887 characters long; the most is 10,000")
        assert len(listed(app)) == 2


# ---- theme, palette, help, keymap ----------------------------------------------------------


async def test_theme_choice_is_saved_and_a_new_app_starts_with_it(tmp_path: Path) -> None:
    app = quiet_app(tmp_path)
    async with running(app) as pilot:
        assert app.theme == "inspector-dark"
        await pilot.press("ctrl+p")
        await run_palette_command(pilot, "theme", "Theme")
        await run_palette_command(pilot, "inspector-light", "inspector-light")
        await until(pilot, lambda: app.theme == "inspector-light", what="the theme applied")
    settings, problems = load_settings(tmp_path)
    assert (settings.theme, problems) == ("inspector-light", [])
    assert (tmp_path / SETTINGS_FILE).read_text() == "theme: inspector-light\n"

    again = quiet_app(tmp_path)
    async with running(again):
        assert again.theme == "inspector-light"


async def run_palette_command(pilot: AppPilot, search: str, title: str) -> None:
    """In the open command palette: search, wait for `title` to lead the hits, run it."""
    palette = await opened(pilot, CommandPalette, "the command palette")
    await paste(pilot, search)
    hits = palette.query_one(CommandList)

    def leading() -> str:
        return str(hits.get_option_at_index(0).prompt).split("\n")[0] if hits.option_count else ""

    await until(pilot, lambda: leading() == title, what=f"{title} first in the palette")
    await pilot.press("enter")


def palette_commands(app: InspectorApp) -> dict[str, str]:
    """Title -> help text of every command the palette offers on the main screen."""
    return {command.title: command.help for command in app.get_system_commands(app.screen)}


async def test_every_app_binding_is_a_palette_command_and_compose_runs(tmp_path: Path) -> None:
    app = quiet_app(tmp_path)
    async with running(app) as pilot:
        titles = palette_commands(app)
        missing = [
            binding.description
            for binding in app.BINDINGS
            if binding.action not in ("help", "quit") and binding.description not in titles
        ]
        assert missing == []
        assert "Quit" in titles  # Textual's own command runs the quit action
        await pilot.press("ctrl+p")
        await run_palette_command(pilot, "Compose", "Compose")
        await opened(pilot, ComposerScreen, "the composer from the palette")


async def test_the_manual_and_the_key_help_are_palette_commands(tmp_path: Path) -> None:
    app = quiet_app(tmp_path)
    async with running(app):
        commands = palette_commands(app)
        assert "Manual" in commands and "Keys" in commands


async def test_question_mark_shows_help_for_the_focused_panel(tmp_path: Path) -> None:
    app = quiet_app(tmp_path)
    async with running(app) as pilot:
        await pilot.press("shift+tab")
        await until(pilot, lambda: app.query_one(HooksPanel).has_focus, what="hooks panel focus")
        await pilot.press("question_mark")
        help_screen = await opened(pilot, HelpScreen, "the help screen")
        assert help_screen.markdown.startswith("## Hooks")
        assert "| `c` | Compose | `app.compose` |" in help_screen.markdown
        await pilot.press("escape")

        await pilot.press("tab")
        await until(pilot, lambda: exchange_list(app).has_focus, what="exchange list focus")
        await pilot.press("question_mark")
        help_screen = await opened(pilot, HelpScreen, "the help screen")
        assert help_screen.markdown.startswith("## hook-inspector")


def remap_compose(settings: Path) -> None:
    settings.mkdir(parents=True, exist_ok=True)
    # o: a key nothing else takes (k moves up in the lists, whose keys come before the app's)
    (settings / SETTINGS_FILE).write_text('keymap:\n  app.compose: "o"\n')


async def test_keymap_in_settings_moves_compose_to_another_key(tmp_path: Path) -> None:
    remap_compose(tmp_path)
    app = quiet_app(tmp_path)
    async with running(app) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert not isinstance(app.screen, ComposerScreen)
        await pilot.press("o")
        await opened(pilot, ComposerScreen, "the composer on o")
        await pilot.press("escape", "question_mark")
        help_screen = await opened(pilot, HelpScreen, "the help screen")
        assert "| `o` | Compose | `app.compose` |" in help_screen.markdown


async def test_palette_names_the_remapped_key(tmp_path: Path) -> None:
    remap_compose(tmp_path)
    app = quiet_app(tmp_path)
    async with running(app):
        assert palette_commands(app)["Compose"] == "key o · binding id app.compose"


# ---- follow, scenarios, shutdown -----------------------------------------------------------


async def test_follow_shows_new_rows_and_leaves_a_moved_cursor_alone(tmp_path: Path) -> None:
    app = live_app(config_of(scripted("alpha")), tmp_path)
    async with running(app) as pilot:
        await started(pilot)
        exchanges = exchange_list(app)

        async def traffic(count: int) -> Exchange:
            """`count` calls, one after the other; the last of them once the list shows it."""
            sent = [
                await app.engine.send_to_hook("alpha", "hook.before_tool", call(f"n{n}"))
                for n in range(count)
            ]
            await until(pilot, lambda: exchanges.rows[-1] is sent[-1], what="the newest row last")
            return sent[-1]

        newest = await traffic(40)  # more rows than the list has lines
        await highlighted(pilot, newest)
        assert exchanges.scroll_offset.y == exchanges.max_scroll_y > 0

        await pilot.press("up", "up")
        kept = exchanges.highlighted_record
        assert kept is exchanges.rows[-3]
        newest = await traffic(5)
        assert exchanges.highlighted_record is kept and exchanges.rows[-1] is newest

        await pilot.press("f")  # follow off, then on again: back to the tail
        assert not exchanges.follow
        await pilot.press("f")
        await highlighted(pilot, newest)


SCENARIO = """\
name: Listing
turns:
  - user: "List the files."
    rounds:
      - content: "Listing."
        tool_calls:
          - tool: exec
            arguments: {command: ls}
            result: "a b"
      - content: "Two files."
"""


async def test_pick_a_scenario_next_to_the_config_and_play_it(tmp_path: Path) -> None:
    hooks = {"alpha": {"command": [sys.executable, str(SCRIPTED)], "intercept": ["before_tool"]}}
    config = tmp_path / "hooks.yaml"
    config.write_text(json.dumps({"hooks": hooks}))  # JSON is YAML
    (tmp_path / "listing_scenario.yaml").write_text(SCENARIO)
    session = build_session(config, None)
    session.watch = False
    app = make_app(session, tmp_path / "settings")
    notes: list[str] = []

    def note(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(f"{message.notification.title}: {message.notification.message}")

    async with running(app, message_hook=note) as pilot:
        await started(pilot)
        await pilot.press("s")
        picker = await opened(pilot, PickScreen, "the scenario picker")
        options = picker.query_one(OptionList)
        assert [str(options.get_option_at_index(0).prompt)] == ["listing_scenario.yaml"]
        await pilot.press("enter")
        await until(pilot, lambda: "Scenario finished: Listing: completed" in notes)
        played = from_source(app, "scenario")
        assert [e.method for e in played] == ["hook.before_tool", "hook.after_tool"]
        await until(pilot, lambda: listed(app)[-2:] == played, what="the scenario's rows")


async def test_the_refresh_tick_outlives_the_main_widgets(tmp_path: Path) -> None:
    """On exit Textual empties the main screen before it stops the app's own timers."""
    app = quiet_app(tmp_path)
    async with running(app) as pilot:
        await app.query_one(HooksPanel).remove()
        await pilot.pause(2 * REFRESH_S)  # long enough for one tick, whatever its phase


async def test_a_highlight_that_arrives_after_the_main_widgets_are_gone_is_ignored(
    tmp_path: Path,
) -> None:
    """A list following its tail just before exit posts Highlighted; the app handles it after
    Textual has emptied the main screen."""
    app = quiet_app(tmp_path)
    async with running(app) as pilot:
        stale = ExchangeList.Highlighted(None, exchange_list(app))
        await app.query_one(EventStream).remove()
        await app.query_one(DetailPane).remove()
        handled = asyncio.Event()
        app.post_message(stale)
        app.call_later(handled.set)  # the app's queue is in order: this runs after the message
        # A handler that raised ends the app (return code 1), and the callback never runs.
        await until(pilot, lambda: handled.is_set() or app.return_code is not None)
        assert app.return_code is None


async def test_the_composer_editor_follows_a_light_theme(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text("theme: inspector-light\n")
    app = quiet_app(tmp_path)
    async with running(app) as pilot:
        screen = await open_composer(pilot)
        first = next(iter(editor(screen).render_line(0)))
        background = first.style.bgcolor if first.style else None
        assert background is not None
        red, green, blue = background.get_truecolor()
        assert red + green + blue > 3 * 128, f"a dark editor ({background.name}) on a light theme"


async def test_only_a_theme_the_person_picks_is_saved(tmp_path: Path) -> None:
    settings = tmp_path / "settings"
    app = live_app(config_of(), settings)
    async with running(app) as pilot:
        await started(pilot)
        assert not (settings / "settings.yaml").exists()  # starting up chose nothing
        app.theme = "inspector-light"
        await pilot.pause()
    assert "theme: inspector-light" in (settings / "settings.yaml").read_text()
