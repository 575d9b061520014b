"""Save as: a path to write to, prefilled; an existing file is overwritten only when asked twice."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from inspector.safe_text import shown


class SaveAsScreen(ModalScreen[Path | None]):
    DEFAULT_CSS = """
    SaveAsScreen { align: center middle; }
    SaveAsScreen > Vertical { width: 90; height: auto; border: thick $primary;
                              background: $surface; padding: 0 1; }
    SaveAsScreen #problem { color: $warning; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", priority=True, id="save_as.cancel")]

    def __init__(self, title: str, default: Path) -> None:
        super().__init__()
        self._title = title
        self._default = default
        self._confirmed: Path | None = None  # the existing file Enter was pressed on once

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(shown(f"{self._title} (enter to save, esc to cancel)"))
            yield Input(str(self._default), id="path")
            yield Label("", id="problem")

    @on(Input.Changed, "#path")
    def _path_changed(self) -> None:
        self._confirmed = None
        self.query_one("#problem", Label).update("")

    @on(Input.Submitted, "#path")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.query_one("#problem", Label).update("Give a path to write to.")
            return
        path = Path(text).expanduser()
        if path.is_dir():
            self.query_one("#problem", Label).update(shown(f"{path} is a folder."))
            return
        if path.exists() and self._confirmed != path:
            self._confirmed = path
            warning = f"{path} exists: enter again to overwrite it."
            self.query_one("#problem", Label).update(shown(warning))
            return
        self.dismiss(path)
