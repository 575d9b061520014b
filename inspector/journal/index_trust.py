"""Whether an index folder beside a journal may be believed, and its files opened so that nothing
in it can hang, flood or redirect the reader.

Anyone who can write beside a journal (a sticky /tmp, a team share) can make `FILE.index/` first,
and anyone can stat the journal to copy its size, mtime and inode into a meta.json. So an index
is read only from a real folder (not a link) owned by this user and writable by nobody else, and
each of its files only when it is a regular file of this user's (opened without following a
link and without blocking: a FIFO is refused, not waited on) no larger than the journal it
describes could make it. What is left (rows that lie about where a line is) the reader of the
lines checks as it reads them (store.py)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

# The most rows an index of a journal of `size` bytes may have: a row per seq, each line at least
# a byte, and seqs up to SPARSE_SLACK past the count (saved.py reads sparser journals whole).
SPARSE_SLACK = 1_000_000
# The searched text and the column values come from the lines, lowercased or JSON-escaped (a
# character of 4 bytes is 12 as an escape), written again when a record is.
TEXT_FACTOR, TEXT_SLACK = 16, 1 << 20
FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
NEWLINE = ord("\n")


class UntrustedIndex(OSError):
    """An index folder or file this user cannot take at its word. `str()` is the reason."""


def max_rows(journal_size: int) -> int:
    return journal_size + SPARSE_SLACK + 1


def max_text(journal_size: int) -> int:
    return TEXT_FACTOR * journal_size + TEXT_SLACK


def open_index_file(folder: Path, name: str, limit: int) -> int:
    """A descriptor of `folder/name` for reading, when the folder is privately this user's and
    the file a regular one of theirs of at most `limit` bytes; UntrustedIndex (or another
    OSError: it is not there) otherwise."""
    folder_fd = os.open(folder, FOLDER_FLAGS)
    try:
        _check_folder(os.fstat(folder_fd))
        fd = os.open(name, FILE_FLAGS, dir_fd=folder_fd)
    finally:
        os.close(folder_fd)
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_uid != os.geteuid():
            raise UntrustedIndex(f"{folder / name} is not a regular file of this user's")
        if status.st_size > limit:
            raise UntrustedIndex(f"{folder / name} is larger than its journal could make it")
        os.set_blocking(fd, True)
        return fd
    except BaseException:
        os.close(fd)
        raise


def read_index_file(folder: Path, name: str, limit: int) -> bytes:
    """The whole of a trusted index file (open_index_file) of at most `limit` bytes."""
    fd = open_index_file(folder, name, limit)
    try:
        data = os.pread(fd, limit + 1, 0)
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew since it was checked
        raise UntrustedIndex(f"{folder / name} is larger than its journal could make it")
    return data


def is_own_folder(folder: Path) -> bool:
    """Whether `folder` is a real folder (not a link) privately this user's: one the writer may
    have made and may remove."""
    try:
        _check_folder(os.lstat(folder))
    except OSError:
        return False
    return True


def _check_folder(status: os.stat_result) -> None:
    if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.geteuid():
        raise UntrustedIndex("the index folder is not this user's")
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UntrustedIndex("the index folder may be written to by others")


class StaleIndex(ValueError):
    """A line read through an index is not where its row says (or not the row's record): the
    index does not describe the journal, and the journal itself is read instead."""


def is_whole_line(data: bytes, at: int, size: int) -> bool:
    """Whether `data[at:at + size]` is a whole line: it ends in a newline and one comes right
    before it, or `at` is 0 (`data` is read from a byte before the line, or the file's start)."""
    return (
        size > 0
        and at + size <= len(data)
        and data[at + size - 1] == NEWLINE
        and (at == 0 or data[at - 1] == NEWLINE)
    )
