"""The status line: the state of the session that no toast should be the only trace of."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from inspector.safe_text import one_line
from inspector.tui.widgets.styles import DIM, STATUS_STYLE

WARN = Style(color="yellow", bold=True)
SEPARATOR = "  ·  "


@dataclass(frozen=True)
class SessionState:
    source: str
    """The config path, "bundled demo", or the saved journal's path."""
    read_only: bool = False
    socket: str | None = None
    """Where relays connect; None when not listening."""
    watching: str = "on"
    """on, paused, or off (started with watching off)."""
    intercept: str | None = None
    held: int = 0
    approvals: int = 0
    reading: str = ""
    """A saved journal still being read, or read only in part (empty: read whole)."""


def status_text(state: SessionState) -> Text:
    parts: list[Text] = []
    if state.read_only:
        parts.append(Text.assemble(("READ-ONLY ", WARN), one_line(state.source)))
        if state.reading:
            parts.append(Text(one_line(state.reading), WARN))
        return Text(SEPARATOR).join(parts)
    parts.append(Text.assemble(("config ", DIM), one_line(state.source)))
    if state.socket is not None:
        parts.append(Text.assemble(("relays ", DIM), one_line(state.socket)))
    watching = Text.assemble(
        ("watching ", DIM), (state.watching, "" if state.watching == "on" else WARN)
    )
    parts.append(watching)
    if state.intercept:
        held_style = STATUS_STYLE["held"]
        parts.append(Text.assemble(("intercept ", DIM), (one_line(state.intercept), held_style)))
    else:
        parts.append(Text("intercept off", DIM))
    parts.append(_count(state.held, "held", STATUS_STYLE["held"]))
    waiting = "approval pending" if state.approvals == 1 else "approvals pending"
    parts.append(_count(state.approvals, waiting, WARN))
    return Text(SEPARATOR).join(parts)


def _count(count: int, what: str, style: Style) -> Text:
    return Text(f"{count} {what}", style if count else DIM)


class StatusLine(Static):
    """One line at the top; the app hands it a new SessionState whenever one of its parts
    changed."""

    DEFAULT_CSS = """
    StatusLine { height: 1; padding: 0 1; background: $panel; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(markup=False, id=id)
        self._state: SessionState | None = None

    @property
    def state(self) -> SessionState | None:
        return self._state

    def show(self, state: SessionState) -> None:
        if state != self._state:
            self._state = state
            self.update(status_text(state))
