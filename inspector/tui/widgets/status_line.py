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


MIN_SHOWN = 12  # a value shortened to fit keeps at least this many of its last characters
FIRST, LAST = "first", "last"  # when a part gives way: see _fitted


def status_text(state: SessionState, width: int | None = None) -> Text:
    """The line, fitted into `width` cells when given: the counts of held requests and pending
    approvals, the watching state and the intercept come first (see _fitted)."""
    parts: list[Part] = []
    if state.read_only:
        parts.append(Part("READ-ONLY ", state.source, WARN, gives=LAST))
        if state.reading:
            parts.append(Part("", state.reading, WARN))
        return _fitted(parts, width)
    parts.append(Part("config ", state.source, gives=FIRST))
    if state.socket is not None:
        parts.append(Part("relays ", state.socket, gives=FIRST))
    parts.append(Part("watching ", state.watching, Style() if state.watching == "on" else WARN))
    if state.intercept:
        parts.append(Part("intercept ", state.intercept, STATUS_STYLE["held"], gives=LAST))
    else:
        parts.append(Part("intercept off", "", DIM))
    parts.append(_count(state.held, "held", STATUS_STYLE["held"]))
    waiting = "approval pending" if state.approvals == 1 else "approvals pending"
    parts.append(_count(state.approvals, waiting, WARN))
    return _fitted(parts, width)


@dataclass(frozen=True)
class Part:
    """A dim label and its value; `gives`: FIRST or LAST when it may give way to fit."""

    label: str
    value: str = ""
    style: Style = DIM
    gives: str = ""

    def text(self, room: int | None = None) -> Text:
        value = one_line(self.value)
        if room is not None and len(value) > room:
            value = "…" + value[len(value) - room + 1 :]
        if not value:
            return Text(self.label, self.style)
        return Text.assemble((self.label, DIM), (value, self.style))


def _fitted(parts: list[Part], width: int | None) -> Text:
    """The parts that fit in `width`: the FIRST to give way (the config's path, the relays'
    socket) are shortened from the left, then left out; only then are the LAST shortened (the
    intercept expression, a saved session's path). The counts never give way."""
    texts: list[Text | None] = [part.text() for part in parts]
    first = [i for i, part in enumerate(parts) if part.gives == FIRST]
    last = [i for i, part in enumerate(parts) if part.gives == LAST]
    steps = [*((i, False) for i in first), *((i, True) for i in first), *((i, False) for i in last)]
    for index, leave_out in steps:
        excess = 0 if width is None else _length(texts) - width
        if excess <= 0:
            break
        if leave_out:
            texts[index] = None
        else:
            shown = len(one_line(parts[index].value))
            texts[index] = parts[index].text(max(MIN_SHOWN, shown - excess))
    return Text(SEPARATOR).join(text for text in texts if text is not None)


def _length(texts: list[Text | None]) -> int:
    kept = [len(text) for text in texts if text is not None]
    return sum(kept) + len(SEPARATOR) * (len(kept) - 1)


def _count(count: int, what: str, style: Style) -> Part:
    return Part(f"{count} {what}", style=style if count else DIM)


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
            self.refresh()

    def render(self) -> Text:
        """Drawn for the width it has, so a resize fits it again."""
        if self._state is None:
            return Text()
        return status_text(self._state, self.content_size.width)
