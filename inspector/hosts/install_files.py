"""Files a host's `install` changes: written whole or not at all, through a symbolic link rather
than over it (a dotfiles repository's settings stay linked), backed up before the first change,
and given back by `uninstall` byte for byte when what is left is what the backup holds."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from inspector.safe_files import read_bytes_limited

BACKUP_SUFFIX = ".hook-inspector.bak"


class Backup:
    """The copy of `file` as it was before install first changed it."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.path = file.with_name(file.name + BACKUP_SUFFIX)

    def keep(self) -> Path:
        """Copy the file's bytes, unless an earlier install already kept the file as it was."""
        if not self.path.exists():
            write_atomically(self.path, read_bytes_limited(self.file))
        return self.path

    def content(self) -> bytes | None:
        return read_bytes_limited(self.path) if self.path.exists() else None

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)


def json_object(data: bytes | None) -> dict[str, Any]:
    """A backup's settings: the JSON object in `data`; {} when there is none, or when it no
    longer reads as one."""
    try:
        value = json.loads(data.decode("utf-8-sig")) if data is not None else {}
    except (ValueError, RecursionError):
        value = {}
    return value if isinstance(value, dict) else {}


def json_text(settings: dict[str, Any]) -> str:
    """A JSON settings file as install writes it."""
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def write_back(file: Path, settings: dict[str, Any], backup: Backup, ours: str, taken: str) -> str:
    """Write what is left of `file`, `settings`, once uninstall took out what install put in
    (`ours`, such as "the relay"; `taken` says how much, when the file keeps other changes):
    the backup's own bytes when they hold the same settings, so the file is as it was byte for
    byte; no file when install made it and nothing is left; else the settings. Returns what
    was done, for the user."""
    before = backup.content()
    target = written_through(file)
    if before is not None and settings == json_object(before):
        write_atomically(target, before)
        backup.discard()
        as_it_was = "it is as it was before install"
        return f"took {ours} out of {file}: {as_it_was}{through_link(file, target)}"
    if before is None and not settings:
        os.unlink(target)
        made = f"which install had made: removed it{through_link(file, target, 'removed')}"
        return f"took {ours} out of {file}, {made}"
    write_atomically(target, json_text(settings))
    backup.discard()
    return f"took {taken} out of {file}{through_link(file, target)}"


def written_through(file: Path) -> Path:
    """The file that changing `file` changes: itself, or when it is a symbolic link (a settings
    file kept in a dotfiles repository) the file it points to, so the link stays a link. A link
    to a file not written yet points to where it will be."""
    return Path(os.path.realpath(file)) if file.is_symlink() else file


def write_through(file: Path, data: str) -> Path:
    """Write `file` whole (making its folder), through a symbolic link if it is one; returns the
    file written."""
    target = written_through(file)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target, data)
    return target


def through_link(file: Path, target: Path, done: str = "changed") -> str:
    """For the user, after what was done to `file`: that it was done to the link's target."""
    if target == file:
        return ""
    return f"; {file} is a link: {done} the file it points to, {target}, and kept the link"


def write_atomically(file: Path, data: str | bytes) -> None:
    """Replace `file` with `data` (text is written as UTF-8) in one step, keeping its
    permissions; a crash leaves the old file or the new one, never half of either."""
    mode = file.stat().st_mode & 0o7777 if file.exists() else None
    fd, temporary = tempfile.mkstemp(prefix=f".{file.name}.", dir=file.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data.encode() if isinstance(data, str) else data)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
