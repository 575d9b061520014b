"""`hook-inspector export`: a saved session written again as a journal, secrets redacted."""

from __future__ import annotations

import sys
from pathlib import Path

from inspector.journal.jsonl import JournalLoadError, dumps, load_journal
from inspector.journal.private_file import JournalFileError, write_private
from inspector.journal.redact import redact_session

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def export_session(source: Path, target: Path, *, redact_secrets: bool) -> int:
    """Write every record of `source` to `target` as JSONL (what `load_journal` reads), each
    redacted unless told otherwise; say on stderr how many records held a secret."""
    try:
        records = load_journal(source).records
    except JournalLoadError as error:
        print(f"hook-inspector: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    lines = [dumps(record) for record in records]
    exported = [dumps(record) for record in redact_session(records)] if redact_secrets else lines
    try:
        write_private(target, exported)
    except JournalFileError as error:
        print(f"hook-inspector: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    changed = sum(old != new for old, new in zip(lines, exported, strict=True))
    how = f"secrets redacted in {changed:,} of them" if redact_secrets else "not redacted"
    print(f"{len(records):,} records written to {target}; {how}", file=sys.stderr)
    return EXIT_OK
