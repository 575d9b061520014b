"""Where a session with no --journal keeps its journal file, the store that lets old records
leave memory: a private temporary folder, removed when the session ends. A machine where none
can be made (a read-only or full $TMPDIR) gets no file, and the session keeps every record in
memory, as it did before there was a store."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

SPOOL_NAME = "session.jsonl"


@contextlib.contextmanager
def spool_file(prefix: str) -> Iterator[Path | None]:
    """A journal file path in a fresh private folder, or None when none can be made."""
    try:
        folder = Path(tempfile.mkdtemp(prefix=prefix))
    except OSError:
        yield None
        return
    try:
        yield folder / SPOOL_NAME
    finally:
        shutil.rmtree(folder, ignore_errors=True)
