"""F1 help: the focused panel's Markdown help and the keys active there."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

KeyHelp = tuple[str, str, str]
"""(keys, description, binding id or "") for one active binding."""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 90%;
        border: round $primary;
        border-subtitle-color: $text-muted;
        background: $surface;
        padding: 0 1;
    }
    """
    # Priority, so these close the help even over a focused widget or the app's own F1.
    BINDINGS = [
        Binding("escape,f1,question_mark", "dismiss", "Close help", id="help.close", priority=True)
    ]

    def __init__(self, title: str, text: str, bindings: Iterable[KeyHelp] = ()) -> None:
        super().__init__()
        self.help_title = title
        self.markdown = text + keys_markdown(bindings)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as body:
            body.border_title = self.help_title
            body.border_subtitle = "esc to close"
            yield Markdown(self.markdown)


def keys_markdown(bindings: Iterable[KeyHelp]) -> str:
    """A Markdown table of the bindings, one row per action with all of its keys; "" for none."""
    rows: dict[tuple[str, str], list[str]] = {}
    for key, description, binding_id in bindings:
        rows.setdefault((description, binding_id), []).append(key)
    if not rows:
        return ""
    lines = ["", "", "## Keys", "", "| Key | Action | Binding id |", "| --- | --- | --- |"]
    for (description, binding_id), keys in rows.items():
        key_cell = ", ".join(f"`{_cell(key)}`" for key in keys)
        id_cell = f"`{_cell(binding_id)}`" if binding_id else ""
        lines.append(f"| {key_cell} | {_cell(description)} | {id_cell} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
