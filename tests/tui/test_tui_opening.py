"""A saved journal with no index opens at once: its first rows are on the screen, with how far
the reading is, while a thread reads and indexes the rest; filters and the hooks panel fill in
as it grows, and once every line is in the session is the one an indexed open shows. The reader
is held after chosen batches (a gate), so each test looks at a known point of the reading."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.message import Message
from textual.notifications import Notify
from textual.widgets import Input

from inspector.journal import saved
from inspector.journal.index_files import IndexWriter, Row, index_folder, read_index
from inspector.journal.jsonl import JournalLoadError, dumps, load_journal
from inspector.journal.opening import Opening
from inspector.journal.records import STATUS_ERROR, STATUS_OK, Exchange, Lifecycle, Record
from inspector.tui.app import InspectorApp
from inspector.tui.launch import read_only_session
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.hooks_panel import HooksPanel
from inspector.tui.widgets.status_line import StatusLine
from tests.support.tui import make_app, running, until
from tests.tui.test_tui_hooks_panel import panel_rows

BATCH = 20  # lines indexed together (saved.SCAN_BATCH), so that a small journal takes many
EXCHANGES = 600
HELD_S = 10.0  # the gate lets the reader go on by itself after this: a test never hangs


def exchange(seq: int) -> Exchange:
    hook = "a" if seq % 2 else "b"
    status = STATUS_ERROR if seq % 7 == 0 else STATUS_OK
    return Exchange(
        seq=seq, hook=hook, method="hook.before_tool", status=status, duration_ms=ms_of(seq)
    )


def ms_of(seq: int) -> float:
    return (seq * 37) % 101 / 10  # not in seq order: a list sorted by it is not journal order


def journal_lines(count: int) -> Iterator[Record]:
    yield Lifecycle(seq=1, hook="a", state="ready", pid=11)
    yield Lifecycle(seq=2, hook="b", state="ready", pid=12)
    for seq in range(3, count + 3):
        yield exchange(seq)


def write_journal(path: Path, records: Iterator[Record] | list[Record]) -> Path:
    path.write_text("".join(dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


class Gate:
    """Holds the reader's thread after each of `stops` (batch numbers) until `go`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *stops: int) -> None:
        self.stops = set(stops)
        self.batches = 0
        self.holding = 0  # the batch the reader is held after, 0: none
        self._go = threading.Event()
        real = IndexWriter.index

        def gated(writer: IndexWriter, *args: Any) -> list[Row]:
            rows = real(writer, *args)
            self.batches += 1
            if self.batches in self.stops:
                self.holding = self.batches
                self._go.wait(HELD_S)
                self._go.clear()
                self.holding = 0
            return rows

        monkeypatch.setattr(saved, "SCAN_BATCH", BATCH)
        monkeypatch.setattr(IndexWriter, "index", gated)

    def go(self) -> None:
        self._go.set()


def shown_when_held_after(batch: int) -> int:
    """Records handed to the views when the reader is held after indexing `batch` batches
    (before it hands that one on): a record waits a batch in case a line of a lower seq
    follows; all of the first batch shows at once."""
    return BATCH * max(1, batch - 2)


def counted_when_held_after(batch: int) -> int:
    """Records the hooks panel counts then: each is counted as it is read (its batch handed on),
    before the lists show it."""
    return BATCH * (batch - 1)


def seqs_listed(app: InspectorApp) -> list[int]:
    return [record.seq for record in app.query_one(ExchangeList).rows]


def reading(app: InspectorApp) -> str:
    state = app.query_one(StatusLine).state
    return state.reading if state is not None else ""


def read_whole(app: InspectorApp) -> bool:
    opening = app.session.opening
    return opening is not None and opening.ended.is_set() and not reading(app)


async def indexed_view(path: Path, settings: Path) -> tuple[list[int], dict[str, dict[str, str]]]:
    """What an app opening `path` through its index shows: its rows and its hooks panel."""
    assert read_index(path) is not None
    app = make_app(read_only_session(path), settings)
    assert app.session.opening is None
    async with running(app) as pilot:
        await until(pilot, lambda: app.query_one(HooksPanel).row_count == 2, what="the panel")
        return seqs_listed(app), panel_rows(app)


async def test_an_unindexed_journal_shows_its_first_rows_and_how_far_it_is_read_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_journal(tmp_path / "shared.jsonl", journal_lines(EXCHANGES))
    gate = Gate(monkeypatch, 3)
    app = make_app(read_only_session(path), tmp_path / "settings")
    async with running(app) as pilot:
        await until(pilot, lambda: gate.holding == 3, what="the reader at its third batch")
        shown = shown_when_held_after(3)
        await until(pilot, lambda: len(app.engine.journal) == shown, what="what was read shown")
        await until(pilot, lambda: "reading" in reading(app), what="the progress line")
        assert seqs_listed(app) == list(range(3, shown + 1))  # the lifecycles are events
        assert "%" in reading(app) and f"{shown:,} records" in reading(app)
        assert read_index(path) is None  # not indexed yet: it is being read
        gate.go()
        await until(pilot, lambda: read_whole(app), what="every line read")
        assert app.engine.journal.records.saved is not None  # now through the index made
        await until(pilot, lambda: int(panel_rows(app)["a"]["calls"]) == EXCHANGES // 2)
        listed, panel = seqs_listed(app), panel_rows(app)
    assert listed == list(range(3, EXCHANGES + 3))
    assert (listed, panel) == await indexed_view(path, tmp_path / "settings")


async def test_a_filter_typed_while_the_journal_is_read_applies_to_what_is_read_and_fills_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_journal(tmp_path / "shared.jsonl", journal_lines(EXCHANGES))
    gate = Gate(monkeypatch, 3, 6)
    app = make_app(read_only_session(path), tmp_path / "settings")
    hook_a = [seq for seq in range(3, EXCHANGES + 3) if seq % 2]
    async with running(app) as pilot:
        await until(pilot, lambda: gate.holding == 3, what="the reader at its third batch")
        await until(pilot, lambda: len(app.engine.journal) == shown_when_held_after(3))
        app.query_one("#filter", Input).value = "hook:a & !status:error"
        wanted = [seq for seq in hook_a if seq % 7]
        up_to_3 = [seq for seq in wanted if seq <= shown_when_held_after(3)]
        await until(pilot, lambda: seqs_listed(app) == up_to_3, what="the filter applied")
        gate.go()
        await until(pilot, lambda: gate.holding == 6, what="the reader at its sixth batch")
        up_to_6 = [seq for seq in wanted if seq <= shown_when_held_after(6)]
        await until(pilot, lambda: seqs_listed(app) == up_to_6, what="the rows filled in")
        assert "reading" in reading(app)
        gate.go()
        await until(pilot, lambda: read_whole(app), what="every line read")
        await until(pilot, lambda: seqs_listed(app) == wanted, what="every match listed")


async def test_the_hooks_panel_counts_the_calls_read_so_far_and_at_the_end_all_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_journal(tmp_path / "shared.jsonl", journal_lines(EXCHANGES))
    gate = Gate(monkeypatch, 3, 6)
    app = make_app(read_only_session(path), tmp_path / "settings")

    def calls_and_failures(hook: str, up_to: int) -> tuple[str, str]:
        ran = [seq for seq in range(3, up_to + 1) if (seq % 2 == 1) == (hook == "a")]
        return str(len(ran)), str(sum(1 for seq in ran if seq % 7 == 0))

    def panel_counts() -> tuple[str, str]:
        row = panel_rows(app).get("a", {})
        return row.get("calls", ""), row.get("fail", "")

    async with running(app) as pilot:
        for stop in (3, 6):
            await until(pilot, lambda stop=stop: gate.holding == stop, what=f"batch {stop}")
            up_to = counted_when_held_after(stop)
            await until(pilot, lambda up_to=up_to: panel_counts() == calls_and_failures("a", up_to))
            assert panel_rows(app)["a"]["state"] == "ready"
            gate.go()
        await until(pilot, lambda: read_whole(app), what="every line read")
        await until(pilot, lambda: panel_counts() == calls_and_failures("a", EXCHANGES + 2))
        panel = panel_rows(app)
    assert panel == (await indexed_view(path, tmp_path / "settings"))[1]


async def test_rows_sorted_while_the_journal_is_read_take_their_places_as_it_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_journal(tmp_path / "shared.jsonl", journal_lines(EXCHANGES))
    gate = Gate(monkeypatch, 3, 6)
    app = make_app(read_only_session(path), tmp_path / "settings")

    def by_ms_descending(up_to: int) -> list[int]:
        return sorted(range(3, up_to + 1), key=lambda seq: (-ms_of(seq), seq))

    async with running(app) as pilot:
        await until(pilot, lambda: gate.holding == 3, what="the reader at its third batch")
        await until(pilot, lambda: len(app.engine.journal) == shown_when_held_after(3))
        rows = app.query_one(ExchangeList)
        rows.sort_by([column.title for column in rows.COLUMNS].index("ms"), descending=True)
        assert seqs_listed(app) == by_ms_descending(shown_when_held_after(3))
        gate.go()
        await until(pilot, lambda: gate.holding == 6, what="the reader at its sixth batch")
        up_to = shown_when_held_after(6)
        await until(pilot, lambda: seqs_listed(app) == by_ms_descending(up_to), what="in place")
        gate.go()
        await until(pilot, lambda: read_whole(app), what="every line read")
        await until(pilot, lambda: seqs_listed(app) == by_ms_descending(EXCHANGES + 2))
        assert rows.sort == ("ms", True)


async def test_lines_out_of_order_and_written_again_end_as_an_indexed_open_shows_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call that finished late (its line after later ones) and a record written again after
    a change (its later line wins), as a live session's writer leaves them."""
    records: list[Record] = list(journal_lines(EXCHANGES))
    late = records.pop(50)  # seq 51, written after batch 5
    records.insert(5 * BATCH + 3, late)
    records.insert(4 * BATCH, replace(exchange(9), action="deny"))
    path = write_journal(tmp_path / "shared.jsonl", records)
    gate = Gate(monkeypatch, 8)
    app = make_app(read_only_session(path), tmp_path / "settings")
    async with running(app) as pilot:
        await until(pilot, lambda: gate.holding == 8, what="the reader at its eighth batch")
        app.query_one("#filter", Input).value = "action:deny"
        await until(pilot, lambda: seqs_listed(app) == [9], what="the line written again")
        app.query_one("#filter", Input).value = ""
        await until(pilot, lambda: 51 not in seqs_listed(app) and 52 in seqs_listed(app))
        gate.go()
        await until(pilot, lambda: read_whole(app), what="every line read")
        await until(pilot, lambda: 51 in seqs_listed(app), what="the late call in its place")
        listed, panel = seqs_listed(app), panel_rows(app)
    assert listed == list(range(3, EXCHANGES + 3))
    assert (listed, panel) == await indexed_view(path, tmp_path / "settings")


async def test_a_bad_line_found_after_the_first_screen_is_named_and_what_was_read_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "shared.jsonl"
    good = [dumps(record) for record in journal_lines(EXCHANGES)]
    bad_at = 10 * BATCH + 5  # a line number: after the first screen
    lines = [*good[: bad_at - 1], '{"type": "exchange", "seq": "ten"}', *good[bad_at - 1 :]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(JournalLoadError) as loaded:
        load_journal(path)
    assert f":{bad_at}:" in str(loaded.value)
    gate = Gate(monkeypatch, 3)
    notes: list[str] = []

    def note(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(f"{message.notification.title}: {message.notification.message}")

    app = make_app(read_only_session(path), tmp_path / "settings")
    async with running(app, message_hook=note) as pilot:
        await until(pilot, lambda: gate.holding == 3, what="the first screen up")
        gate.go()
        await until(pilot, lambda: any(str(loaded.value) in n for n in notes), what="the message")
        assert len(app.engine.journal) == bad_at - 1  # every record before the bad line
        assert seqs_listed(app) == list(range(3, bad_at))
        assert reading(app).startswith("read in part")
        assert any(n.startswith("Journal read in part") for n in notes)
    assert not index_folder(path).exists()  # no index of a journal that is not one


async def test_closing_while_the_journal_is_read_leaves_no_index_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_journal(tmp_path / "shared.jsonl", journal_lines(EXCHANGES))
    gate = Gate(monkeypatch, 3)
    stop = Opening.stop

    def stop_then_let_it_read_on(opening: Opening) -> None:
        opening._stopping.set()  # what stop does first: the reader stops at its next batch
        gate.go()
        stop(opening)

    monkeypatch.setattr(Opening, "stop", stop_then_let_it_read_on)
    app = make_app(read_only_session(path), tmp_path / "settings")
    async with running(app) as pilot:
        await until(pilot, lambda: gate.holding == 3, what="the reader at its third batch")
    assert not index_folder(path).exists()
    assert read_index(path) is None


def test_an_index_cut_short_by_a_killed_reader_is_never_used(tmp_path: Path) -> None:
    """The reader killed between two batches (the terminal closed): the rows written so far
    describe the file's size, mtime and inode, but not all of it."""
    path = write_journal(tmp_path / "shared.jsonl", journal_lines(EXCHANGES))
    killed_after_two_batches = f"""
import os
from pathlib import Path
from inspector.journal import saved
from inspector.journal.index_files import IndexWriter
saved.SCAN_BATCH = {BATCH}
index, batches = IndexWriter.index, []
def then_killed(*args):
    rows = index(*args)
    batches.append(rows)
    if len(batches) == 2:
        os._exit(9)
    return rows
IndexWriter.index = then_killed
saved.open_journal(Path({str(path)!r}))
"""
    ran = subprocess.run([sys.executable, "-c", killed_after_two_batches], timeout=60)
    assert ran.returncode == 9
    assert read_index(path) is None
    lines = path.read_text().splitlines()
    assert [json.loads(line)["seq"] for line in lines[:3]] == [1, 2, 3]
