"""A human answer to `hook.approve_tool`, in OpenClaw's style: allow once, allow always, or deny,
before a visible deadline; for a live agent with a permission dialog of its own (Claude Code),
also: leave it to that dialog."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from rich.highlighter import JSONHighlighter
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import var
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, ProgressBar, Static

from inspector.hooks.approvals import Scope, Verdict
from inspector.safe_text import json_dumps, one_line, shown

Severity = Literal["low", "medium", "high", "critical"]
Mode = Literal["choose", "scope", "reason"]

# Arguments can be huge (a file being written); only the head is shown.
MAX_ARGUMENT_LINES = 400
MAX_ARGUMENT_CHARS = 40_000
URGENT_S = 10
WHERE_LIMIT = 28  # characters of the agent, session and turn each, so all three fit one line
TICK_S = 0.25
_PANEL_FOR_MODE = {"choose": "choices", "scope": "scope", "reason": "reason"}
_ALLOWING = {"allow", "allowed", "approved", "allow_once", "allow_always"}


@dataclass(slots=True)
class PromptView:
    tool: str
    arguments: dict[str, Any]
    agent_id: str
    session_key: str
    turn_id: str
    deadline: float  # a time.monotonic() value
    timeout_s: float
    on_timeout: Literal["deny", "allow"] = "deny"
    severity: Severity = "medium"
    earlier: list[dict[str, Any]] = field(default_factory=list)  # {"hook", "verdict", "reason"}
    queue_position: int = 1
    queue_length: int = 1
    agent_asks: str = ""  # the agent whose own dialog can ask instead; empty: none can


def arguments_text(arguments: dict[str, Any]) -> Text:
    """The arguments pretty-printed and highlighted, never read as markup, capped."""
    pretty = json_dumps(arguments, indent=2)
    head = "\n".join(pretty[:MAX_ARGUMENT_CHARS].splitlines()[:MAX_ARGUMENT_LINES])
    text = Text(head)
    JSONHighlighter().highlight(text)
    if len(head) < len(pretty):
        text.append(f"\n… {len(pretty) - len(head):,} more characters not shown", style="dim")
    return text


def where_text(view: PromptView) -> Text:
    """The agent, session and turn that ask, those the agent named (Claude Code names no agent
    or turn); "" when it named none."""
    named = [
        (label, value)
        for label, value in (
            ("agent", view.agent_id),
            ("session", view.session_key),
            ("turn", view.turn_id),
        )
        if value
    ]
    return Text(" · ").join(
        Text.assemble(f"{label} ", shown(value, limit=WHERE_LIMIT)) for label, value in named
    )


def rule_description(tool: str, arguments: dict[str, Any], scope: Scope) -> str:
    if scope == "tool":
        return f"every {one_line(tool)} call, whatever its arguments"
    compact = json_dumps(arguments, separators=(",", ":"))
    return f"{one_line(tool)} with exactly these arguments: {one_line(compact, 160)}"


class ApprovalScreen(ModalScreen[Verdict | None]):
    DEFAULT_CSS = """
    ApprovalScreen {
        align: center middle;
        /* opaque: the lines of the screen under it read as stray characters beside its border */
        background: $background;
    }
    ApprovalScreen #dialog {
        width: 90%;
        max-width: 120;
        height: auto;
        max-height: 90%;
        border: thick $warning;
        background: $surface;
        padding: 0 1;
    }
    ApprovalScreen #heading {
        height: 1;
    }
    ApprovalScreen #title {
        width: 1fr;
        text-style: bold;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    ApprovalScreen #severity {
        padding: 0 1;
        margin-right: 1;
        color: $text;
        text-style: bold;
    }
    ApprovalScreen #severity.-low { background: $success-muted; }
    ApprovalScreen #severity.-medium { background: $warning-muted; }
    ApprovalScreen #severity.-high { background: $error-muted; }
    ApprovalScreen #severity.-critical { background: $error; }
    ApprovalScreen #arguments {
        height: auto;
        max-height: 16;
        border: round $panel-lighten-2;
    }
    ApprovalScreen #earlier {
        margin-bottom: 1;
    }
    ApprovalScreen #countdown-row {
        height: 1;
    }
    ApprovalScreen #countdown {
        width: 1fr;
    }
    ApprovalScreen #countdown.-urgent {
        color: $text-warning;
        text-style: bold;
    }
    ApprovalScreen #choices, ApprovalScreen #scope, ApprovalScreen #reason {
        height: auto;
        margin-top: 1;
    }
    ApprovalScreen #choices Button {
        margin-right: 1;
    }
    ApprovalScreen #scope-rule {
        color: $text-accent;
        margin-top: 1;
    }
    """

    AUTO_FOCUS = "#arguments"  # never a button: a stray Enter must not answer the prompt
    BINDINGS = [
        Binding("a,y", "allow_once", "Allow once", id="approval.allow_once"),
        Binding("A", "allow_always", "Allow always…", id="approval.allow_always"),
        Binding("d,n", "deny", "Deny…", id="approval.deny"),
        Binding("u", "ask_agent", "Let the agent ask", id="approval.ask_agent"),
        Binding("e", "scope('exact')", "Exact arguments", id="approval.scope_exact"),
        Binding("t", "scope('tool')", "Any arguments", id="approval.scope_tool"),
        Binding("enter", "confirm", "Confirm", id="approval.confirm"),
        # Priority so Escape works while the reason Input has focus.
        Binding("escape", "back", "Back", priority=True, id="approval.back"),
        Binding("escape", "close", "Close, decide later", priority=True, id="approval.close"),
    ]
    _MODES_FOR_ACTION: dict[str, tuple[Mode, ...]] = {
        "allow_once": ("choose",),
        "allow_always": ("choose",),
        "deny": ("choose",),
        "ask_agent": ("choose",),
        "close": ("choose",),
        "scope": ("scope",),
        "confirm": ("scope", "reason"),
        "back": ("scope", "reason"),
    }

    mode: var[Mode] = var("choose", init=True)
    scope: var[Scope] = var("exact", init=True)

    def __init__(self, view: PromptView) -> None:
        super().__init__()
        self._view = view
        self._finished = False

    def compose(self) -> ComposeResult:
        view = self._view
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "Approval required"
            with Horizontal(id="heading"):
                yield Label(Text.assemble("Tool ", shown(view.tool, "bold")), id="title")
                yield Label(Text(view.severity.upper()), id="severity", classes=f"-{view.severity}")
                yield Label(f"{view.queue_position} of {view.queue_length} pending", id="queue")
            yield Label(where_text(view), id="where")
            with VerticalScroll(id="arguments"):
                yield Static(arguments_text(view.arguments), id="arguments-text")
            yield Static(self._earlier_text(), id="earlier")
            with Horizontal(id="countdown-row"):
                yield Label(id="countdown")
                yield ProgressBar(
                    total=view.timeout_s, show_percentage=False, show_eta=False, id="time-bar"
                )
            with Horizontal(id="choices"):
                yield Button("Allow once (a)", variant="success", id="allow_once")
                yield Button("Allow always… (A)", id="allow_always")
                yield Button("Deny… (d)", variant="error", id="deny")
                if view.agent_asks:
                    yield Button(f"Let {view.agent_asks} ask (u)", id="ask_agent")
            with Vertical(id="scope"):
                yield Label("Allow always: what should the rule match?")
                yield Static(id="scope-options")
                yield Static(id="scope-rule")
            with Vertical(id="reason"):
                yield Label("Reason for denying (optional), then Enter:")
                yield Input(placeholder="reason shown to the agent", id="reason-input")
        yield Footer()

    def _earlier_text(self) -> Text:
        if not self._view.earlier:
            return Text("No earlier approvers.", style="dim")
        text = Text("Earlier approvers:\n", style="bold")
        for answer in self._view.earlier:
            verdict = str(answer.get("verdict", ""))
            text.append(f"  {one_line(str(answer.get('hook', '')), 40)}  ")
            text.append(one_line(verdict, 20), style="green" if verdict in _ALLOWING else "red")
            if reason := str(answer.get("reason") or ""):
                text.append(f" — {one_line(reason)}")
            text.append("\n")
        text.rstrip()
        return text

    def on_mount(self) -> None:
        self._timer = self.set_interval(TICK_S, self._tick)
        self._tick()

    def _tick(self) -> None:
        left = self._view.deadline - time.monotonic()
        if left <= 0:
            self._finish(None)  # the core applies on_timeout
            return
        seconds = math.ceil(left)
        countdown = self.query_one("#countdown", Label)
        countdown.update(f"{seconds} s left — then {self._view.on_timeout}")
        countdown.set_class(seconds < URGENT_S, "-urgent")
        self.query_one("#time-bar", ProgressBar).update(progress=left)

    def _finish(self, verdict: Verdict | None) -> None:
        # A key press and the deadline can land in the same frame: answer once.
        if self._finished:
            return
        self._finished = True
        self._timer.stop()
        self.dismiss(verdict)

    def watch_mode(self, mode: Mode) -> None:
        for panel in _PANEL_FOR_MODE.values():
            self.query_one(f"#{panel}").display = panel == _PANEL_FOR_MODE[mode]
        if mode == "reason":
            self.query_one("#reason-input", Input).focus()
        else:
            self.query_one("#arguments").focus()
        self.refresh_bindings()

    def watch_scope(self, scope: Scope) -> None:
        options = Text()
        for key, name, label in (("e", "exact", "exact arguments"), ("t", "tool", "any arguments")):
            marker = "▸ " if name == scope else "  "
            options.append(f"{marker}[{key}] {label}\n", style="bold" if name == scope else "")
        options.rstrip()
        self.query_one("#scope-options", Static).update(options)
        rule = rule_description(self._view.tool, self._view.arguments, scope)
        self.query_one("#scope-rule", Static).update(Text(f"The rule will allow {rule}."))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "ask_agent" and not self._view.agent_asks:
            return False
        modes = self._MODES_FOR_ACTION.get(action)
        return modes is None or self.mode in modes

    @on(Button.Pressed)
    async def _button(self, event: Button.Pressed) -> None:
        await self.run_action(str(event.button.id))

    @on(Input.Submitted, "#reason-input")
    def _reason_submitted(self) -> None:
        self.action_confirm()

    def action_allow_once(self) -> None:
        self._finish(Verdict("allow_once"))

    def action_allow_always(self) -> None:
        self.mode = "scope"

    def action_ask_agent(self) -> None:
        if self._view.agent_asks:
            self._finish(Verdict("ask"))

    def action_deny(self) -> None:
        self.mode = "reason"

    def action_scope(self, scope: Scope) -> None:
        self.scope = scope

    def action_confirm(self) -> None:
        if self.mode == "scope":
            self._finish(Verdict("allow_always", self.scope))
        elif self.mode == "reason":
            reason = self.query_one("#reason-input", Input).value.strip()
            self._finish(Verdict("deny", reason=reason))

    def action_back(self) -> None:
        self.mode = "choose"

    def action_close(self) -> None:
        self._finish(None)  # undecided: the prompt stays pending in the core
