"""Journal files are private: they hold every secret a hook saw, so they are created 0600 (no
moment when they are readable by others) and an existing file is tightened to 0600."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import IO

PRIVATE_MODE = 0o600
BUFFER_SIZE = 1 << 20


class JournalFileError(Exception):
    """A journal file that cannot be written. `str()` is the one-line message naming it."""

    def __init__(self, path: str | Path, error: OSError) -> None:
        super().__init__(f"cannot write the journal {path}: {error.strerror or error}")


def open_private(path: str | Path) -> IO[str]:
    """`path` opened for writing text, emptied, readable by its owner only. Raises
    JournalFileError when it cannot be opened or takes no bytes (a directory, a missing
    folder, a full disk, /dev/full)."""
    # A hook's JSON may carry a lone surrogate ("\ud800"), which UTF-8 cannot hold; it can only
    # sit inside a JSON string, where backslashreplace writes back the same escape.
    fd = _open_private_fd(path)
    return os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", buffering=BUFFER_SIZE)


def open_private_bytes(path: str | Path) -> IO[bytes]:
    """open_private for bytes: the caller encodes (and so knows where each line starts)."""
    return os.fdopen(_open_private_fd(path), "wb", buffering=BUFFER_SIZE)


def _open_private_fd(path: str | Path) -> int:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE_MODE)
    except OSError as error:
        raise JournalFileError(path, error) from error
    try:
        _make_private_and_try(fd)
    except OSError as error:
        os.close(fd)
        raise JournalFileError(path, error) from error
    return fd


def write_private(path: str | Path, lines: Iterable[str]) -> None:
    """`lines`, each ending in a newline, as the whole of a private file."""
    file = open_private(path)
    try:
        file.writelines(line + "\n" for line in lines)
        file.close()
    except OSError as error:
        with contextlib.suppress(OSError):  # the unwritten buffer fails again
            file.close()
        raise JournalFileError(path, error) from error


def _make_private_and_try(fd: int) -> None:
    """Tighten a regular file (a device or a pipe keeps its own mode) and write one byte, so a
    target that takes none fails now, with a clear message, rather than in the middle of a
    session. A regular file is emptied again; a device gets a blank line, which loaders skip."""
    mode = os.fstat(fd).st_mode
    if stat.S_ISREG(mode):
        if stat.S_IMODE(mode) != PRIVATE_MODE:
            os.fchmod(fd, PRIVATE_MODE)
        os.write(fd, b"\n")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
    elif stat.S_ISCHR(mode):
        os.write(fd, b"\n")
