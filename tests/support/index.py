"""A saved journal with its index beside it, as the journal's writer leaves it, for the tests
that plant things in that index (tests/journal/test_index_trust.py,
tests/cli/test_fuzz_readers.py)."""

from __future__ import annotations

from pathlib import Path

from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, load_journal
from inspector.journal.records import STATUS_OK, Exchange, Stderr

CALLS, DENIED_EVERY = 21, 4  # 26 records in all: 21 calls (6 of them denied) and 5 stderr lines


def denials_journal(path: Path) -> Path:
    """A session's journal with its index: calls, some of them denied, and a hook's stderr."""
    journal = Journal()
    for number in range(CALLS):
        action = "deny" if number % DENIED_EVERY == 1 else "allow"
        journal.append(
            Exchange(
                hook="gate",
                method="hook.approve_tool",
                status=STATUS_OK,
                action=action,
                raw_request=f'{{"tool": "exec", "command": "step {number}"}}',
            )
        )
        if number % 4 == 3:
            journal.append(Stderr(hook="gate", line=f"checked step {number}"))
    JsonlWriter(path).attach(journal).close()
    return path


def every_line(path: Path) -> list[dict[str, object]]:
    """The journal's records as reading every line gives them: what an index may not change."""
    return [record.to_json() for record in load_journal(path).records]
