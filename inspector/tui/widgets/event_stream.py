"""The event stream: runtime events the host emitted, and which observers they reached."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from inspector.journal.records import Event, Record
from inspector.tui.widgets.record_list import Cell, Column, RecordList, clock, findings_cell
from inspector.tui.widgets.styles import DIM, severity_style


class EventStream(RecordList):
    """Event records of a journal as a virtualised, filterable, following list."""

    COLUMNS: ClassVar[tuple[Column, ...]] = (
        Column("time", 12),
        Column("sev", 5),
        Column("kind", 12, 26),
        Column("source", 8, 12, priority=1),
        Column("delivered to", 8, 24, priority=2, flex=True),
        Column("!", 3),
    )
    RECORD_TYPES: ClassVar[tuple[type[Record], ...]] = (Event,)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "toggle_follow", "Follow", id="events.follow"),
    ]

    class Highlighted(RecordList.Highlighted):
        """The cursor moved to another event."""

    class Selected(RecordList.Selected):
        """Enter on an event."""

    def cells(self, record: Record) -> list[Cell]:
        assert isinstance(record, Event)
        style = severity_style(record.severity)
        delivered = Cell(", ".join(record.delivered)) if record.delivered else Cell("—", DIM)
        return [
            Cell(clock(record.ts)),
            Cell(record.severity, style),
            Cell(record.kind, style),
            Cell(record.source),
            delivered,
            findings_cell(record.findings),
        ]
