"""`hook-inspector export`: a saved session written again as a journal, secrets redacted."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from inspector.journal.jsonl import JournalLoadError, dumps
from inspector.journal.private_file import JournalFileError, write_private
from inspector.journal.redact import redact_session
from inspector.journal.saved import open_journal

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def export_session(source: Path, target: Path, *, redact_secrets: bool) -> int:
    """Write every record of `source` to `target` as JSONL (what `load_journal` reads), each
    redacted unless told otherwise; say on stderr how many records held a secret. Records go
    through one at a time, read back from the saved session, so a long one fits in memory."""
    try:
        records = open_journal(source).records
    except JournalLoadError as error:
        print(f"hook-inspector: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    changed = 0

    def exported() -> Iterator[str]:
        nonlocal changed
        if not redact_secrets:
            yield from map(dumps, records)
            return
        for record, redacted in zip(records, redact_session(records), strict=True):
            line = dumps(redacted)
            changed += line != dumps(record)
            yield line

    try:
        write_private(target, exported())
    except JournalFileError as error:
        print(f"hook-inspector: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    how = f"secrets redacted in {changed:,} of them" if redact_secrets else "not redacted"
    print(f"{len(records):,} records written to {target}; {how}", file=sys.stderr)
    return EXIT_OK
