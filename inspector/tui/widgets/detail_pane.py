"""The detail pane: one record as its request, response, diff, wire lines, stderr and findings."""

from __future__ import annotations

import difflib
import json
from bisect import bisect_left
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static, TabbedContent, TabPane, TextArea

from inspector.hosts.deadline import deadline_summary
from inspector.hosts.registry import host_label
from inspector.journal.journal import Journal
from inspector.journal.records import Event, Exchange, Noise, Record, Stderr
from inspector.jsonrpc.stages import RESULT_KEY, STAGE_FOR_METHOD
from inspector.safe_text import one_line, printable, shown
from inspector.tui.widgets.exchange_list import LIVE_STATUSES
from inspector.tui.widgets.json_fold import FoldedJson, JsonPath, fold_json
from inspector.tui.widgets.json_view import MAX_LINES, capped, leading, pretty_lines
from inspector.tui.widgets.record_list import REFRESH_S, clock
from inspector.tui.widgets.styles import BOLD, DIM, VERDICT_STYLE, severity_style
from inspector.tui.widgets.text_search import find_next

TITLES = {
    "request": "Request",
    "response": "Response",
    "diff": "Diff",
    "raw": "Raw",
    "stderr": "Stderr",
    "findings": "Findings",
}
JSON_TABS = frozenset({"request", "response"})
NOTHING = "Nothing selected."
NOT_APPLICABLE = "not applicable"
RAW_LIMIT = 16_384  # characters of one wire line shown; the journal keeps the whole line
STDERR_LEAD_S = 0.5  # stderr this long before a call started is shown with it
# stderr and stdout are separate pipes: a line logged just before the answer can arrive after it.
STDERR_LAG_S = 0.2
DIFF_STYLE = {"+": "green", "-": "red", "@": "cyan"}


TAB_PREFIX = "detail-"  # tab panes are #detail-request, #detail-response, …


def tab_id(tab: str) -> str:
    return TAB_PREFIX + tab


# ---- what each tab shows ----------------------------------------------------------------------


class TabView(NamedTuple):
    text: str
    language: str | None  # "json", or None for plain text
    folds: FoldedJson | None = None  # JSON: which line opens and lies in which container


def request_view(record: Record | None, folded: frozenset[JsonPath] = frozenset()) -> TabView:
    """The Request tab, with the containers at `folded` folded."""
    if record is None:
        return TabView(NOTHING, None)
    if isinstance(record, Exchange):
        return (
            _json(leading(record.request), folded)
            if record.request
            else TabView("no request", None)
        )
    if isinstance(record, Event):
        return _json(record.payload, folded)
    if isinstance(record, Noise):
        return TabView(f"{NOT_APPLICABLE}: a stdout line that answered no call", None)
    return _json(record.to_json(), folded)


def response_view(record: Record | None, folded: frozenset[JsonPath] = frozenset()) -> TabView:
    if record is None:
        return TabView(NOTHING, None)
    if isinstance(record, Exchange):
        if record.response is not None:
            return _json(leading(record.response), folded)
        if record.status in LIVE_STATUSES:
            return TabView(f"no answer yet ({one_line(record.status)})", None)
        return TabView(
            f"no answer: {one_line(record.status)}  {one_line(record.error or '')}".rstrip(),
            None,
        )
    if isinstance(record, Noise):
        try:
            return _json(json.loads(record.line), folded)
        except (ValueError, RecursionError):
            return TabView(f"{NOT_APPLICABLE}: the line is not JSON", None)
    return TabView(NOT_APPLICABLE, None)


def _json(value: Any, folded: frozenset[JsonPath]) -> TabView:
    folds = fold_json(value, folded)
    return TabView("\n".join(capped(folds.lines)), "json", folds)


def diff_view(record: Record | None) -> Text:
    """What the hook changed against what it was sent, or the verdict of an approval."""
    if not isinstance(record, Exchange):
        return Text(NOTHING if record is None else NOT_APPLICABLE, DIM)
    stage = STAGE_FOR_METHOD.get(record.method)
    if stage is None:
        return shown(f"{NOT_APPLICABLE}: {record.method} is not a stage call", DIM)
    if record.response is None:
        waiting = record.status in LIVE_STATUSES
        return shown(f"no answer {'yet' if waiting else 'arrived'} ({record.status})", DIM)
    result = record.response.get("result")
    if stage == "approve_tool":
        return verdict_view(record, result)
    text = _labelled("host took: ", record.action)
    text.append("\n\n")
    key = RESULT_KEY[stage]
    replacement = result.get(key) if isinstance(result, dict) else None
    if not isinstance(replacement, dict):
        return text.append("answer carried no replacement object", DIM)
    sent = (record.request or {}).get("params")
    if replacement == sent:
        return text.append("no change", DIM)
    lines = difflib.unified_diff(
        pretty_lines(sent, sort_keys=True),
        pretty_lines(replacement, sort_keys=True),
        fromfile="sent params",
        tofile=f"result.{key}",
        lineterm="",
    )
    for line in capped(list(lines)):
        style = BOLD if line.startswith(("---", "+++")) else DIFF_STYLE.get(line[:1], "")
        text.append(line + "\n", style)
    return text


def verdict_view(record: Exchange, result: Any) -> Text:
    text = _labelled("verdict: ", record.action)
    if not isinstance(result, dict):
        return text.append("\nthe answer carried no result object (PicoClaw denies)", DIM)
    if "approved" in result:
        text.append(f"\napproved: {json.dumps(result['approved'])}")
    else:
        text.append("\napproved: missing (PicoClaw denies)", DIM)
    if result.get("reason"):
        text.append(f"\nreason: {one_line(str(result['reason']), 2_000)}")
    return text


def _labelled(label: str, action: str | None) -> Text:
    return Text.assemble((label, DIM), shown(action or "—", VERDICT_STYLE.get(action or "", "")))


def raw_view(record: Record | None) -> Text:
    """The exact lines on the wire, with their sizes."""
    if isinstance(record, Noise):
        return _wire("stdout line", record.line, record.size)
    if not isinstance(record, Exchange):
        return Text(NOTHING if record is None else NOT_APPLICABLE, DIM)
    if record.http_status is not None:
        return http_view(record)
    if record.by_command:
        return command_view(record)
    text = Text()
    if summary := deadline_summary(record):
        text.append(f"{summary}\n\n", DIM)
    text.append_text(_wire("→ request", record.raw_request))
    text.append("\n\n")
    return text.append_text(_wire("← response", record.raw_response))


def command_view(record: Exchange) -> Text:
    """One run of a command hook: what went in, what came out, how it ended."""
    if record.exit_code is not None:
        ending = f"exit code {record.exit_code}"
    else:
        ending = record.error or record.status
    duration = "" if record.duration_ms is None else f" after {record.duration_ms:.1f} ms"
    text = Text.assemble(("hook ", DIM), shown(record.hook, limit=2_000), "\n")  # whole, uncut
    text.append_text(Text.assemble(shown(f"{ending}{duration}", BOLD, limit=2_000), "\n"))
    if record.cwd:
        text.append_text(Text.assemble(("ran in ", DIM), shown(record.cwd, limit=2_000), "\n"))
    text.append("\n")
    text.append_text(_wire("stdin", record.raw_request))
    text.append("\n\n")
    text.append_text(_wire("stdout", record.raw_response))
    text.append("\n\n")
    return text.append_text(_wire("stderr", record.stderr))


def http_view(record: Exchange) -> Text:
    """One request of an http hook (Claude Code's http handler): its status, the body POSTed
    and the answer's body. The headers are not journalled: they may carry secrets."""
    duration = "" if record.duration_ms is None else f" after {record.duration_ms:.1f} ms"
    text = Text.assemble(("hook ", DIM), shown(record.hook, limit=2_000), "\n")
    text.append_text(Text.assemble(shown(f"HTTP {record.http_status}{duration}", BOLD), "\n\n"))
    text.append_text(_wire("→ POST body", record.raw_request))
    text.append("\n\n")
    return text.append_text(_wire("← answer body", record.raw_response))


def _wire(title: str, line: str | None, size: int | None = None) -> Text:
    if line is None:
        return Text(f"{title}: nothing on the wire", DIM)
    size = len(line.encode(errors="surrogatepass")) if size is None else size
    text = Text.assemble((f"{title}  {size:,} bytes\n", BOLD))
    text.append(printable(line[:RAW_LIMIT]))
    if len(line) > RAW_LIMIT:
        text.append(f"\n… {len(line) - RAW_LIMIT:,} more characters", DIM)
    return text


def stderr_window(record: Exchange | Noise) -> tuple[float, float]:
    """The time span whose stderr belongs with `record`."""
    if isinstance(record, Noise):
        return record.ts - STDERR_LEAD_S, record.ts + STDERR_LAG_S
    if record.status in LIVE_STATUSES or record.duration_ms is None:
        return record.ts - STDERR_LEAD_S, float("inf")
    return record.ts - STDERR_LEAD_S, record.ts + record.duration_ms / 1000 + STDERR_LAG_S


def stderr_lines(journal: Journal, record: Record) -> list[Stderr] | None:
    """Stderr of the record's hook inside its window (None for records without a hook): a walk
    outward from the record's place in the journal, so the cost is the window, not the journal."""
    if not isinstance(record, (Exchange, Noise)):
        return None
    if isinstance(record, Exchange) and record.by_command:  # its own pipe, kept whole
        lines = (record.stderr or "").splitlines()
        return [Stderr(ts=record.ts, hook=record.hook, line=line) for line in lines]
    start, end = stderr_window(record)
    records = journal.records
    low = high = bisect_left(records, record.seq, key=lambda item: item.seq)
    while low > 0 and records[low - 1].ts >= start:
        low -= 1
    while high < len(records) and records[high].ts <= end:
        high += 1
    return [
        line for line in records[low:high] if isinstance(line, Stderr) and line.hook == record.hook
    ]


def stderr_view(record: Record | None, lines: list[Stderr] | None) -> Text:
    if record is None:
        return Text(NOTHING, DIM)
    if lines is None:
        return Text(NOT_APPLICABLE, DIM)
    if not lines:
        return Text("no stderr around this record", DIM)
    text = Text()
    for line in lines[:MAX_LINES]:
        before = line.ts < record.ts  # logged before the call started: context, not its output
        text.append(f"{clock(line.ts)}  ", DIM)
        text.append(one_line(line.line, 2_000) + "\n", DIM if before else "")
    if len(lines) > MAX_LINES:
        text.append(f"… {len(lines) - MAX_LINES} more lines", DIM)
    return text


def findings_view(record: Record | None) -> Text:
    if record is None:
        return Text(NOTHING, DIM)
    if not record.findings_list:
        return Text("no findings", DIM)
    text = Text()
    for finding in record.findings_list:
        text.append(f"{one_line(finding.severity):<8}", severity_style(finding.severity))
        text.append(one_line(finding.code), BOLD)
        text.append(f"\n  {one_line(finding.message, 2_000)}")
        if finding.host_does:
            would = one_line(finding.host_does, 2_000)
            text.append(f"\n  {one_line(host_label(record.host))} would: {would}", DIM)
        text.append("\n\n")
    return text


STATIC_VIEWS: dict[str, Callable[[Record | None], Text]] = {
    "diff": diff_view,
    "raw": raw_view,
    "findings": findings_view,
}


# ---- the widget -------------------------------------------------------------------------------


class DetailPane(Widget):
    """Tabs about one record. Only the visible tab is built; an update to the shown record (a
    call finishing) or new stderr in its window rebuilds it on a tick woken by that change."""

    DEFAULT_CSS = """
    DetailPane {
        width: 1fr;
        height: 1fr;
        & > TabbedContent { height: 1fr; }
        & TabPane { height: 1fr; padding: 0; }
        & TabPane > TextArea { height: 1fr; border: none; }
        & TabPane > VerticalScroll { height: 1fr; padding: 0 1; }
        & > #detail-search { display: none; height: 1; border: none; padding: 0 1; }
        & > #detail-search.-shown { display: block; }
    }
    """

    TABS: ClassVar[tuple[str, ...]] = tuple(TITLES)
    HELP = """\
## Detail

The selected row in six tabs: Request and Response (its JSON, the fields that matter first),
Diff (what the hook changed, or an approval's verdict), Raw (the exact lines on the wire, or a
command hook's stdin, stdout, stderr, exit code and folder), Stderr (its hook's stderr around
the call) and Findings. `1`-`6` or `[` / `]` switch tabs, `ctrl+f` finds text in any tab.
In the Request and Response tabs `space` folds the object or array under the cursor (or the
one it is in) to one line, and unfolds it again; `-` folds everything below the top level, an
outline of the call, and unfolds all when anything is folded."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "fold", "Fold/unfold", show=False, id="detail.fold"),
        Binding("minus", "fold_all", "Outline/all", show=False, id="detail.fold_all"),
    ]

    def __init__(
        self,
        journal: Journal,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.journal = journal
        self._record: Record | None = None
        self._stale: set[str] = set(self.TABS)  # tabs to rebuild when next shown
        self._labels_stale = True
        self._unsubscribe: Callable[[], None] | None = None
        self._wake_timer: Timer | None = None
        self._folded: dict[str, frozenset[JsonPath]] = {}  # JSON tab -> its folded containers
        self._folds: dict[str, FoldedJson | None] = {}  # JSON tab -> its lines as last built
        self._texts: dict[str, Text] = {}  # other tab -> its text as last built, for find
        self._found_at: dict[str, int] = {}  # other tab -> where the next find starts

    def compose(self) -> ComposeResult:
        with TabbedContent():
            for tab, title in TITLES.items():
                with TabPane(title, id=tab_id(tab)):
                    if tab in JSON_TABS:
                        yield TextArea.code_editor(  # theme "css" follows the app's theme
                            "",
                            language="json",
                            read_only=True,
                            tab_behavior="focus",
                            theme="css",
                            soft_wrap=True,  # a long string is read whole, not scrolled to
                        )
                    else:
                        with VerticalScroll():
                            yield Static(markup=False)
        yield Input(placeholder="find in this tab: enter finds the next match", id="detail-search")

    @property
    def record(self) -> Record | None:
        return self._record

    @property
    def active_tab(self) -> str:
        return self.query_one(TabbedContent).active.removeprefix(TAB_PREFIX)

    def open_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab_id(tab)

    def start_search(self) -> None:
        """Show the search field under the tabs and type into it."""
        field = self.query_one("#detail-search", Input)
        field.add_class("-shown")
        self.screen.set_focus(field)

    @on(Input.Submitted, "#detail-search")
    def _search(self, event: Input.Submitted) -> None:
        event.stop()
        self.find(event.value)

    def find(self, text: str) -> bool:
        """Select (in a JSON tab) or mark and scroll to (in the others) the next match of
        `text` in the open tab, ignoring case, round the end."""
        tab = self.active_tab
        in_json = tab in JSON_TABS
        found = find_next(self._area(tab), text) if in_json else self._mark_next(tab, text)
        if not found:
            self.notify(f"{one_line(text)!r} is not in the {TITLES[tab]} tab.", severity="warning")
        return found

    def _mark_next(self, tab: str, text: str) -> bool:
        shown = self._texts.get(tab)
        if shown is None or not text:
            return False
        plain, needle = shown.plain.lower(), text.lower()
        start = plain.find(needle, self._found_at.get(tab, 0))
        if start < 0:
            start = plain.find(needle)
        if start < 0:
            return False
        self._found_at[tab] = start + len(needle)
        marked = shown.copy()
        marked.stylize("reverse", start, start + len(needle))
        pane = self.query_one(f"#{tab_id(tab)}", TabPane)
        pane.query_one(Static).update(marked)
        line = plain.count("\n", 0, start)
        pane.query_one(VerticalScroll).scroll_to(y=max(0, line - 2), animate=False)
        return True

    def step_tab(self, step: int) -> None:
        """The next (1) or previous (-1) tab, round the end."""
        index = self.TABS.index(self.active_tab)
        self.open_tab(self.TABS[(index + step) % len(self.TABS)])

    def show(self, record: Record | None) -> None:
        """Show `record` (None: nothing). The tabs follow on the next tick."""
        if record is not self._record and not _same(record, self._record):
            self._record = record
            self._folded.clear()
            self._mark_stale(*self.TABS)

    def on_mount(self) -> None:
        self._unsubscribe = self.journal.subscribe(self._on_record)
        self._wake()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def _on_record(self, record: Record, new: bool) -> None:
        shown = self._record
        if shown is None:
            return
        if record is shown or record.seq == shown.seq:  # the journal may have read it back
            self._record = record  # as it is now
            self._mark_stale(*self.TABS)
        elif (
            isinstance(record, Stderr)
            and isinstance(shown, (Exchange, Noise))
            and record.hook == shown.hook
        ):
            start, end = stderr_window(shown)
            if start <= record.ts <= end:
                self._mark_stale("stderr")

    def _mark_stale(self, *tabs: str) -> None:
        self._stale.update(tabs)
        self._labels_stale = True
        self._wake()

    def _wake(self) -> None:
        if self._wake_timer is None:
            self._wake_timer = self.set_timer(REFRESH_S, self._refresh_stale, name="detail-wake")

    def _refresh_stale(self) -> None:
        self._wake_timer = None
        if self._labels_stale:
            self._labels_stale = False
            self._relabel()
        if not self._stale:
            return
        active = self.active_tab
        if active in self._stale:
            self._build_tab(active)

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        tab = (event.pane.id or "").removeprefix(TAB_PREFIX)
        if tab in self._stale:
            self._build_tab(tab)

    def _stderr(self) -> list[Stderr] | None:
        return None if self._record is None else stderr_lines(self.journal, self._record)

    def _relabel(self) -> None:
        record = self._record
        counts = {
            "stderr": len(self._stderr() or []),
            "findings": len(record.findings_list) if record else 0,
        }
        tabs = self.query_one(TabbedContent)
        for tab, count in counts.items():
            label = f"{TITLES[tab]} ({count})" if count else TITLES[tab]
            content_tab = tabs.get_tab(tab_id(tab))
            if content_tab.label_text != label:
                content_tab.label = label

    def _build_tab(self, tab: str) -> None:
        self._stale.discard(tab)
        pane = self.query_one(f"#{tab_id(tab)}", TabPane)
        if tab in JSON_TABS:
            view = request_view if tab == "request" else response_view
            text, language, self._folds[tab] = view(
                self._record, self._folded.get(tab, frozenset())
            )
            area = pane.query_one(TextArea)
            if area.text != text or area.language != language:
                area.language = language
                area.show_line_numbers = language is not None  # a note has no lines to count
                area.load_text(text)
        else:
            if tab == "stderr":
                content = stderr_view(self._record, self._stderr())
            else:
                content = STATIC_VIEWS[tab](self._record)
            self._texts[tab], self._found_at[tab] = content, 0
            pane.query_one(Static).update(content)

    # ---- folding ----------------------------------------------------------------------------

    def action_fold(self) -> None:
        """Fold or unfold the object or array the cursor is on (or in), in a JSON tab."""
        tab, folds = self.active_tab, self._folds.get(self.active_tab)
        if folds is None:
            self.notify("Folding works on the JSON of the Request and Response tabs.")
            return
        line = self._area(tab).cursor_location[0]
        path = folds.target(line) if line < MAX_LINES else None
        if path is not None:
            self._refold(tab, self._folded.get(tab, frozenset()) ^ {path}, path)

    def action_fold_all(self) -> None:
        """Fold everything below the top level (an outline), or unfold all when anything is."""
        tab, folds = self.active_tab, self._folds.get(self.active_tab)
        if folds is None:
            self.notify("Folding works on the JSON of the Request and Response tabs.")
            return
        if self._folded.get(tab):
            self._refold(tab, frozenset(), ())
        else:
            top = frozenset(path for path in folds.opens if path is not None and len(path) == 1)
            self._refold(tab, top, ())

    def _refold(self, tab: str, folded: frozenset[JsonPath], keep: JsonPath) -> None:
        self._folded[tab] = folded
        self._build_tab(tab)
        folds = self._folds.get(tab)
        if folds is not None:
            self._area(tab).move_cursor((folds.line_of(keep), 0))

    def _area(self, tab: str) -> TextArea:
        return self.query_one(f"#{tab_id(tab)}", TabPane).query_one(TextArea)


def _same(record: Record | None, other: Record | None) -> bool:
    """The same record, whichever copy: the journal reads a record it let go back anew."""
    return record is not None and other is not None and record.seq == other.seq
