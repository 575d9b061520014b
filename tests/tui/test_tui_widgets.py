"""The journal views (exchange list, event stream, detail pane), each alone in a tiny app."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TextArea

from inspector.hosts.picoclaw import templates
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter
from inspector.journal.records import Event, Exchange, Finding, Noise, Record, Stderr
from inspector.tui.widgets.detail_pane import DetailPane
from inspector.tui.widgets.event_stream import EventStream
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.json_view import capped, json_text, pretty_lines
from inspector.tui.widgets.record_list import RecordList
from tests.support.saved_sessions import LIVE_AND_OPENED, Session, again, seqs

MARKUP = "[bold red]x[/]"
ESC_LINE = f"{MARKUP} \x1b[31mred\x1b[0m"


class Harness(App[None]):
    def __init__(self, *widgets: Widget) -> None:
        super().__init__()
        self.parts = widgets
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        yield from self.parts

    def on_exchange_list_highlighted(self, message: ExchangeList.Highlighted) -> None:
        self.messages.append(message)

    def on_exchange_list_selected(self, message: ExchangeList.Selected) -> None:
        self.messages.append(message)

    def on_event_stream_highlighted(self, message: EventStream.Highlighted) -> None:
        self.messages.append(message)


def harness(*widgets: Widget) -> Harness:
    app = Harness(*widgets)
    app.theme = "textual-dark"
    app.animation_level = "none"
    return app


async def until(pilot: Pilot[None], predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)


def exchange(hook: str = "redactor", method: str = "hook.before_tool", **fields: Any) -> Exchange:
    fields.setdefault("status", "ok")
    fields.setdefault("source", "scenario")
    return Exchange(hook=hook, method=method, **fields)


def fill(journal: Journal, count: int, hooks: tuple[str, ...] = ("a", "b")) -> None:
    for i in range(count):
        journal.append(exchange(hook=hooks[i % len(hooks)], duration_ms=1.0))


def line_of_row(widget: RecordList, record: Record) -> int:
    """The screen line of `record`'s row, which must be on screen."""
    y = widget.rows.index(record) - widget.scroll_offset.y + 1
    assert 0 < y < widget.size.height, "row is not on screen"
    return y


def line_of(widget: RecordList, record: Record) -> str:
    return widget.render_line(line_of_row(widget, record)).text


def screen_text(widget: RecordList) -> list[str]:
    return [widget.render_line(y).text for y in range(widget.size.height)]


def segment_style(widget: RecordList, y: int, text: str) -> Style:
    for segment in widget.render_line(y):
        if text in segment.text:
            return segment.style or Style.null()
    raise AssertionError(f"{text!r} not on line {y}")


def highlighted(app: Harness) -> list[Record | None]:
    return [m.record for m in app.messages if isinstance(m, RecordList.Highlighted)]


# ---- exchange list ----------------------------------------------------------------------------


async def test_rows_appended_live_render_their_columns() -> None:
    journal = Journal()
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(120, 20)) as pilot:
        assert "method" in widget.render_line(0).text
        done = journal.append(
            exchange(
                duration_ms=12.5,
                action="modify",
                findings=[
                    Finding("slow-answer", "warning", "slow"),
                    Finding("action-not-allowed", "error", "no"),
                ],
            )
        )
        pending = journal.append(exchange(hook="gate", status="pending"))
        await until(pilot, lambda: len(widget.rows) == 2)
        row = line_of(widget, done)
        assert re.search(r"scenario\s+redactor\s+before_tool\s+modify\s+ok\s+12\.5\s+!2", row)
        assert "hook.before_tool" not in row
        assert segment_style(widget, line_of_row(widget, done), "!2").color.name == "red"
        assert "pending" in line_of(widget, pending)

        journal.amend(pending, status="timeout", duration_ms=5000.0)
        await until(pilot, lambda: "timeout" in line_of(widget, pending))


async def test_an_update_is_filtered_again() -> None:
    journal = Journal()
    widget = ExchangeList(journal)
    async with harness(widget).run_test() as pilot:
        widget.set_filter(lambda record: getattr(record, "status", "") == "error")
        call = journal.append(exchange(status="pending"))
        widget.flush()
        assert list(widget.rows) == []
        journal.amend(call, status="error")
        await until(pilot, lambda: list(widget.rows) == [call])
        assert widget.highlighted_record is call


@LIVE_AND_OPENED
async def test_filter_keeps_the_selected_record(session: Session) -> None:
    journal = Journal()
    fill(journal, 10)
    journal = session(journal)
    widget = ExchangeList(journal)
    app = harness(widget)
    async with app.run_test() as pilot:
        await pilot.press("home", "down", "down", "down")
        chosen = widget.highlighted_record
        assert chosen is not None and chosen.seq == 4 and chosen.hook == "b"

        widget.set_filter(lambda record: record.hook == "b")
        assert len(widget.rows) == 5
        assert seqs([widget.highlighted_record]) == [4]

        widget.set_filter(lambda record: record.hook == "a")
        assert seqs([widget.highlighted_record]) == [5]  # the next one that matches

        widget.set_filter(None)
        assert len(widget.rows) == 10
        assert seqs([widget.highlighted_record]) == [5]
        await pilot.pause()
        assert seqs(highlighted(app)[-2:]) == [4, 5]


async def test_follow_shows_new_rows_without_stealing_the_cursor() -> None:
    journal = Journal()
    fill(journal, 30)
    widget = ExchangeList(journal)
    app = harness(widget)
    async with app.run_test(size=(100, 12)) as pilot:
        assert widget.highlighted_record is journal.records[-1]

        newest = journal.append(exchange(hook="newest"))
        await until(pilot, lambda: widget.highlighted_record is newest)  # on the last row: follows
        assert widget.scroll_offset.y == widget.max_scroll_y

        await pilot.press("up")
        mine = widget.highlighted_record
        assert mine is journal.records[-2]
        later = journal.append(exchange(hook="later"))
        await until(pilot, lambda: len(widget.rows) == 32)
        assert widget.highlighted_record is mine  # not stolen
        assert widget.scroll_offset.y == widget.max_scroll_y  # but the new row is in view
        assert "later" in screen_text(widget)[-1]

        await pilot.press("f")
        assert widget.follow is False
        journal.append(exchange(hook="unseen"))
        await until(pilot, lambda: len(widget.rows) == 33)
        assert widget.scroll_offset.y < widget.max_scroll_y
        assert widget.highlighted_record is mine

        await pilot.press("f")  # following again jumps to the end
        assert widget.highlighted_record is journal.records[-1]
        assert widget.scroll_offset.y == widget.max_scroll_y
        assert later not in highlighted(app)  # shown, never highlighted


async def test_follow_scrolls_as_the_first_rows_overflow_the_view() -> None:
    journal = Journal()
    widget = EventStream(journal)
    async with harness(widget).run_test(size=(100, 12)) as pilot:
        for i in range(30):
            journal.append(Event(kind=f"kind.{i}"))
        await until(pilot, lambda: len(widget.rows) == 30)
        assert widget.highlighted_record is journal.records[-1]
        assert widget.scroll_offset.y == widget.max_scroll_y > 0
        assert "kind.29" in screen_text(widget)[-1]


async def test_follow_leaves_a_view_scrolled_away_alone() -> None:
    journal = Journal()
    fill(journal, 30)
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(100, 12)) as pilot:
        await pilot.press("home")
        first = widget.highlighted_record
        journal.append(exchange())
        await until(pilot, lambda: len(widget.rows) == 31)
        assert widget.highlighted_record is first
        assert widget.scroll_offset.y == 0


@LIVE_AND_OPENED
async def test_keys_click_and_enter(session: Session) -> None:
    journal = Journal()
    fill(journal, 50)
    journal = session(journal)
    widget = ExchangeList(journal, follow=False)
    app = harness(widget)
    async with app.run_test(size=(100, 12)) as pilot:
        assert widget.cursor_row == 0
        await pilot.press("pagedown")
        assert widget.cursor_row == 11  # a page is the height less the header line
        await pilot.press("end")
        assert seqs([widget.highlighted_record]) == [50]
        await pilot.press("home", "down")
        await pilot.click(widget, offset=(3, 3))  # line 3 is the third row
        assert widget.cursor_row == 2
        await pilot.press("enter")
        await pilot.pause()
        selected = [m.record for m in app.messages if isinstance(m, ExchangeList.Selected)]
        assert seqs(selected) == [3]


@LIVE_AND_OPENED
async def test_narrow_list_hides_minor_columns_before_status_and_findings(session: Session) -> None:
    journal = Journal()
    call = journal.append(
        exchange(
            source="composer",
            duration_ms=7.0,
            action="continue",
            findings=[Finding("slow-answer", "warning", "slow")],
        )
    )
    journal = session(journal)
    call = again(journal, call)
    widget = ExchangeList(journal)
    # 54 columns of rows: the list keeps 2 for its scrollbar's gutter, shown or not
    async with harness(widget).run_test(size=(56, 10)):
        row = line_of(widget, call)
        assert len(row) == widget.scrollable_content_region.width
        assert "composer" not in row and "7.0" not in row  # source and ms give way first
        assert re.search(r"redactor\s+before_t…\s+conti…\s+ok\s+!1", row)


async def test_held_row_shows_its_age_and_the_edit_mark() -> None:
    journal = Journal()
    held = journal.append(exchange(status="held", ts=time.time() - 4.2, edited=True))
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(120, 10)):
        match = re.search(r"@hook\s+held (\d+\.\d)s ✎", line_of(widget, held))
        assert match and float(match.group(1)) >= 4.2


async def test_a_live_agents_held_row_counts_down_to_its_deadline() -> None:
    journal = Journal()
    held = journal.append(exchange(status="held", deadline=time.time() + 3.0))
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(120, 10)):
        match = re.search(r"@hook\s+held (\d+\.\d)s left", line_of(widget, held))
        assert match and 0 < float(match.group(1)) <= 3.0


@LIVE_AND_OPENED
async def test_noise_row_is_dim_and_names_its_finding(session: Session) -> None:
    journal = Journal()
    noise = journal.append(
        Noise(
            hook="chatty",
            line="hello there",
            size=11,
            findings=[Finding("non-json-stdout", "warning", "not JSON")],
        )
    )
    journal = session(journal)
    noise = again(journal, noise)
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(120, 10)):
        row = line_of(widget, noise)
        assert re.search(r"stdout\s+chatty\s+non-json-stdout\s+hello there\s+!1", row)
        assert segment_style(widget, 1, "hello there").dim


@LIVE_AND_OPENED
async def test_hook_text_is_shown_literally_never_as_markup_or_escapes(session: Session) -> None:
    journal = Journal()
    noise = journal.append(Noise(hook="evil", line=ESC_LINE, size=len(ESC_LINE)))
    journal = session(journal)
    noise = again(journal, noise)
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(140, 10)):
        row = line_of(widget, noise)
        assert "\x1b" not in row
        assert f"{MARKUP} ␛[31mred␛[0m" in row
        # styled like the hook name beside it: nothing in the line became a style
        assert segment_style(widget, 1, MARKUP) == segment_style(widget, 1, "evil")


@LIVE_AND_OPENED
async def test_index_of_100k_records_builds_and_filters(session: Session) -> None:
    journal = Journal()
    fill(journal, 100_000)
    journal.append(Noise(hook="b", line="stray"))
    journal.append(Event(kind="agent.turn.end"))  # not an exchange-list record
    journal = session(journal)
    widget = ExchangeList(journal)
    async with harness(widget).run_test(size=(120, 30)) as pilot:
        assert len(widget.rows) == 100_001
        last = widget.highlighted_record
        widget.set_filter(lambda record: record.hook == "b")
        assert len(widget.rows) == 50_001
        assert seqs([widget.highlighted_record]) == seqs([last])
        await pilot.press("home", "pagedown", "pagedown")
        assert widget.cursor_row == 2 * (widget.size.height - 1)
        assert widget.render_line(1).text.split()[3] == "b"  # after the number, time, source


# ---- event stream -----------------------------------------------------------------------------


@LIVE_AND_OPENED
async def test_event_stream_colours_kinds_by_severity(session: Session) -> None:
    journal = Journal()
    for severity in ("info", "warn", "error"):
        journal.append(
            Event(
                kind=f"agent.{severity}.kind",
                severity=severity,
                source="scenario",
                delivered=["logger", "audit"] if severity != "error" else [],
            )
        )
    journal = session(journal)
    widget = EventStream(journal)
    app = harness(widget)
    async with app.run_test(size=(120, 10)) as pilot:
        assert re.search(
            r"info\s+agent\.info\.kind\s+scenario\s+→ logger, audit", screen_text(widget)[1]
        )
        assert "—" in screen_text(widget)[3]
        assert segment_style(widget, 1, "agent.info.kind").color.name == "cyan"
        assert segment_style(widget, 2, "agent.warn.kind").color.name == "yellow"
        error = segment_style(widget, 3, "agent.error.kind")
        assert error.color.name == "red" and error.bold

        widget.set_filter(lambda record: record.severity == "error")
        assert [event.kind for event in widget.rows] == ["agent.error.kind"]
        await pilot.pause()
        assert all(isinstance(m, EventStream.Highlighted) for m in app.messages)
        assert seqs(highlighted(app)[-1:]) == [3]


# ---- detail pane ------------------------------------------------------------------------------


def tab_text(pane: DetailPane, tab: str) -> str:
    body = pane.query_one(f"#detail-{tab}").query_one("TextArea, Static")
    if isinstance(body, TextArea):
        return body.text
    assert isinstance(body, Static)
    content = body.content
    return content.plain if isinstance(content, Text) else str(content)


async def open_tab(pilot: Pilot[None], pane: DetailPane, tab: str, *expected: str) -> str:
    pane.query_one(TabbedContent).active = f"detail-{tab}"
    await until(pilot, lambda: all(part in tab_text(pane, tab) for part in expected))
    return tab_text(pane, tab)


def label(pane: DetailPane, tab: str) -> str:
    return pane.query_one(TabbedContent).get_tab(f"detail-{tab}").label_text


def stage_call(method: str, result: dict[str, Any], **fields: Any) -> Exchange:
    params = templates.template(method)
    return exchange(
        method=method,
        request={"jsonrpc": "2.0", "id": 3, "method": method, "params": params},
        response={"jsonrpc": "2.0", "id": 3, "result": result},
        duration_ms=2.0,
        **fields,
    )


@LIVE_AND_OPENED
async def test_detail_of_a_modify_exchange_diffs_the_changed_argument(session: Session) -> None:
    journal = Journal()
    params = templates.template("hook.before_tool")
    changed = {**params, "arguments": {**params["arguments"], "command": "ls -la"}}
    call = journal.append(
        stage_call("hook.before_tool", {"action": "modify", "call": changed}, action="modify")
    )
    journal = session(journal)
    call = again(journal, call)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(120, 40)) as pilot:
        pane.show(call)
        request = await open_tab(pilot, pane, "request", '"method": "hook.before_tool"')
        assert '"command": "pytest tests/test_checkout.py -q"' in request
        assert '"action": "modify"' in await open_tab(pilot, pane, "response", "modify")
        diff = await open_tab(pilot, pane, "diff", "+++")
        assert "host took: modify" in diff
        assert '-    "command": "pytest tests/test_checkout.py -q"' in diff
        assert '+    "command": "ls -la"' in diff
        assert "meta" not in diff.split("@@")[-1]  # only the changed part and its context


@LIVE_AND_OPENED
async def test_diff_says_when_nothing_changed_or_nothing_came_back(session: Session) -> None:
    journal = Journal()
    params = templates.template("hook.after_tool")
    same = journal.append(stage_call("hook.after_tool", {"action": "modify", "result": params}))
    bare = journal.append(stage_call("hook.after_tool", {"action": "continue"}))
    journal = session(journal)
    same, bare = again(journal, same), again(journal, bare)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(120, 30)) as pilot:
        pane.show(same)
        await open_tab(pilot, pane, "diff", "no change")
        pane.show(bare)
        await until(pilot, lambda: "carried no replacement object" in tab_text(pane, "diff"))


@LIVE_AND_OPENED
async def test_detail_of_an_approval_shows_the_verdict(session: Session) -> None:
    journal = Journal()
    call = journal.append(
        stage_call(
            "hook.approve_tool", {"approved": False, "reason": "rm is dangerous"}, action="denied"
        )
    )
    journal = session(journal)
    call = again(journal, call)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(120, 30)) as pilot:
        pane.show(call)
        diff = await open_tab(pilot, pane, "diff", "verdict")
        assert "verdict: denied" in diff
        assert "approved: false" in diff
        assert "reason: rm is dangerous" in diff


@LIVE_AND_OPENED
async def test_detail_of_a_noise_record(session: Session) -> None:
    journal = Journal()
    noise = journal.append(
        Noise(
            hook="chatty",
            line="hello",
            size=5,
            findings=[
                Finding("non-json-stdout", "warning", "stdout is not JSON", "skips the line")
            ],
        )
    )
    journal = session(journal)
    noise = again(journal, noise)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(120, 30)) as pilot:
        pane.show(noise)
        assert "not applicable" in await open_tab(pilot, pane, "request", "not applicable")
        raw = await open_tab(pilot, pane, "raw", "hello")
        assert raw.startswith("stdout line  5 bytes\nhello")
        findings = await open_tab(pilot, pane, "findings", "non-json-stdout")
        assert "PicoClaw would: skips the line" in findings
        await until(pilot, lambda: label(pane, "findings") == "Findings (1)")


@LIVE_AND_OPENED
async def test_detail_of_an_event(session: Session) -> None:
    journal = Journal()
    payload = templates.template("hook.runtime_event")
    event = journal.append(Event(kind=payload["kind"], payload=payload))
    journal = session(journal)
    event = again(journal, event)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(120, 30)) as pilot:
        pane.show(event)
        assert '"kind": "agent.tool.exec_start"' in await open_tab(pilot, pane, "request", "kind")
        for tab in ("response", "diff", "raw", "stderr"):
            assert "not applicable" in await open_tab(pilot, pane, tab, "not applicable")


@LIVE_AND_OPENED
async def test_stderr_tab_shows_the_hooks_lines_around_the_call(session: Session) -> None:
    journal = Journal()
    start = time.time() - 10
    journal.append(Stderr(ts=start - 2, hook="gate", line="long before"))
    journal.append(Stderr(ts=start - 0.2, hook="gate", line="just before"))
    call = journal.append(exchange(hook="gate", ts=start, duration_ms=100.0))
    journal.append(Stderr(ts=start + 0.05, hook="gate", line="while answering"))
    journal.append(Stderr(ts=start + 0.05, hook="other", line="another hook"))
    journal.append(Stderr(ts=start + 2, hook="gate", line="long after"))
    journal = session(journal)
    call = again(journal, call)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(120, 30)) as pilot:
        pane.show(call)
        text = await open_tab(pilot, pane, "stderr", "while answering")
        assert "just before" in text
        assert "long before" not in text and "long after" not in text
        assert "another hook" not in text
        await until(pilot, lambda: label(pane, "stderr") == "Stderr (2)")


async def test_detail_follows_the_shown_exchange_when_it_finishes() -> None:
    journal = Journal()
    call = journal.append(exchange(hook="gate", status="pending", ts=time.time()))
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(120, 30)) as pilot:
        pane.show(call)
        await open_tab(pilot, pane, "response", "no answer yet (pending)")
        answer = {"jsonrpc": "2.0", "id": 1, "result": {"action": "continue"}}
        journal.amend(call, response=answer, status="ok", duration_ms=3.0)
        await until(pilot, lambda: '"action": "continue"' in tab_text(pane, "response"))
        journal.append(Stderr(hook="gate", line="late but in the window", ts=call.ts + 0.001))
        await until(pilot, lambda: label(pane, "stderr") == "Stderr (1)")


@LIVE_AND_OPENED
async def test_detail_shows_hook_text_literally(session: Session) -> None:
    journal = Journal()
    noise = journal.append(Noise(hook="evil", line=ESC_LINE, size=len(ESC_LINE)))
    journal.append(Stderr(hook="evil", line=ESC_LINE, ts=noise.ts))
    journal = session(journal)
    noise = again(journal, noise)
    pane = DetailPane(journal)
    async with harness(pane).run_test(size=(120, 30)) as pilot:
        pane.show(noise)
        escaped = f"{MARKUP} ␛[31mred␛[0m"
        for tab in ("raw", "stderr"):
            text = await open_tab(pilot, pane, tab, escaped)
            assert "\x1b" not in text
            body = pane.query_one(f"#detail-{tab}").query_one(Static).content
            assert all(not span.style or "bold red" not in str(span.style) for span in body.spans)


# ---- json view --------------------------------------------------------------------------------


def test_json_view_caps_long_documents_and_escapes_controls() -> None:
    assert pretty_lines({"a": "\x9b\x1b"}) == ["{", '  "a": "\\u009b\\u001b"', "}"]
    lines = [str(i) for i in range(10)]
    assert capped(lines, 4) == ["0", "1", "2", "3", "… 6 more lines"]
    assert capped(lines, 10) == lines
    assert json_text(list(range(5000))).endswith("… 3002 more lines")


async def test_the_exchange_list_over_records_the_journal_keeps_on_disk(tmp_path: Path) -> None:
    """Rows, filter, sort and a late change, with all but the newest records read back from the
    journal's file: the list holds their places, not the records."""
    journal = Journal()
    journal.records.keep = 2
    writer = JsonlWriter(tmp_path / "s.jsonl").attach(journal, as_store=True)
    fill(journal, 12)
    first = journal.records[0]  # the object itself, held here as a call in flight would
    writer.flush()
    assert journal.records.in_memory() == 2
    widget = ExchangeList(journal)
    app = harness(widget)
    async with app.run_test() as pilot:
        await until(pilot, lambda: len(widget.rows) == 12)
        assert [r.seq for r in widget.rows] == list(range(1, 13))
        widget.set_filter(lambda record: record.hook == "b")
        assert [r.seq for r in widget.rows] == [2, 4, 6, 8, 10, 12]
        widget.set_filter(None)
        widget.sort_by(1, descending=True)  # the time column
        assert [r.seq for r in widget.rows][:3] == [12, 11, 10]
        widget.sort_by(None)
        journal.add_findings(first, Finding("late-answer", "warning", "an answer came late"))
        writer.flush()
        await until(pilot, lambda: bool(widget.rows[0].findings))
        await pilot.press("home")
        assert widget.highlighted_record is not None
        assert [f.code for f in widget.highlighted_record.findings] == ["late-answer"]
    writer.close()
