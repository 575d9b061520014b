"""A filter over the journal's index (columns and lowercased text) selects exactly the records
the same filter selects record by record: in a live session (some records written and indexed,
some still in flight), and in a saved session opened through its index."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.filter import compile_filter
from inspector.filter.select import select
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, dumps
from inspector.journal.record_fields import RecordFieldError
from inspector.journal.records import (
    RECORD_TYPES,
    STATUS_OK,
    STATUS_PENDING,
    Exchange,
    Finding,
    Record,
    Stderr,
    record_from_json,
)
from inspector.journal.saved import open_journal
from tests.filter.test_filter import RECORDS, records_of_every_type, valid_expressions

EVERY_TYPE = tuple(RECORD_TYPES.values())
EXPRESSIONS = [
    "hook:review-gate",
    "hook:REVIEW*",
    "method:before_tool & !status:ok",
    "source:relay",
    "severity:warn | finding:late-*",
    "finding",
    "type:exchange tool:exec",
    "turn:t-1 or kind:turn_start",
    "rm -rf",
    "Destructive",
    '"deny_tool"',
    "KeyError exec",
    "ǅemo",
    "\u0130stanbul",
    "host:claude | host:jcli",
    "state:ready",
    "42",
    "ud800",
    "\ud800",
]


def readable(record: Record) -> bool:
    """A record the journal can write and read back as it was (a hand-made one may not be)."""
    try:
        return record_from_json(json.loads(dumps(record))).to_json() == json.loads(dumps(record))
    except (RecordFieldError, ValueError, RecursionError):
        return False


def by_record(journal: Journal, expression: str) -> list[int]:
    test = compile_filter(expression)
    return [p for p, record in enumerate(journal.records) if test(record)]


def by_index(journal: Journal, expression: str) -> list[int]:
    return select(journal.records, EVERY_TYPE, compile_filter(expression))


def live_session(folder: Path, records: list[Record], in_flight: int = 2) -> Journal:
    """`records` written (and indexed), then `in_flight` calls not finished yet."""
    journal = Journal()
    journal.records.keep = 3
    writer = JsonlWriter(folder / "live.jsonl").attach(journal, as_store=True)
    for record in records:
        journal.append(record)
    writer.flush()
    for n in range(in_flight):
        journal.append(Exchange(hook=f"h{n}", method="hook.before_tool", status=STATUS_PENDING))
    return journal


def known_records() -> list[Record]:
    extra = [
        Exchange(hook="gate", method="hook.before_tool", status=STATUS_OK, raw_request="ǅemo"),
        Stderr(hook="gate", line="İstanbul Destructive rm -rf"),
        Stderr(hook="gate", line="destructive, keyerror: in lowercase only"),
        Stderr(hook="gate", line="a lone surrogate: a\ud800b"),
        Exchange(
            hook="gate",
            method="hook.before_tool",
            status=STATUS_OK,
            findings=[Finding("late-answer", "warning", "late")],
            request={"params": {"tool": {"name": "exec"}}},
        ),
    ]
    return [record for record in [*RECORDS.values(), *extra] if readable(record)]


def test_every_expression_selects_the_same_over_the_index_live_and_saved(tmp_path: Path) -> None:
    live = live_session(tmp_path, known_records())
    saved = open_journal(tmp_path / "live.jsonl")
    assert live.records.columns.known == len(live) - 2 and saved.records.columns.known
    for expression in EXPRESSIONS:
        assert by_index(live, expression) == by_record(live, expression), expression
        assert by_index(saved, expression) == by_record(saved, expression), expression


def test_marked_rows_are_found_through_the_index(tmp_path: Path) -> None:
    journal = live_session(tmp_path, known_records())
    marked = {journal.records[1].seq, journal.records[-1].seq}
    shown = select(journal.records, EVERY_TYPE, compile_filter("marked:yes", marked))
    assert shown == [1, len(journal) - 1]
    hidden = select(journal.records, EVERY_TYPE, compile_filter("!marked:no", marked))
    assert hidden == shown


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_expressions, st.lists(records_of_every_type(), max_size=6))
def test_any_expression_over_any_records_selects_the_same_over_the_index(
    expression: str, records: list[Record]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        journal = live_session(Path(folder), [r for r in records if readable(r)] + known_records())
        assert by_index(journal, expression) == by_record(journal, expression)
        saved = open_journal(Path(folder) / "live.jsonl")
        assert by_index(saved, expression) == by_record(saved, expression)


def test_a_column_past_256_values_widens_and_is_still_found(tmp_path: Path) -> None:
    calls = [
        Exchange(hook="gate", method="hook.before_tool", status=STATUS_OK, turn=f"t-{n}")
        for n in range(300)
    ]
    live = live_session(tmp_path, calls, in_flight=0)
    saved = open_journal(tmp_path / "live.jsonl")
    for journal in (live, saved):
        codes = journal.records.columns.codes
        assert (codes["turn"].typecode, codes["hook"].typecode) == ("I", "B")
        assert by_index(journal, "turn:t-299") == by_record(journal, "turn:t-299") == [299]
        assert by_index(journal, "turn:t-1*") == by_record(journal, "turn:t-1*")
