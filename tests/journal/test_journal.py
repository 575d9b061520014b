import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.journal.journal import Journal
from inspector.journal.jsonl import JournalLoadError, JsonlWriter, load_journal
from inspector.journal.records import (
    Decision,
    Event,
    Exchange,
    Finding,
    Lifecycle,
    Noise,
    Record,
    Stderr,
)
from tests.support.paths import PACKAGE


def sample_records() -> list[Record]:
    return [
        Lifecycle(hook="gate", state="ready", pid=42),
        Exchange(
            hook="gate",
            method="hook.before_tool",
            request={"jsonrpc": "2.0", "id": 2, "method": "hook.before_tool", "params": {}},
            response={"jsonrpc": "2.0", "id": 2, "result": {"action": "continue"}},
            status="ok",
            duration_ms=1.5,
            findings=[Finding("slow-answer", "warning", "slow", "nothing")],
            action="continue",
        ),
        Event(kind="agent.turn.start", payload={"kind": "agent.turn.start"}, delivered=["log"]),
        Stderr(hook="gate", line="debug: hi", pid=42),
        Noise(hook="gate", line="oops", size=4),
        Decision(stage="approve_tool", verdict="denied", by="gate", reason="no"),
    ]


def test_append_numbers_records_and_tells_subscribers() -> None:
    journal = Journal()
    seen: list[tuple[int, bool]] = []
    unsubscribe = journal.subscribe(lambda record, new: seen.append((record.seq, new)))
    first = journal.append(Stderr(hook="a", line="x"))
    journal.amend(first, line="x2")
    unsubscribe()
    journal.append(Stderr(hook="a", line="y"))
    assert seen == [(1, True), (1, False)]
    assert journal.get(2).line == "y"  # type: ignore[union-attr]


def test_amend_changes_a_record_tells_subscribers_and_refuses_unknown_fields_whole() -> None:
    journal = Journal()
    seen: list[tuple[str, bool]] = []
    journal.subscribe(lambda record, new: seen.append((record.status, new)))  # type: ignore[attr-defined]
    exchange = journal.append(Exchange(hook="a", method="hook.before_tool", status="pending"))
    assert journal.amend(exchange, status="ok", action="continue") is exchange
    assert (exchange.status, exchange.action) == ("ok", "continue")
    with pytest.raises(AttributeError, match="exchange has no field 'colour'"):
        journal.amend(exchange, status="error", colour="red")
    assert exchange.status == "ok"
    assert seen == [("pending", True), ("ok", False)]


def test_add_findings_keeps_the_earlier_ones_and_tells_subscribers() -> None:
    journal = Journal()
    seen: list[list[str]] = []
    journal.subscribe(lambda record, new: seen.append([f.code for f in record.findings_list]))
    earlier = Finding("slow-answer", "warning", "slow")
    exchange = journal.append(Exchange(hook="a", findings=[earlier]))
    journal.add_findings(exchange, Finding("late-id", "error", "late"))
    assert seen == [["slow-answer"], ["slow-answer", "late-id"]]


def test_every_record_has_type_and_ts_and_round_trips(tmp_path: Path) -> None:
    journal = Journal()
    writer = JsonlWriter(tmp_path / "j.jsonl").attach(journal)
    for record in sample_records():
        journal.append(record)
    writer.close()
    lines = [json.loads(line) for line in (tmp_path / "j.jsonl").read_text().splitlines()]
    assert [line["type"] for line in lines] == [
        "lifecycle",
        "exchange",
        "event",
        "stderr",
        "noise",
        "decision",
    ]
    assert all(isinstance(line["ts"], float) for line in lines)
    exchange = lines[1]
    for key in ("hook", "method", "request", "response", "error", "status", "duration_ms"):
        assert key in exchange
    assert exchange["findings"] == [
        {"code": "slow-answer", "severity": "warning", "message": "slow", "host_does": "nothing"}
    ]
    loaded = load_journal(tmp_path / "j.jsonl")
    assert [record.to_json() for record in loaded.records] == [
        record.to_json() for record in journal.records
    ]


async def test_writer_flushes_within_a_fraction_of_a_second_and_skips_pending(
    tmp_path: Path,
) -> None:
    journal = Journal()
    path = tmp_path / "live.jsonl"
    writer = JsonlWriter(path).attach(journal)
    pending = journal.append(Exchange(hook="a", method="hook.before_llm"))
    journal.append(Stderr(hook="a", line="first"))
    deadline = asyncio.get_running_loop().time() + 2
    while "first" not in path.read_text():
        assert asyncio.get_running_loop().time() < deadline, "not flushed"
        await asyncio.sleep(0.02)
    assert "hook.before_llm" not in path.read_text()
    journal.amend(pending, status="ok", action="continue")
    writer.close()
    loaded = load_journal(path)
    assert [record.type for record in loaded.records] == ["exchange", "stderr"]
    assert loaded.records[0].action == "continue"  # type: ignore[attr-defined]


def test_a_torn_last_line_is_skipped_but_a_bad_middle_line_is_an_error(tmp_path: Path) -> None:
    good = json.dumps(Stderr(hook="a", line="x", seq=1).to_json())
    torn = tmp_path / "torn.jsonl"
    torn.write_text(good + "\n" + good[:20])
    assert len(load_journal(torn)) == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good + "\n[1]\n" + good + "\n")
    with pytest.raises(JournalLoadError, match=r"bad.jsonl:2"):
        load_journal(bad)


@pytest.mark.parametrize(
    ("example", "host"),
    [
        ("examples/picoclaw/demo.yaml", "picoclaw"),
        ("examples/jcli", "jcli"),
        ("examples/claude", "claude"),
    ],
)
def test_every_recorded_record_names_its_host(tmp_path: Path, example: str, host: str) -> None:
    package = PACKAGE
    journal = tmp_path / "session.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspector",
            "run",
            str(package / example),
            "--journal",
            str(journal),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode in (0, 1), done.stderr
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert lines and {line["host"] for line in lines} == {host}
    assert {record.host for record in load_journal(journal).records} == {host}


def test_a_journal_from_before_records_named_their_host_still_opens(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    lines = [
        {"type": "exchange", "ts": 1.0, "seq": 1, "hook": "g", "method": "hook.before_tool"},
        {"type": "exchange", "ts": 2.0, "seq": 2, "hook": "j", "method": "pre_tool_execution"},
        {"type": "exchange", "ts": 3.0, "seq": 3, "hook": "c", "method": "PreToolUse"},
        {"type": "stderr", "ts": 4.0, "seq": 4, "hook": "c", "line": "x"},
    ]
    old.write_text("".join(json.dumps(line) + "\n" for line in lines))
    hosts = [record.host for record in load_journal(old).records]
    assert hosts == ["picoclaw", "jcli", "claude", "picoclaw"]


def test_a_finding_saved_before_host_does_was_named_reads_what_the_host_does() -> None:
    old = {"code": "slow-answer", "severity": "warning", "message": "slow", "picoclaw": "waits"}
    assert Finding.from_json(old).host_does == "waits"
