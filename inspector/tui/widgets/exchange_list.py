"""The exchange list: every call to every hook, every stray stdout line and every reload."""

from __future__ import annotations

import time
from operator import attrgetter
from typing import Any, ClassVar

from rich.style import Style
from textual.binding import Binding, BindingType

from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_HELD, STATUS_PENDING, Exchange, Noise, Record, Reload
from inspector.tui.widgets.record_list import Cell, Column, RecordList, clock, findings_cell
from inspector.tui.widgets.styles import DIM, RELOAD_STYLE, STATUS_STYLE, VERDICT_STYLE

LIVE_STATUSES = frozenset({STATUS_PENDING, STATUS_HELD})
MARK = "●"
MARK_STYLE = Style(color="yellow", bold=True)
EVERY_HOOK = "⇥ every hook"  # the hook cell of a call held at a stage's entry
ENTRY_STYLE = Style(italic=True)


def status_text(exchange: Exchange, now: float) -> str:
    """The status, with its age while the call is in flight or held (or, for a live agent's
    request, the time left before it stops waiting) and a mark when edited."""
    text = exchange.status
    if exchange.status in LIVE_STATUSES and exchange.deadline is not None:
        text += f" {max(0.0, exchange.deadline - now):.1f}s left"
    elif exchange.status in LIVE_STATUSES:
        text += f" {max(0.0, now - exchange.ts):.1f}s"
    if exchange.edited:
        text += " ✎"
    return text


class ExchangeList(RecordList):
    """Exchange, Noise and Reload records of a journal as a virtualised, filterable list."""

    COLUMNS: ClassVar[tuple[Column, ...]] = (
        # the journal's seq, as replay reports cite it
        Column("#", 4, 6, priority=2, right=True, key=attrgetter("seq")),
        Column("time", 12, key=attrgetter("ts")),
        # the first hidden when room is short, but grown right after the hook's: "scenario" whole
        Column("source", 6, 10, priority=4, grows=1.5, key=lambda r: getattr(r, "source", "")),
        Column("hook", 8, 14, priority=1, flex=True, key=lambda r: getattr(r, "hook", "")),
        Column("method", 8, 12, key=lambda r: getattr(r, "method", "")),
        Column("action", 6, 10, priority=2, key=lambda r: getattr(r, "action", None)),
        Column("status", 11, 15, key=lambda r: getattr(r, "status", "")),
        Column("ms", 5, 8, priority=3, right=True, key=lambda r: getattr(r, "duration_ms", None)),
        Column("!", 3, key=lambda r: len(r.findings_list)),
    )
    RECORD_TYPES: ClassVar[tuple[type[Record], ...]] = (Exchange, Noise, Reload)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "toggle_follow", "Follow", id="exchanges.follow"),
        Binding("m", "toggle_mark", "Mark/unmark row", show=False, id="exchanges.mark"),
        Binding("z", "clear", "Clear the list", show=False, id="exchanges.clear"),
    ]

    class Highlighted(RecordList.Highlighted):
        """The cursor moved to another exchange or noise record."""

    class Selected(RecordList.Selected):
        """Enter on an exchange or noise record."""

    def __init__(self, journal: Journal, **options: Any) -> None:
        super().__init__(journal, **options)
        self.marked: set[int] = set()  # seqs of the rows the person marked

    def is_live(self, record: Record) -> bool:
        return isinstance(record, Exchange) and record.status in LIVE_STATUSES

    def action_toggle_mark(self) -> None:
        record = self.highlighted_record
        if record is not None:
            self.marked ^= {record.seq}  # in place: a compiled `marked:` filter reads this set
            if self._predicate is not None:
                self.set_filter(self._predicate)  # the row may no longer match
            self.refresh()

    def action_clear(self) -> None:
        self.clear()

    def cells(self, record: Record) -> list[Cell]:
        row = self._cells(record)
        if record.seq in self.marked:
            row[0] = Cell(f"{MARK}{record.seq}", MARK_STYLE)
        return row

    def _cells(self, record: Record) -> list[Cell]:
        if isinstance(record, Reload):
            return reload_cells(record)
        if isinstance(record, Noise):
            codes = " ".join(finding.code for finding in record.findings) or "noise"
            return [
                Cell(str(record.seq), DIM),
                Cell(clock(record.ts), DIM),
                Cell("stdout", DIM),
                Cell(record.hook, DIM),
                Cell(f"{codes}  {record.line}", DIM, span=4),
                findings_cell(record.findings),
            ]
        assert isinstance(record, Exchange)
        duration = "" if record.duration_ms is None else milliseconds(record.duration_ms)
        action = record.action or held_at(record)
        return [
            Cell(str(record.seq), DIM),
            Cell(clock(record.ts)),
            Cell(record.source),
            Cell(EVERY_HOOK, ENTRY_STYLE) if record.stage_entry else Cell(record.hook),
            Cell(record.method.removeprefix("hook.")),
            Cell(action, VERDICT_STYLE.get(action)),
            Cell(status_text(record, time.time()), STATUS_STYLE.get(record.status)),
            Cell(duration),
            findings_cell(record.findings),
        ]


def held_at(exchange: Exchange) -> str:
    """Where a held call waits, in the action column until a person decides: `@stage` (before
    the whole chain) or `@hook` (on its way to this hook alone)."""
    if exchange.status != STATUS_HELD:
        return ""
    return "@stage" if exchange.stage_entry else "@hook"


def milliseconds(duration_ms: float) -> str:
    """Fits the ms column: 12.3 under a second, 5.00s above (a timeout must not be cut)."""
    return f"{duration_ms:.1f}" if duration_ms < 1000 else f"{duration_ms / 1000:.2f}s"


def reload_cells(record: Reload) -> list[Cell]:
    """A reload stands out across the list: what it changed, or why it changed nothing."""
    style = STATUS_STYLE.get("error") if record.error or record.failed else RELOAD_STYLE
    summary = (
        f"config not reloaded: {record.error}"
        if record.error
        else record.changes or "nothing changed"
    )
    return [
        Cell(str(record.seq), DIM),
        Cell(clock(record.ts), style),
        Cell(record.trigger, style),
        Cell("reload", style),
        Cell(summary, style, span=3),
        Cell(milliseconds(record.duration_ms), style),
        Cell(""),
    ]
