"""A virtualised list over journal records: the line-API base of the exchange list and the
event stream. It keeps only an index (references into the journal) and renders visible rows."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from inspector.journal.journal import Journal
from inspector.journal.records import Finding, Record
from inspector.safe_text import one_line
from inspector.tui.widgets.styles import severity_style, worst_severity

Predicate = Callable[[Record], bool]

REFRESH_S = 1 / 20  # ingest only buffers; the view folds the buffer in at most 20 times a second
CELL_LIMIT = 300  # characters of a cell looked at before fitting it to its column


@dataclass(frozen=True, slots=True)
class Column:
    title: str
    width: int  # the least it gets
    ideal: int = 0  # grows up to this when there is room (0: fixed width)
    # Lower is more important: columns grow towards their ideal lowest first and, when even the
    # least widths do not fit, are hidden highest first. Priority 0 is never hidden.
    priority: int = 0
    right: bool = False
    flex: bool = False  # takes whatever room is left after every column reached its ideal


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    style: Style | None = None
    span: int = 1  # columns this cell covers


@lru_cache(maxsize=32)
def column_widths(columns: tuple[Column, ...], width: int) -> tuple[int, ...]:
    """Widths for `columns` in `width` cells with one space between them; 0 for a hidden column.
    When even the columns that are never hidden do not fit, the row is cropped on the right."""
    widths = [column.width for column in columns]
    for i in sorted(range(len(columns)), key=lambda i: -columns[i].priority):
        if _used(widths) <= width or columns[i].priority == 0:
            break
        widths[i] = 0
    spare = width - _used(widths)
    for i in sorted(range(len(columns)), key=lambda i: columns[i].priority):
        grow = max(0, min(spare, columns[i].ideal - columns[i].width)) if widths[i] else 0
        widths[i] += grow
        spare -= grow
    for i, column in enumerate(columns):
        if column.flex and widths[i] and spare > 0:
            widths[i] += spare
            break
    return tuple(widths)


def _used(widths: list[int]) -> int:
    shown = [width for width in widths if width]
    return sum(shown) + len(shown) - 1


def fit(text: str, width: int, right: bool = False) -> str:
    """`text` cut (with an ellipsis) or padded to exactly `width` cells."""
    if width <= 0:
        return ""
    size = cell_len(text)
    if size > width:
        return set_cell_size(text, width - 1) + "…"
    return " " * (width - size) + text if right else text + " " * (width - size)


def clock(ts: float) -> str:
    """HH:MM:SS.mmm in local time."""
    return datetime.fromtimestamp(ts).strftime("%H:%M:%S.%f")[:12]


def findings_cell(findings: list[Finding]) -> Cell:
    """`!N` coloured by the worst severity, or nothing."""
    if not findings:
        return Cell("")
    return Cell(f"!{len(findings)}", severity_style(worst_severity(findings)))


def _seq(record: Record) -> int:
    return record.seq


class RecordList(ScrollView, can_focus=True):
    """Rows of one or more record types from a journal, with a cursor, a filter and follow.

    A journal subscriber only appends to a buffer and wakes a one-shot timer, which folds the
    buffer into the index and refreshes, so ingest never waits for rendering and an idle list
    sleeps. The first line is a fixed header."""

    COLUMNS: ClassVar[tuple[Column, ...]] = ()
    RECORD_TYPES: ClassVar[tuple[type[Record], ...]] = ()

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False, id="records.cursor_up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="records.cursor_down"),
        Binding("pageup", "page_up", "Page up", show=False, id="records.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="records.page_down"),
        Binding("home,g", "first", "First", show=False, id="records.first"),
        Binding("end,G", "last", "Last", show=False, id="records.last"),
        Binding("enter", "select", "Open", show=False, id="records.select"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "record-list--header",
        "record-list--cursor",
        "record-list--match",
    }

    DEFAULT_CSS = """
    RecordList {
        width: 1fr;
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        background: $surface;
        & > .record-list--header {
            background: $panel;
            color: $foreground;
            text-style: bold;
        }
        & > .record-list--match {
            background: $warning 25%;
        }
        & > .record-list--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
        }
        &:focus > .record-list--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
        }
    }
    """

    follow: var[bool] = var(True, init=False)
    """Show new rows as they arrive; the cursor moves with them only while it is on the last row."""

    class Highlighted(Message):
        """The cursor moved to another record (None when the list became empty)."""

        def __init__(self, record: Record | None, record_list: RecordList) -> None:
            super().__init__()
            self.record = record
            self.record_list = record_list

        @property
        def control(self) -> RecordList:
            return self.record_list

    class Selected(Message):
        """Enter (or a double click) on a record."""

        def __init__(self, record: Record, record_list: RecordList) -> None:
            super().__init__()
            self.record = record
            self.record_list = record_list

        @property
        def control(self) -> RecordList:
            return self.record_list

    def __init__(
        self,
        journal: Journal,
        *,
        follow: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.journal = journal
        self.set_reactive(RecordList.follow, follow)
        self._index: list[Record] = []
        self._pending: list[tuple[Record, bool]] = []
        self._predicate: Predicate | None = None
        self._cleared_to = 0  # rows up to this seq are cleared from view (the journal keeps them)
        self._highlight: Predicate | None = None
        self._cursor = -1
        self._announced: Record | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._wake_timer: Timer | None = None

    # ---- what subclasses provide --------------------------------------------------------------

    def cells(self, record: Record) -> list[Cell]:
        """The cells of one row, left to right."""
        raise NotImplementedError

    def is_live(self, record: Record) -> bool:
        """Whether the row changes with the clock (so visible ones are repainted every tick)."""
        return False

    # ---- public API ---------------------------------------------------------------------------

    @property
    def rows(self) -> Sequence[Record]:
        """The records shown, in journal order (the filtered index)."""
        return self._index

    @property
    def cursor_row(self) -> int:
        """Index of the cursor in `rows`, -1 when there are no rows."""
        return self._cursor

    @property
    def highlighted_record(self) -> Record | None:
        return self._index[self._cursor] if self._cursor >= 0 else None

    def set_filter(self, predicate: Predicate | None) -> None:
        """Show only records for which `predicate` holds (all of them for None). The highlighted
        record stays highlighted if it still matches, otherwise the next one that does."""
        self._predicate = predicate
        self._rebuild()

    def set_highlight(self, predicate: Predicate | None) -> None:
        """Mark the rows for which `predicate` holds, hiding none (None: mark nothing)."""
        self._highlight = predicate
        self.refresh()

    def clear(self) -> None:
        """Start the view afresh: hide every row there is now; new ones show as they come."""
        records = self.journal.records
        self._cleared_to = records[-1].seq if records else 0
        self._rebuild()

    def flush(self) -> None:
        """Fold the records that arrived since the last tick into the view now."""
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        tailing = self._cursor == len(self._index) - 1
        at_end = self.scroll_offset.y >= self.max_scroll_y
        for record, new in batch:
            matches = record.seq > self._cleared_to and (
                self._predicate is None or self._predicate(record)
            )
            if new:
                if matches:
                    self._index.append(record)
                continue
            row = self._row_of(record)
            if row is None and matches:
                self._insert(record)
            elif row is not None and not matches:
                self._remove(row)
        self._sync_size()
        if self.follow and tailing:
            self._cursor = len(self._index) - 1
            self._scroll_to_cursor()
        elif self.follow and at_end:
            self._scroll_y(self.max_scroll_y)
        if self._cursor < 0 and self._index:
            self._cursor = 0
        self.refresh()
        self._announce()

    # ---- lifecycle ----------------------------------------------------------------------------

    def on_mount(self) -> None:
        # Subscribe and build in one step of the loop, so no record falls between the two.
        self._unsubscribe = self.journal.subscribe(self._on_record)
        self._rebuild()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def on_resize(self) -> None:
        self._scroll_to_cursor()

    def _on_record(self, record: Record, new: bool) -> None:
        if isinstance(record, self.RECORD_TYPES):
            self._pending.append((record, new))
            self._wake()

    def _wake(self) -> None:
        """Tick once, soon: a burst of records is folded in by one tick."""
        if self._wake_timer is None:
            self._wake_timer = self.set_timer(REFRESH_S, self._tick, name="record-list-wake")

    def _tick(self) -> None:
        self._wake_timer = None
        self.flush()
        top = self.scroll_offset.y
        for row in range(top, min(top + self._page(), len(self._index))):
            if self.is_live(self._index[row]):
                self.refresh_line(row + 1)  # virtual line: the header is line 0

    def watch_follow(self, follow: bool) -> None:
        if follow:
            self.action_last()

    # ---- index --------------------------------------------------------------------------------

    def _rebuild(self) -> None:
        selected = self.highlighted_record
        self._pending.clear()  # the journal already holds every buffered record and update
        kinds, predicate = self.RECORD_TYPES, self._predicate
        records = self.journal.records
        if self._cleared_to:
            records = records[bisect_left(records, self._cleared_to + 1, key=_seq) :]
        if predicate is None:
            self._index = [record for record in records if isinstance(record, kinds)]
        else:
            self._index = [
                record for record in records if isinstance(record, kinds) and predicate(record)
            ]
        if selected is not None:
            row = bisect_left(self._index, selected.seq, key=_seq)
        else:
            row = len(self._index) - 1 if self.follow else 0
        self._cursor = min(row, len(self._index) - 1)
        self._sync_size()
        self._scroll_to_cursor()
        self.refresh()
        self._announce()

    def _row_of(self, record: Record) -> int | None:
        row = bisect_left(self._index, record.seq, key=_seq)
        return row if row < len(self._index) and self._index[row] is record else None

    def _insert(self, record: Record) -> None:
        row = bisect_left(self._index, record.seq, key=_seq)
        self._index.insert(row, record)
        if row <= self._cursor:
            self._cursor += 1

    def _remove(self, row: int) -> None:
        del self._index[row]
        if row < self._cursor or self._cursor == len(self._index):
            self._cursor -= 1

    def _sync_size(self) -> None:
        self.virtual_size = Size(0, len(self._index) + 1)  # + the header line

    def _announce(self) -> None:
        record = self.highlighted_record
        if record is not self._announced:
            self._announced = record
            self.post_message(self.Highlighted(record, self))

    # ---- cursor and scrolling -----------------------------------------------------------------

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _move(self, row: int) -> None:
        if not self._index:
            return
        self._cursor = max(0, min(row, len(self._index) - 1))
        self._scroll_to_cursor()
        self.refresh()
        self._announce()

    def _scroll_to_cursor(self) -> None:
        top, page = self.scroll_offset.y, self._page()
        if self._cursor < top:
            self._scroll_y(max(self._cursor, 0))
        elif self._cursor >= top + page:
            self._scroll_y(self._cursor - page + 1)

    def _scroll_y(self, y: int) -> None:
        # Forced: right after the index grows the scrollbar is not shown yet (that waits for the
        # next layout), and an unforced scroll would be refused.
        self.scroll_to(y=y, animate=False, force=True)

    def action_cursor_up(self) -> None:
        self._move(self._cursor - 1)

    def action_cursor_down(self) -> None:
        self._move(self._cursor + 1)

    def action_page_up(self) -> None:
        self._move(self._cursor - self._page())

    def action_page_down(self) -> None:
        self._move(self._cursor + self._page())

    def action_first(self) -> None:
        self._move(0)

    def action_last(self) -> None:
        self._move(len(self._index) - 1)

    def action_select(self) -> None:
        record = self.highlighted_record
        if record is not None:
            self.post_message(self.Selected(record, self))

    def action_toggle_follow(self) -> None:
        self.follow = not self.follow

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y == 0:
            return
        row = self.scroll_offset.y + offset.y - 1
        if row < len(self._index):
            self._move(row)
            if event.chain == 2:
                self.action_select()

    # ---- rendering ----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if y == 0:
            header = [Cell(column.title) for column in self.COLUMNS]
            return self._strip(header, self.get_component_rich_style("record-list--header"), width)
        row = self.scroll_offset.y + y - 1
        if row >= len(self._index):
            return Strip.blank(width, self.rich_style)
        record = self._index[row]
        if row == self._cursor:
            base = self.get_component_rich_style("record-list--cursor")
        elif self._highlight is not None and self._highlight(record):
            base = self.get_component_rich_style("record-list--match")
        else:
            base = self.rich_style
        if self.is_live(record):  # its clock runs: repaint while it is on screen
            self._wake()
        return self._strip(self.cells(record), base, width)

    def _strip(self, cells: list[Cell], base: Style, width: int) -> Strip:
        widths = column_widths(self.COLUMNS, width)
        segments: list[Segment] = []
        column = 0
        for cell in cells:
            shown = [w for w in widths[column : column + cell.span] if w]
            right = cell.span == 1 and self.COLUMNS[column].right
            column += cell.span
            if not shown:
                continue
            if segments:
                segments.append(Segment(" ", base))
            text = fit(one_line(cell.text, CELL_LIMIT), sum(shown) + len(shown) - 1, right)
            segments.append(Segment(text, base + cell.style if cell.style else base))
        return Strip(segments).adjust_cell_length(width, base)
