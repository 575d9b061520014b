"""Compose a request, or edit one from a past exchange, and send it to one hook or the pipeline."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, Footer, Label, Select, TextArea

from inspector.hosts.runtime import ComposerOffer
from inspector.safe_text import json_dumps, one_line, shown
from inspector.tui.widgets.json_view import leading

COMPOSE_TITLE = "Compose request"

# Below this size every keystroke is validated at once; above it, after a short pause in typing.
_DEBOUNCE_FROM_CHARS = 50_000
_DEBOUNCE_S = 0.2


@dataclass(slots=True)
class ComposeRequest:
    target: str | None  # a hook name; None sends through the whole pipeline
    method: str
    params: dict[str, Any]
    original: dict[str, Any] | None = None  # the params it was edited from, if any


def _pretty(params: dict[str, Any]) -> str:
    """The params for the editor, in the detail pane's order (the tool and its arguments first,
    meta and context last): unsafe characters as JSON escapes, so the text still parses to the
    same params."""
    return json_dumps(leading(params), indent=2)


_JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number"}


def parse_params(text: str) -> dict[str, Any] | str:
    """The JSON object in `text` (a request's params, a hook's input), or a message saying why
    there is none."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
    except RecursionError:
        return "nested too deeply to read"
    if not isinstance(value, dict):
        kind = "null" if value is None else _JSON_KINDS.get(type(value), "true or false")
        return f"must be a JSON object, not {kind}"
    return value


class ComposerScreen(ModalScreen[ComposeRequest | None]):
    DEFAULT_CSS = """
    ComposerScreen {
        align: center middle;
    }
    ComposerScreen #dialog {
        width: 90%;
        height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    ComposerScreen #pickers {
        height: auto;
    }
    ComposerScreen #pickers Select {
        width: 1fr;
    }
    ComposerScreen #editor {
        height: 1fr;
    }
    ComposerScreen #editor.-invalid {
        border: tall $error;
    }
    ComposerScreen #status {
        width: 1fr;
        padding: 0 1;
    }
    ComposerScreen #status.-error {
        color: $text-error;
    }
    ComposerScreen #status.-ok {
        color: $text-success;
    }
    ComposerScreen #buttons {
        height: auto;
        align-horizontal: right;
    }
    ComposerScreen #buttons Button {
        margin-left: 1;
    }
    """

    BINDINGS = [
        Binding("ctrl+s,ctrl+enter", "send", "Send", key_display="^s", id="composer.send"),
        Binding("ctrl+t", "template", "Template", key_display="^t", id="composer.template"),
        Binding("ctrl+r", "revert", "Revert", key_display="^r", id="composer.revert"),
        # Tab indents in the editor, as in any code editor; this key leaves it for the buttons.
        Binding("ctrl+j", "leave_editor", "Buttons", key_display="^j", id="composer.buttons"),
        # The code editor takes Escape to leave the editor, so Cancel needs priority.
        Binding("escape", "cancel", "Cancel", priority=True, id="composer.cancel"),
    ]

    def __init__(
        self,
        offer: ComposerOffer,
        initial: ComposeRequest | None = None,
        title: str = COMPOSE_TITLE,
    ) -> None:
        """`offer`: what the session's host lets a person compose (its runtime says)."""
        super().__init__()
        self._title = title
        self._offer = offer
        self._hooks = offer.hooks
        self._pipeline_methods = frozenset(offer.chain_methods)
        self._methods = list(offer.methods)
        if initial is not None and initial.method not in self._methods:
            self._methods.insert(0, initial.method)
        self._initial = initial
        self._template = offer.template
        self._template_text: str | None = None  # the last template put in the editor
        self._validate_timer: Timer | None = None
        self._blocked = False
        self._opening_method = initial.method if initial else self._methods[0]
        if initial is None:
            self._opening_text = self._template_for(self._opening_method) or "{}"
            self._template_text = self._opening_text
        else:
            self._opening_text = _pretty(initial.params)

    def compose(self) -> ComposeResult:
        targets: list[tuple[Text, str | None]] = [(shown(hook), hook) for hook in self._hooks]
        targets.append((Text("whole pipeline"), None))
        wanted = self._initial.target if self._initial else next(iter(self._hooks), None)
        target = wanted if wanted in self._hooks else None  # a hook gone since: the pipeline
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self._title
            with Horizontal(id="pickers"):
                yield Select(targets, value=target, allow_blank=False, id="target")
                yield Select(
                    [(shown(method), method) for method in self._methods],
                    value=self._opening_method,
                    allow_blank=False,
                    id="method",
                )
            yield TextArea.code_editor(  # theme "css" follows the app's theme
                self._opening_text, language="json", id="editor", theme="css"
            )
            yield Label(id="status")
            with Horizontal(id="buttons"):
                yield Button("Template", id="template")
                yield Button("Revert", id="revert")
                yield Button("Cancel", id="cancel")
                yield Button("Send", variant="primary", id="send")
        yield Footer()

    def on_mount(self) -> None:
        self._editor.focus()
        self._validate()

    @property
    def _editor(self) -> TextArea:
        return self.query_one("#editor", TextArea)

    def _target(self) -> str | None:
        value = self.query_one("#target", Select).value
        return value if isinstance(value, str) else None

    def _method(self) -> str:
        return str(self.query_one("#method", Select).value)

    def _template_for(self, method: str) -> str | None:
        try:
            return _pretty(self._template(method))
        except ValueError:
            return None

    def _check(self) -> dict[str, Any] | str:
        """The params to send, or why they cannot be sent."""
        parsed = parse_params(self._editor.text)
        method = self._method()
        if (
            isinstance(parsed, dict)
            and self._target() is None
            and method not in self._pipeline_methods
        ):
            return f"the whole pipeline does not take {one_line(method)}"
        if isinstance(parsed, dict):
            refused = self._offer.refuses(self._target(), method, parsed)
            if refused is not None:
                return refused
        return parsed

    def _validate(self) -> None:
        self._validate_timer = None
        checked = self._check()
        self._blocked = isinstance(checked, str)
        status = self.query_one("#status", Label)
        status.update(Text(checked if isinstance(checked, str) else f"valid {self._offer.request}"))
        status.set_class(self._blocked, "-error")
        status.set_class(not self._blocked, "-ok")
        self._editor.set_class(self._blocked, "-invalid")
        self.query_one("#send", Button).disabled = self._blocked
        self.refresh_bindings()

    @on(TextArea.Changed, "#editor")
    def _edited(self) -> None:
        if self._validate_timer is not None:
            self._validate_timer.stop()
        if len(self._editor.text) < _DEBOUNCE_FROM_CHARS:
            self._validate()
        else:
            self._validate_timer = self.set_timer(_DEBOUNCE_S, self._validate)

    @on(Select.Changed, "#target")
    def _target_changed(self) -> None:
        self._validate()

    @on(Select.Changed, "#method")
    def _method_changed(self) -> None:
        if self._editor.text == self._template_text:
            self.action_template()
        self._validate()

    @on(Button.Pressed)
    async def _button(self, event: Button.Pressed) -> None:
        await self.run_action(str(event.button.id))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # None shows Send dimmed in the footer while the params cannot be sent.
        return None if action == "send" and self._blocked else True

    def action_send(self) -> None:
        checked = self._check()  # not the debounced state: the text may have changed since
        if isinstance(checked, str):
            self._validate()
            return
        original = self._initial.params if self._initial else None
        self.dismiss(ComposeRequest(self._target(), self._method(), checked, original))

    def action_template(self) -> None:
        text = self._template_for(self._method())
        if text is None:
            self.notify(
                f"no template for {one_line(self._method())}", severity="warning", markup=False
            )
            return
        self._template_text = text
        self._editor.load_text(text)

    def action_leave_editor(self) -> None:
        """To Send when the params can be sent, else to the first button."""
        send = self.query_one("#send", Button)
        self.set_focus(self.query_one("#template", Button) if send.disabled else send)

    def action_revert(self) -> None:
        self._editor.load_text(self._opening_text)

    def action_cancel(self) -> None:
        for select in self.query(Select):
            if select.expanded:  # Escape first closes an open drop-down
                select.expanded = False
                return
        self.dismiss(None)
