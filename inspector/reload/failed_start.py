"""What to tell the person when a reload's new hook version did not start: which hooks, the
first lines each wrote to stderr, and the filter that shows the rest."""

from __future__ import annotations

from inspector.journal.journal import Journal
from inspector.journal.records import Lifecycle, Record, Reload, Stderr

FIRST_LINES = 4


def failed_start_text(record: Reload, journal: Journal) -> str:
    """One paragraph per hook in `record.failed`: why it did not start and its first stderr."""
    since = record.ts - record.duration_ms / 1000
    recent = _since(journal, since)
    paragraphs = []
    for hook in record.failed:
        why = next(
            (
                r.detail
                for r in recent
                if isinstance(r, Lifecycle) and r.hook == hook and r.state in ("exited", "failed")
            ),
            "",
        )
        lines = [r.line for r in recent if isinstance(r, Stderr) and r.hook == hook]
        head = f"{hook}: the new version failed to start" + (f" ({why})" if why else "")
        shown = "\n".join(f"  {line}" for line in lines[:FIRST_LINES]) or "  (no stderr)"
        more = f"  … {len(lines) - FIRST_LINES} more lines" if len(lines) > FIRST_LINES else ""
        where = f"All of it: filter hook:{hook} & type:stderr (the event stream)."
        paragraphs.append("\n".join(part for part in (head, shown, more, where) if part))
    return "\n".join(paragraphs)


def _since(journal: Journal, since: float) -> list[Record]:
    """The journal's records from time `since` on, oldest first (walked from the end)."""
    found: list[Record] = []
    for record in reversed(journal.records):
        if record.ts < since:
            break
        found.append(record)
    return found[::-1]
