"""A journal saved by the journal's own writer and opened again through its index, as
`hook-inspector open` opens a session: every record read back from disk."""

from __future__ import annotations

from pathlib import Path

from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter
from inspector.journal.saved import open_journal


def reopened(journal: Journal, folder: Path, name: str = "saved.jsonl") -> Journal:
    """`journal` written to `folder/name` (its finished records, as a session writes them) and
    opened again; the file's index is beside it."""
    path = folder / name
    JsonlWriter(path).attach(journal).close()
    return open_journal(path)
