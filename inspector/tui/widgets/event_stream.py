"""The event stream: what happened around the hook calls, in journal order. Runtime events the
host emitted (and which observers they reached), each stage's decision (who decided, why, and
the chain behind it), every stderr line of a hook, and every start, exit and restart."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from inspector.journal.records import Decision, Event, Lifecycle, Record, Stderr
from inspector.tui.widgets.record_list import Cell, Column, RecordList, clock, findings_cell
from inspector.tui.widgets.styles import DIM, STATUS_STYLE, VERDICT_STYLE, severity_style

TROUBLED_STATES = frozenset({"failed", "exited", "restarting"})


class EventStream(RecordList):
    """Event, Decision, Stderr and Lifecycle records of a journal as a virtualised, filterable,
    following list."""

    COLUMNS: ClassVar[tuple[Column, ...]] = (
        Column("time", 12),
        Column("sev", 5),
        Column("kind", 12, 26),
        Column("source", 8, 12, priority=1),
        Column("detail", 8, 24, priority=2, flex=True),
        Column("!", 3),
    )
    RECORD_TYPES: ClassVar[tuple[type[Record], ...]] = (Event, Decision, Stderr, Lifecycle)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "toggle_follow", "Follow", id="events.follow"),
    ]

    class Highlighted(RecordList.Highlighted):
        """The cursor moved to another record."""

    class Selected(RecordList.Selected):
        """Enter on a record."""

    def cells(self, record: Record) -> list[Cell]:
        if isinstance(record, Decision):
            return decision_cells(record)
        if isinstance(record, Stderr):
            return [
                Cell(clock(record.ts), DIM),
                Cell("", DIM),
                Cell("stderr", DIM),
                Cell(record.hook, DIM),
                Cell(record.line, DIM),
                Cell(""),
            ]
        if isinstance(record, Lifecycle):
            return lifecycle_cells(record)
        assert isinstance(record, Event)
        style = severity_style(record.severity)
        delivered = Cell("→ " + ", ".join(record.delivered)) if record.delivered else Cell("—", DIM)
        return [
            Cell(clock(record.ts)),
            Cell(record.severity, style),
            Cell(record.kind, style),
            Cell(record.source),
            delivered,
            findings_cell(record.findings),
        ]


def decision_cells(record: Decision) -> list[Cell]:
    """`before_tool respond` · by weather, why, and what each hook of the chain answered."""
    style = VERDICT_STYLE.get(record.verdict)
    return [
        Cell(clock(record.ts)),
        Cell(""),
        Cell(f"{record.stage} {record.verdict}", style),
        Cell(record.source),
        Cell(decision_text(record)),
        Cell(""),
    ]


def decision_text(record: Decision) -> str:
    """Who decided ("nobody objected" when the chain ran through), why, and the chain."""
    who = f"by {record.by}" if record.by else "nobody objected"
    why = f": {record.reason}" if record.reason else ""
    chain = " → ".join(
        f"{link.get('hook', '?')} {link.get('action', '?')}" for link in record.chain
    )
    return f"{who}{why}" + (f"  [{chain}]" if chain else "")


def lifecycle_cells(record: Lifecycle) -> list[Cell]:
    style = STATUS_STYLE.get("exited") if record.state in TROUBLED_STATES else DIM
    detail = record.detail
    if record.pid is not None:
        detail = f"pid {record.pid}" + (f" · {detail}" if detail else "")
    if record.picoclaw:
        detail = f"{detail} (PicoClaw: {record.picoclaw})"
    return [
        Cell(clock(record.ts), style),
        Cell(""),
        Cell(record.state, style),
        Cell(record.hook, style),
        Cell(detail, style),
        Cell(""),
    ]
