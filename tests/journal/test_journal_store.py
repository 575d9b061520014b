"""The journal's file as its store: records written to it leave memory (the newest `keep` stay)
and are read back, as they were last written, when asked for."""

from __future__ import annotations

import stat
import tempfile
from pathlib import Path

import pytest

from inspector.filter.select import select
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, load_journal
from inspector.journal.records import STATUS_OK, STATUS_PENDING, Exchange, Finding, Stderr
from inspector.journal.spool import spool_file


def session(path: Path, keep: int = 3) -> tuple[Journal, JsonlWriter]:
    journal = Journal()
    journal.records.keep = keep
    return journal, JsonlWriter(path).attach(journal, as_store=True)


def call(n: int) -> Exchange:
    return Exchange(hook="h", method="hook.before_tool", request={"n": n}, status=STATUS_OK)


def test_written_records_leave_memory_and_come_back_as_they_were(tmp_path: Path) -> None:
    journal, writer = session(tmp_path / "s.jsonl")
    appended = [journal.append(call(n)) for n in range(10)]
    writer.flush()
    assert journal.records.in_memory() == 3  # the newest three
    assert [r.request for r in journal.records] == [{"n": n} for n in range(10)]
    assert [r.to_json() for r in journal.records] == [r.to_json() for r in appended]
    assert journal.records[0] is not appended[0]  # read back from the file
    assert journal.records[-1] is appended[-1]  # still held
    assert journal.get(5).request == {"n": 4}  # type: ignore[union-attr]
    assert [r.seq for r in journal.records[2:5]] == [3, 4, 5]
    assert [r.seq for r in reversed(journal.records)] == list(range(10, 0, -1))
    assert len(list(journal.of_type(Exchange))) == 10
    writer.close()
    assert [r.to_json() for r in load_journal(tmp_path / "s.jsonl").records] == [
        r.to_json() for r in appended
    ]


def test_a_change_after_it_left_memory_is_what_is_read_back(tmp_path: Path) -> None:
    journal, writer = session(tmp_path / "s.jsonl", keep=1)
    first = journal.append(call(0))
    for n in range(1, 5):
        journal.append(call(n))
    writer.flush()
    assert journal.records[0].findings == []  # read back, and kept for the next ask
    journal.add_findings(first, Finding("late-answer", "warning", "an answer came late"))
    writer.flush()
    assert [f.code for f in journal.records[0].findings] == ["late-answer"]


def test_unfinished_and_unwritten_records_stay_in_memory(tmp_path: Path) -> None:
    journal, writer = session(tmp_path / "s.jsonl", keep=0)
    pending = journal.append(Exchange(hook="h", method="hook.before_tool", status=STATUS_PENDING))
    done = journal.append(Stderr(hook="h", line="written"))
    writer.flush()
    assert journal.records[0] is pending and journal.records.in_memory() == 1
    journal.amend(pending, status=STATUS_OK)
    writer.flush()
    assert journal.records.in_memory() == 0
    assert journal.records[0].status == STATUS_OK and journal.records[1].to_json() == done.to_json()


def test_without_a_regular_file_every_record_stays(tmp_path: Path) -> None:
    journal = Journal()
    journal.records.keep = 0
    writer = JsonlWriter("/dev/null").attach(journal, as_store=True)
    appended = [journal.append(call(n)) for n in range(5)]
    writer.flush()
    assert journal.records.in_memory() == 5 and list(journal.records) == appended
    writer.close()


def test_attached_without_as_store_the_journal_keeps_everything(tmp_path: Path) -> None:
    journal = Journal()
    journal.records.keep = 0
    writer = JsonlWriter(tmp_path / "s.jsonl").attach(journal)
    appended = [journal.append(call(n)) for n in range(5)]
    writer.flush()
    assert all(a is b for a, b in zip(journal.records, appended, strict=True))
    writer.close()


def test_a_long_live_session_holds_only_the_newest(tmp_path: Path) -> None:
    journal, writer = session(tmp_path / "s.jsonl", keep=100)
    for n in range(2_000):  # each call appended in flight, then finished
        record = journal.append(Exchange(hook="h", method="hook.before_tool", request={"n": n}))
        journal.amend(record, status=STATUS_OK, response={"result": {"action": "continue"}})
        if n % 250 == 0:
            writer.flush()  # as the writer's timer does, ten times a second
    writer.flush()
    assert journal.records.in_memory() <= 100
    numbers = [r.request["n"] for r in journal.records if r.request]
    assert numbers == list(range(2_000))
    writer.close()


def test_positions_of_a_type_are_found_without_reading_records_back(tmp_path: Path) -> None:
    journal, writer = session(tmp_path / "s.jsonl", keep=0)
    for n in range(6):
        journal.append(call(n) if n % 2 else Stderr(hook="h", line=str(n)))
    writer.flush()
    writer.close()
    (tmp_path / "s.jsonl").write_text("")  # nothing can be read back now
    assert select(journal.records, (Exchange,)) == [1, 3, 5]
    assert select(journal.records, (Stderr, Exchange), first=4) == [4, 5]


def test_many_records_read_back_in_turn_are_the_same_as_one_at_a_time(tmp_path: Path) -> None:
    journal, writer = session(tmp_path / "s.jsonl", keep=2)
    first = journal.append(call(0))
    for n in range(1, 10):
        journal.append(call(n) if n % 3 else Stderr(hook="h", line=str(n)))
    writer.flush()
    journal.add_findings(first, Finding("late-answer", "warning", "its line is now the last"))
    writer.flush()
    positions = select(journal.records, (Exchange, Stderr))
    together = [record.to_json() for _position, record in journal.records.each(positions)]
    assert together == [journal.records[p].to_json() for p in positions]
    assert [f.code for f in journal.records[0].findings] == ["late-answer"]
    writer.close()


def test_a_spool_is_a_private_folder_removed_afterwards() -> None:
    with spool_file("hook-inspector-test-") as spool:
        assert spool is not None and spool.parent.is_dir()
        assert stat.S_IMODE(spool.parent.stat().st_mode) == 0o700
        spool.write_text("x")
    assert not spool.parent.exists()


def test_with_no_room_for_a_spool_there_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_room(**_options: object) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkdtemp", no_room)
    with spool_file("hook-inspector-test-") as spool:
        assert spool is None
