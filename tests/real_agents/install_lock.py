"""One install at a time into the shared cache folder.

pytest-xdist's workers each run the session fixtures, and two checkouts may test on one machine:
without a lock, two would download the same packages side by side, and the one that finished
second would remove the folder the first was already running its CLI from."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def install_lock(folder: Path) -> Iterator[None]:
    """Held while `folder` is checked and, if need be, installed; released on leaving."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
