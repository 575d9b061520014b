"""A small chooser: pick one file from a list (scenarios)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from inspector.safe_text import shown


class PickScreen(ModalScreen[Path | None]):
    DEFAULT_CSS = """
    PickScreen { align: center middle; }
    PickScreen > Vertical { width: 70; height: auto; max-height: 20; border: thick $primary;
                            background: $surface; padding: 0 1; }
    PickScreen OptionList { height: auto; max-height: 14; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True, id="pick.cancel")]

    def __init__(self, title: str, choices: list[Path]) -> None:
        super().__init__()
        self._title = title
        self._choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(shown(self._title))
            yield OptionList(*(Option(shown(path.name), id=str(path)) for path in self._choices))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(Path(str(event.option.id)))
