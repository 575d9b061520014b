"""`hook-inspector export` against a corpus: every planted secret is gone from the file, every
look-alike comes out byte for byte (tests/data/secrets_corpus.yaml)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.main import main
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, dumps, load_journal
from inspector.journal.records import Record
from inspector.journal.redact import redact_session
from tests.support.secrets_corpus import corpus, label, records_for, secret_value

SECRETS = corpus()["secrets"]
LOOKALIKES = corpus()["lookalikes"]


def planted(entries: list[dict[str, Any]], value_of: Any) -> list[Record]:
    return [
        record
        for number, entry in enumerate(entries)
        for record in records_for(entry, value_of(entry), f"hook-{number}")
    ]


def exported_text(records: list[Record]) -> str:
    return "\n".join(dumps(record) for record in redact_session(records))


def forms(secret: str) -> list[str]:
    """The secret as it would show in a JSONL file: raw, and escaped inside a JSON string."""
    return [secret, json.dumps(secret, ensure_ascii=False)[1:-1]]


def saved(records: list[Record], path: Path) -> Path:
    journal = Journal()
    for record in records:
        journal.append(record)
    JsonlWriter(path).attach(journal).close()
    return path


def test_the_corpus_is_large_enough() -> None:
    assert len(SECRETS) >= 100
    assert len(LOOKALIKES) >= 100
    assert len({entry["secret"] for entry in SECRETS}) == len(SECRETS)


@pytest.mark.parametrize("entry", SECRETS, ids=label)
def test_a_planted_secret_is_hidden(entry: dict[str, Any]) -> None:
    text = exported_text(records_for(entry, secret_value(entry), "gate"))
    assert [form for form in forms(entry["secret"]) if form in text] == []


@pytest.mark.parametrize("entry", LOOKALIKES, ids=label)
def test_a_lookalike_stays_byte_for_byte(entry: dict[str, Any]) -> None:
    records = records_for(entry, entry["value"], "gate")
    assert [dumps(record) for record in redact_session(records)] == [dumps(r) for r in records]


def test_export_of_the_whole_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = planted(SECRETS, secret_value) + planted(LOOKALIKES, lambda entry: entry["value"])
    source = saved(records, tmp_path / "session.jsonl")
    out = tmp_path / "shared.jsonl"
    assert main(["export", str(source), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    leaked = [
        entry["secret"] for entry in SECRETS if any(f in text for f in forms(entry["secret"]))
    ]
    assert leaked == []
    source_lines = source.read_text(encoding="utf-8").splitlines()
    out_lines = text.splitlines()
    secret_lines = len(planted(SECRETS, secret_value))
    assert out_lines[secret_lines:] == source_lines[secret_lines:]  # look-alikes untouched
    assert len(load_journal(out).records) == len(records)
    changed = sum(old != new for old, new in zip(source_lines, out_lines, strict=True))
    assert f"secrets redacted in {changed} of them" in capsys.readouterr().err
