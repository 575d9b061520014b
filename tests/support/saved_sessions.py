"""A journal saved by the journal's own writer and opened again through its index, as
`hook-inspector open` opens a session: every record read back from disk."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

import pytest

from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter
from inspector.journal.records import Record
from inspector.journal.saved import open_journal

R = TypeVar("R", bound=Record)
Session = Callable[[Journal], Journal]


def reopened(journal: Journal, folder: Path, name: str = "saved.jsonl") -> Journal:
    """`journal` written to `folder/name` (its finished records, as a session writes them) and
    opened again; the file's index is beside it."""
    path = folder / name
    JsonlWriter(path).attach(journal).close()
    return open_journal(path)


def as_session(kind: str, folder: Path) -> Session:
    """The journal a view is given: the one built ("live") or it saved and opened ("opened")."""
    if kind == "opened":
        return lambda journal: reopened(journal, folder)
    assert kind == "live", kind
    return lambda journal: journal


def again(journal: Journal, record: R) -> R:
    """`record` as `journal` holds it: itself when live, read back from disk when opened."""
    found = journal.get(record.seq)
    assert isinstance(found, type(record)), f"record {record.seq} is not in the journal"
    return found


def seqs(records: Iterable[Record | None]) -> list[int | None]:
    """Records' seqs, which stand for them in both variants: one read back is a new object."""
    return [None if record is None else record.seq for record in records]


LIVE_AND_OPENED = pytest.mark.parametrize("session", ["live", "opened"], indirect=True)
