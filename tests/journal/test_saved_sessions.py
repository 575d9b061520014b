"""A saved session opened through its index (the folder the writer keeps beside the journal):
the same records as reading every line, without reading them until asked; an index that does
not describe the file is never used; a journal without one is indexed on its first open."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector.filter import compile_filter
from inspector.filter.select import select
from inspector.journal import saved
from inspector.journal.column_store import UNKNOWN, Columns, Dictionary
from inspector.journal.columns import COLUMN_NAMES, Value
from inspector.journal.index_files import SavedIndex, index_folder, read_index
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JournalLoadError, JsonlWriter, dumps, load_journal
from inspector.journal.records import (
    RECORD_TYPES,
    STATUS_OK,
    STATUS_PENDING,
    Event,
    Exchange,
    Finding,
    Stderr,
)
from inspector.journal.saved import open_journal

EVERY_TYPE = tuple(RECORD_TYPES.values())


def value_of(columns: Columns, name: str, position: int) -> object:
    """A column's value for the record at `position`, as the index keeps it."""
    return columns.dictionary.values[name][columns.codes[name][position]]


def as_json(journal: Journal) -> list[dict[str, object]]:
    return [record.to_json() for record in journal.records]


@pytest.fixture(scope="module")
def demo_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal `hook-inspector run` wrote: every kind of record the demo makes."""
    path = tmp_path_factory.mktemp("demo") / "demo.jsonl"
    subprocess.run(
        [sys.executable, "-m", "inspector", "run", "--journal", str(path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return path


def test_a_session_the_app_wrote_opens_through_its_index_as_every_line_reads(
    demo_journal: Path,
) -> None:
    assert (index_folder(demo_journal) / "meta.json").is_file()
    opened = open_journal(demo_journal)
    assert opened.records.in_memory() == 0  # nothing read until asked for
    assert as_json(opened) == as_json(load_journal(demo_journal))
    columns = opened.records.columns
    assert columns.known == len(opened)
    assert {value_of(columns, "hook", p) for p in range(len(opened))} >= {"redactor", "weather"}


def test_the_index_and_its_text_are_as_private_as_the_journal(demo_journal: Path) -> None:
    folder = index_folder(demo_journal)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(entry.stat().st_mode) for entry in folder.iterdir()} == {0o600}


def test_calls_never_finished_are_left_out_and_a_later_change_wins(tmp_path: Path) -> None:
    journal = Journal()
    writer = JsonlWriter(tmp_path / "s.jsonl").attach(journal, as_store=True)
    first = journal.append(Exchange(hook="a", method="hook.before_tool", status=STATUS_OK))
    journal.append(Exchange(hook="a", method="hook.before_tool", status=STATUS_PENDING))
    journal.append(Stderr(hook="a", line="after the pending one"))
    writer.flush()
    journal.add_findings(first, Finding("late-answer", "warning", "written again"))
    writer.close()  # the pending call is never written: the session was killed
    opened = open_journal(tmp_path / "s.jsonl")
    assert [r.seq for r in opened.records] == [1, 3]
    assert [f.code for f in opened.records[0].findings] == ["late-answer"]
    assert value_of(opened.records.columns, "finding", 0) == ("late-answer",)
    assert as_json(opened) == as_json(load_journal(tmp_path / "s.jsonl"))


def test_a_journal_changed_after_its_index_is_read_again_and_its_index_left_alone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.jsonl"
    journal = Journal()
    journal.append(Stderr(hook="a", line="one"))
    JsonlWriter(path).attach(journal).close()
    assert read_index(path) is not None
    with path.open("a", encoding="utf-8") as out:  # appended by hand: the index is stale
        out.write(dumps(Stderr(seq=2, hook="a", line="two")) + "\n")
    assert read_index(path) is None
    assert [r.line for r in open_journal(path).records] == ["one", "two"]  # type: ignore[attr-defined]
    assert (index_folder(path) / "meta.json").is_file()  # maybe a live writer's: not touched


def test_a_live_sessions_journal_opened_meanwhile_keeps_its_writers_index(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    journal = Journal()
    writer = JsonlWriter(path).attach(journal, as_store=True)
    journal.append(Stderr(hook="a", line="one"))
    writer.flush()
    os.utime(path, ns=(1, 1))  # as if a line landed after the index was last brought up to date
    meta = (index_folder(path) / "meta.json").read_bytes()
    assert [r.line for r in open_journal(path).records] == ["one"]  # type: ignore[attr-defined]
    assert (index_folder(path) / "meta.json").read_bytes() == meta  # the writer's, untouched
    journal.append(Stderr(hook="a", line="two"))
    writer.close()
    saved = read_index(path)
    assert saved is not None and list(saved.seqs) == [1, 2]


def test_a_journal_found_bad_past_its_first_lines_leaves_no_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saved, "SCAN_BATCH", 1)  # the first lines are indexed before the bad one
    path = tmp_path / "bad.jsonl"
    good = [dumps(Stderr(seq=n, hook="a", line="fine")) for n in (1, 2)]
    path.write_text(f'{good[0]}\n{good[1]}\n{{"type": "stderr", "seq": "three"}}\n')
    for _ in range(2):  # and the second open says the same as the first
        with pytest.raises(JournalLoadError, match=":3:"):
            open_journal(path)
    assert not index_folder(path).exists()


def test_a_journal_without_an_index_is_indexed_beside_it_on_its_first_open(
    demo_journal: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "shared.jsonl"
    copy.write_bytes(demo_journal.read_bytes())  # shared without its index folder
    assert read_index(copy) is None
    assert as_json(open_journal(copy)) == as_json(load_journal(demo_journal))
    assert read_index(copy) is not None


def test_a_journal_whose_index_cannot_be_made_beside_it_is_indexed_elsewhere(
    demo_journal: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "shared.jsonl"
    copy.write_bytes(demo_journal.read_bytes())
    index_folder(copy).write_text("a file of the user's where the folder would go")
    assert as_json(open_journal(copy)) == as_json(load_journal(demo_journal))
    assert index_folder(copy).read_text().startswith("a file of the user's")


def test_a_bad_line_in_a_journal_without_an_index_is_named_as_reading_every_line_names_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bad.jsonl"
    good = dumps(Stderr(seq=1, hook="a", line="fine"))
    path.write_text(f'{good}\n{{"type": "stderr", "seq": "two"}}\n{good}\n', encoding="utf-8")
    with pytest.raises(JournalLoadError) as opened:
        open_journal(path)
    with pytest.raises(JournalLoadError) as loaded:
        load_journal(path)
    assert str(opened.value) == str(loaded.value) and ":2:" in str(opened.value)


def test_a_folder_of_the_users_own_with_the_index_name_is_never_removed(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    mine = index_folder(path)
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    journal = Journal()
    journal.append(Stderr(hook="a", line="x"))
    JsonlWriter(path).attach(journal).close()  # no index: the name is taken
    assert (mine / "notes.txt").read_text() == "mine"
    assert [r.to_json() for r in open_journal(path).records] == as_json(journal)


def test_records_not_written_yet_have_unknown_columns_and_written_ones_their_values(
    tmp_path: Path,
) -> None:
    journal = Journal()
    writer = JsonlWriter(tmp_path / "s.jsonl").attach(journal, as_store=True)
    journal.append(Event(kind="turn_start", payload={"scope": {"turn_id": "Turn-1"}}))
    pending = journal.append(Exchange(hook="a", method="hook.before_tool", status=STATUS_PENDING))
    writer.flush()
    columns = journal.records.columns
    assert value_of(columns, "turn", 0) == "Turn-1" and value_of(columns, "kind", 0) == "turn_start"
    assert columns.codes["hook"][1] == UNKNOWN
    journal.amend(pending, status=STATUS_OK, duration_ms=2.5)
    writer.close()
    assert (value_of(columns, "status", 1), columns.durations[1]) == ("ok", 2.5)
    (block,) = journal.records.text_blocks([0, 1])
    starts, ends = block.bounds()
    assert block.positions == [0, 1]
    assert json.loads(block.data[starts[0] : ends[0]]) == {"scope": {"turn_id": "turn-1"}}


def test_columns_gone_after_open_leave_filters_testing_records_one_by_one(
    demo_journal: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "s.jsonl"
    copy.write_bytes(demo_journal.read_bytes())
    opened = open_journal(copy)  # indexed; its columns are read when first asked for
    (index_folder(copy) / "columns").unlink()
    assert opened.records.columns.known == 0
    test = compile_filter("hook:redactor | weather")
    expected = [p for p, record in enumerate(opened.records) if test(record)]
    assert expected and select(opened.records, EVERY_TYPE, test) == expected


def test_an_index_of_another_version_is_replaced_by_the_writer(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    old = index_folder(path)
    old.mkdir()
    (old / "meta.json").write_text('{"version": 1}')
    (old / "col-hook").write_bytes(b"\0" * 8)
    journal = Journal()
    journal.append(Stderr(hook="a", line="x"))
    JsonlWriter(path).attach(journal).close()
    assert not (old / "col-hook").exists() and read_index(path) is not None


def test_values_that_python_takes_for_equal_keep_codes_of_their_own() -> None:
    dictionary = Dictionary()
    values: list[Value] = ["1", 1, True, 1.0, None, ("1",), "True"]
    codes = [dictionary.codes([value] * len(COLUMN_NAMES), [])[0] for value in values]
    assert len(set(codes)) == len(values)
    numbered = [dictionary.values[COLUMN_NAMES[0]][code] for code in codes]
    assert [(type(v), v) for v in numbered] == [(type(v), v) for v in values]


def test_a_journal_numbered_from_zero_opens_as_every_line_reads(tmp_path: Path) -> None:
    path = tmp_path / "zero.jsonl"
    path.write_text("".join(dumps(Stderr(seq=n, hook="a", line=str(n))) + "\n" for n in (0, 1)))
    assert as_json(open_journal(path)) == as_json(load_journal(path))


def test_a_journal_numbered_far_apart_by_hand_is_read_whole_not_indexed(tmp_path: Path) -> None:
    path = tmp_path / "far.jsonl"
    path.write_text(dumps(Stderr(seq=20_000_000, hook="a", line="far")) + "\n")
    assert as_json(open_journal(path)) == as_json(load_journal(path))
    assert not index_folder(path).exists()


def test_an_index_lost_mid_session_leaves_filters_testing_records(tmp_path: Path) -> None:
    journal = Journal()
    writer = JsonlWriter(tmp_path / "s.jsonl").attach(journal, as_store=True)
    first = journal.append(Stderr(hook="a", line="needle"))
    writer.flush()
    shutil.rmtree(index_folder(tmp_path / "s.jsonl"))  # as a full disk would end it
    journal.append(Stderr(hook="b", line="hay"))
    writer.flush()  # says on stderr that the index stopped

    def agree(*expressions: str) -> None:
        for expression in expressions:
            test = compile_filter(expression)
            expected = [p for p, record in enumerate(journal.records) if test(record)]
            assert select(journal.records, EVERY_TYPE, test) == expected, expression

    agree("needle", "hook:b", "hook:a")
    journal.amend(first, line="changed")
    writer.close()
    agree("needle", "changed", "hook:b")


async def test_a_change_not_written_yet_is_filtered_as_the_record_is_now(tmp_path: Path) -> None:
    """In a session (an event loop) the writer writes a change a tenth of a second later."""
    journal = Journal()
    writer = JsonlWriter(tmp_path / "s.jsonl").attach(journal, as_store=True)
    call = journal.append(Exchange(hook="a", method="hook.before_tool", status=STATUS_OK))
    writer.flush()
    journal.amend(call, action="deny")  # its index row still says no action until the flush
    assert select(journal.records, EVERY_TYPE, compile_filter("action:deny")) == [0]
    writer.close()
    assert select(journal.records, EVERY_TYPE, compile_filter("action:deny")) == [0]


def test_columns_of_a_journal_rewritten_since_it_was_opened_are_not_used(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    journal = Journal()
    writer = JsonlWriter(path).attach(journal, as_store=True)
    call = journal.append(Exchange(hook="a", method="hook.before_tool", status=STATUS_OK))
    writer.flush()
    opened = open_journal(path)  # a second reader of a live session: its columns not read yet
    journal.amend(call, action="deny")
    writer.flush()  # the line written again, its index row now describing the new line
    assert opened.records.columns.known == 0  # the rows describe lines it does not read
    assert select(opened.records, EVERY_TYPE, compile_filter("action:deny")) == []
    writer.close()


def test_a_journal_written_to_while_it_is_indexed_opens_with_what_was_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "growing.jsonl"
    path.write_text(dumps(Stderr(seq=1, hook="a", line="one")) + "\n")
    real_read_index = saved.read_index

    def read_after_a_writer_appended(*args: Any, **options: Any) -> SavedIndex | None:
        if len(args) == 2:  # the index just made: a live session's next line lands meanwhile
            with path.open("a", encoding="utf-8") as out:
                out.write(dumps(Stderr(seq=2, hook="a", line="two")) + "\n")
        return real_read_index(*args, **options)

    monkeypatch.setattr(saved, "read_index", read_after_a_writer_appended)
    opened = open_journal(path)
    assert [r.line for r in opened.records] == ["one"]  # type: ignore[attr-defined]
    test = compile_filter("one")  # its columns describe an older file: records are tested
    assert select(opened.records, EVERY_TYPE, test) == [0]
