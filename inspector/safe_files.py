"""Opening a file the user named: a regular file only, and only up to a size, so a FIFO, a
device or a huge file is a clear error instead of a hang or a full memory. Standard library
only: the relay reads its token file through this too, and it must start fast."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

MIB = 1024 * 1024
MAX_FILE_BYTES = 64 * MIB
"""Configs, scenarios, settings and themes: far beyond any real one."""

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class RefusedFile(OSError):
    """A path that is not a regular file, or a file over the size limit. `str()` and
    `strerror` are the reason alone; the caller names the file."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.strerror = reason

    def __str__(self) -> str:
        return self.reason


def open_regular(path: str | Path) -> BinaryIO:
    """`path` opened for binary reading; RefusedFile unless it is a regular file. Opening does
    not block on a FIFO nobody writes to."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "of another kind")
            raise RefusedFile(f"not a regular file: it is {kind}")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes_limited(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The whole of a regular file of at most `limit` bytes; RefusedFile otherwise."""
    with open_regular(path) as file:
        size = os.fstat(file.fileno()).st_size
        data = b"" if size > limit else file.read(limit + 1)
    if size > limit or len(data) > limit:  # the second: it grew while being read
        raise RefusedFile(too_large(max(size, len(data)), limit))
    return data


def too_large(size: int, limit: int) -> str:
    return f"too large: {size:,} bytes (the limit is {_amount(limit)})"


def _amount(limit: int) -> str:
    return f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit:,} bytes"
