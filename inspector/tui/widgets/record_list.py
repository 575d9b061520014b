"""A virtualised list over journal records: the line-API base of the exchange list and the
event stream. It keeps only an index (the records' positions in the journal, not the records,
which the journal may keep on disk) and renders visible rows."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, ClassVar

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

from inspector.filter.select import select
from inspector.journal.journal import Journal
from inspector.journal.records import Finding, Record
from inspector.journal.store import RecordStore
from inspector.safe_text import one_line
from inspector.tui.widgets.styles import severity_style, worst_severity

Predicate = Callable[[Record], bool]

REFRESH_S = 1 / 20  # ingest only buffers; the view folds the buffer in at most 20 times a second
CELL_LIMIT = 300  # characters of a cell looked at before fitting it to its column
# Rows sorted at most: a sort key is computed for every row, from its record (read back from
# disk in a long session: 3.5 s and 35 MB more per 100,000 rows of a saved session).
SORT_LIMIT = 100_000


@dataclass(frozen=True, slots=True)
class Column:
    title: str
    width: int  # the least it gets
    ideal: int = 0  # grows up to this when there is room (0: fixed width)
    # Lower is more important: columns grow towards their ideal lowest first and, when even the
    # least widths do not fit, are hidden highest first. Priority 0 is never hidden.
    priority: int = 0
    grows: float | None = None  # when it grows towards its ideal, if not by its priority
    right: bool = False
    flex: bool = False  # takes whatever room is left after every column reached its ideal
    key: Callable[[Record], Any] | None = None  # what the rows sort by (None: not sortable)


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
    for i in sorted(range(len(columns)), key=lambda i: _growth_rank(columns[i])):
        grow = max(0, min(spare, columns[i].ideal - columns[i].width)) if widths[i] else 0
        widths[i] += grow
        spare -= grow
    for i, column in enumerate(columns):
        if column.flex and widths[i] and spare > 0:
            widths[i] += spare
            break
    return tuple(widths)


def _growth_rank(column: Column) -> float:
    return column.priority if column.grows is None else column.grows


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


class _Rows(Sequence[Record]):
    """The records of a list's rows, read from the journal as they are asked for."""

    def __init__(self, records: Sequence[Record], positions: Sequence[int]) -> None:
        self._records = records
        self._positions = positions

    def __len__(self) -> int:
        return len(self._positions)

    def __getitem__(self, row: Any) -> Any:
        if isinstance(row, slice):
            return [self._records[position] for position in self._positions[row]]
        return self._records[self._positions[row]]


class _Descending:
    """A sort key turned round, so that bisect and sort keep working on a descending order."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Descending) -> bool:
        return bool(other.value < self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and self.value == other.value

    __hash__ = None  # type: ignore[assignment]


def sort_key(column: Column, record: Record, descending: bool) -> Any:
    """The row's place when sorted by `column`: its value (empty ones last), then its seq."""
    assert column.key is not None
    value = column.key(record)
    key = (1, "") if value is None or value == "" else (0, value)
    return (_Descending(key), record.seq) if descending else (key, record.seq)


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
        Binding("S", "sort_next", "Sort by next column", show=False, id="records.sort"),
        Binding("v", "sort_reverse", "Reverse the order", show=False, id="records.reverse"),
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
        scrollbar-gutter: stable;  /* the columns keep their widths when the scrollbar comes */
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
        self._index = array("q")  # the rows: positions in journal.records
        self._pending: list[tuple[Record, bool]] = []
        self._predicate: Predicate | None = None
        self._cleared_to = 0  # rows up to this seq are cleared from view (the journal keeps them)
        self._highlight: Predicate | None = None
        self._cursor = -1
        self._announced: int | None = None  # the seq of the record last announced
        self._unsubscribe: Callable[[], None] | None = None
        self._wake_timer: Timer | None = None
        self._sort: tuple[int, bool] | None = None  # (column, descending); None: journal order
        self._looked_to = 0  # positions in journal.records the rows were chosen from
        self._keys: dict[int, Any] = {}  # position -> the row's sort key when it was placed
        self._generation = 0  # the store's when the rows were chosen (store.py)

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
        """The records shown (the filtered index), in journal order unless sorted."""
        return _Rows(self.journal.records, self._index)

    @property
    def sort(self) -> tuple[str, bool] | None:
        """The column the rows are sorted by and whether descending; None: journal order."""
        if self._sort is None:
            return None
        column, descending = self._sort
        return self.COLUMNS[column].title, descending

    def sort_by(self, column: int | None, descending: bool = False) -> None:
        """Sort the rows by the column at `column` (None: back to journal order). The
        highlighted record stays highlighted."""
        if column is not None and self.COLUMNS[column].key is None:
            raise ValueError(f"column {self.COLUMNS[column].title!r} is not sortable")
        self._sort = None if column is None else (column, descending)
        self._rebuild()

    @property
    def cursor_row(self) -> int:
        """Index of the cursor in `rows`, -1 when there are no rows."""
        return self._cursor

    @property
    def highlighted_record(self) -> Record | None:
        return self._record_at(self._cursor) if self._cursor >= 0 else None

    def select(self, record: Record) -> bool:
        """Move the cursor to `record`, if it is one of the rows (records that arrived since the
        last tick folded in first); False if it is not."""
        self.flush()
        position = self.journal.records.position_of(record.seq)
        row = None if position is None else self._row_of(position, record)
        if row is None:
            return False
        self._move(row)
        return True

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
        records = self.journal.records
        for record, new in batch:
            position = len(records) - 1 if new and records[-1] is record else None
            position = records.position_of(record.seq) if position is None else position
            if position is None:
                continue
            matches = record.seq > self._cleared_to and (
                self._predicate is None or self._predicate(record)
            )
            if new and self._sort is None:
                if matches:
                    self._index.append(position)
                continue
            row = None if new else self._row_of(position, record)
            if row is not None and (not matches or self._moved(position, record)):
                self._remove(row)  # gone, or its place changed with its sorted-by value
                row = None
            if row is None and matches:
                self._insert(position, record)
        self._grew(tailing, at_end)

    def grown(self) -> None:
        """Records were added to the journal's store at once, not one by one (a saved session
        as it is read: opening.py): those that show join the rows."""
        records = self.journal.records
        tailing = self._cursor == len(self._index) - 1
        at_end = self.scroll_offset.y >= self.max_scroll_y
        first = max(self._looked_to, self._first_kept(records))
        positions = select(records, self.RECORD_TYPES, self._predicate, first)
        self._looked_to = len(records)
        if self._sort is None:
            self._index.extend(positions)
        elif len(self._index) + len(positions) > SORT_LIMIT:
            self._rebuild()  # which says the rows are too many to sort, and stops sorting
            return
        else:  # each in its sorted place, its record read once, in blocks
            for position, record in records.each(positions):
                self._insert(position, record)
        self._grew(tailing, at_end)

    def reread(self) -> None:
        """The journal's records were replaced (a saved session, now read through the index
        just made of it): the rows are chosen again, the highlighted record kept."""
        self._rebuild()

    def _grew(self, tailing: bool, at_end: bool) -> None:
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
            record = self._record_at(row)
            if record is not None and self.is_live(record):
                self.refresh_line(row + 1)  # virtual line: the header is line 0

    def watch_follow(self, follow: bool) -> None:
        if follow:
            self.action_last()

    # ---- index --------------------------------------------------------------------------------

    def _first_kept(self, records: RecordStore) -> int:
        """The position of the first record after those the user cleared from this list."""
        return bisect_left(records.seqs(), self._cleared_to + 1) if self._cleared_to else 0

    def _rebuild(self) -> None:
        selected = self.highlighted_record
        self._pending.clear()  # the journal already holds every buffered record and update
        kinds, predicate = self.RECORD_TYPES, self._predicate
        records = self.journal.records
        positions = select(records, kinds, predicate, self._first_kept(records))
        self._looked_to, self._generation = len(records), records.generation
        if self._sort is not None and len(positions) > SORT_LIMIT:
            self._sort = None
            self.notify(
                f"{len(positions):,} rows are more than can be sorted ({SORT_LIMIT:,}): "
                "filter them first. Rows in journal order.",
                severity="warning",
            )
        self._keys = {}
        if self._sort is not None:
            self._keys = {p: self._key(records[p]) for p in positions}
            positions.sort(key=self._keys.__getitem__)
        self._index = array("q", positions)
        if selected is not None:
            row = self._place(records.position_of(selected.seq) or 0, selected)
        else:
            row = len(self._index) - 1 if self.follow else 0
        self._cursor = min(row, len(self._index) - 1)
        self._sync_size()
        self._scroll_to_cursor()
        self.refresh()
        self._announce()

    def _record_at(self, row: int) -> Record | None:
        """The record at `row`; None when the store read the journal itself again since the
        rows were chosen (its index found stale, maybe by this very read): positions mean other
        records now, and the app has the rows chosen again."""
        records = self.journal.records
        try:
            if records.generation == self._generation:
                record = records[self._index[row]]
                if records.generation == self._generation:
                    return record
        except IndexError:  # a position past the journal as read again
            if records.generation == self._generation:
                raise
        return None

    def _key(self, record: Record) -> Any:
        """Where `record` goes in the index: its seq, or its sort key when sorted."""
        if self._sort is None:
            return record.seq
        column, descending = self._sort
        return sort_key(self.COLUMNS[column], record, descending)

    def _moved(self, position: int, record: Record) -> bool:
        """Its sorted-by value changed since it was placed (a call finishing, say)."""
        return self._sort is not None and self._key(record) != self._keys[position]

    def _place(self, position: int, record: Record) -> int:
        """The row the record at `position` has, or would have, in the index."""
        if self._sort is None:  # journal order is position order
            return bisect_left(self._index, position)
        key = self._keys.get(position)
        if key is None:
            key = self._key(record)
        return bisect_left(self._index, key, key=self._keys.__getitem__)

    def _row_of(self, position: int, record: Record) -> int | None:
        if self._sort is not None and position not in self._keys:
            return None
        row = self._place(position, record)
        return row if row < len(self._index) and self._index[row] == position else None

    def _insert(self, position: int, record: Record) -> None:
        if self._sort is not None:
            self._keys[position] = self._key(record)
        row = self._place(position, record)
        self._index.insert(row, position)
        if row <= self._cursor:
            self._cursor += 1

    def _remove(self, row: int) -> None:
        if self._sort is not None:
            self._keys.pop(self._index[row], None)
        del self._index[row]
        if row < self._cursor or self._cursor == len(self._index):
            self._cursor -= 1

    def _sync_size(self) -> None:
        self.virtual_size = Size(0, len(self._index) + 1)  # + the header line

    def _announce(self) -> None:
        record = self.highlighted_record
        seq = None if record is None else record.seq
        if seq != self._announced:
            self._announced = seq
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

    def action_sort_next(self) -> None:
        """Sort by the next sortable column, round to journal order after the last."""
        sortable = [i for i, column in enumerate(self.COLUMNS) if column.key is not None]
        current = -1 if self._sort is None else sortable.index(self._sort[0])
        following = sortable[current + 1] if current + 1 < len(sortable) else None
        self.sort_by(following)
        self._say_sort()

    def action_sort_reverse(self) -> None:
        """Turn the order round: descending by the sort column, or newest first."""
        if self._sort is None:
            first = next(i for i, column in enumerate(self.COLUMNS) if column.key is not None)
            self.sort_by(first, descending=True)
        else:
            column, descending = self._sort
            self.sort_by(column, not descending)
        self._say_sort()

    def _say_sort(self) -> None:
        sort = self.sort
        if sort is None:
            self.notify("Rows in journal order.", timeout=2)
        else:
            title, descending = sort
            order = "descending" if descending else "ascending"
            self.notify(f"Rows sorted by {title}, {order}.", timeout=2)

    def _sort_by_header(self, x: int) -> None:
        """A click on a column's title: sort by it, then descending, then journal order."""
        widths = column_widths(self.COLUMNS, self.scrollable_content_region.width)
        left = 0
        for index, width in enumerate(widths):
            if not width:
                continue
            if left <= x < left + width and self.COLUMNS[index].key is not None:
                if self._sort is None or self._sort[0] != index:
                    self.sort_by(index)
                elif not self._sort[1]:
                    self.sort_by(index, descending=True)
                else:
                    self.sort_by(None)
                self._say_sort()
                return
            left += width + 1

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        if offset.y == 0:
            self._sort_by_header(offset.x)
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
            header = [Cell(self._title(index)) for index in range(len(self.COLUMNS))]
            return self._strip(header, self.get_component_rich_style("record-list--header"), width)
        row = self.scroll_offset.y + y - 1
        if row >= len(self._index):
            return Strip.blank(width, self.rich_style)
        record = self._record_at(row)
        if record is None:
            return Strip.blank(width, self.rich_style)
        if row == self._cursor:
            base = self.get_component_rich_style("record-list--cursor")
        elif self._highlight is not None and self._highlight(record):
            base = self.get_component_rich_style("record-list--match")
        else:
            base = self.rich_style
        if self.is_live(record):  # its clock runs: repaint while it is on screen
            self._wake()
        return self._strip(self.cells(record), base, width)

    def _title(self, index: int) -> str:
        title = self.COLUMNS[index].title
        if self._sort is None or self._sort[0] != index:
            return title
        return f"{title}{'▼' if self._sort[1] else '▲'}"

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
