"""The names a command host's reader gives its hooks: `<Event>:<label>`, the label being the
script a command runs (else its first word), with `#2`, `#3`... when the name is taken; and the
warning for the keys a reader does not know, with a did-you-mean, so that every command host's
files are read into specs named alike."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

from inspector.config.checks import SCRIPT_SUFFIXES, did_you_mean
from inspector.config.document import KeyPath

# (the key's path, the message, the hook it concerns): how a reader records a warning
Warn = Callable[[KeyPath, str, str | None], None]


class HookNames:
    """The names given so far in one reading of a host's files."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def name(self, event: str, label: str) -> str:
        name = base = f"{event}:{label}"
        count = 1
        while name in self._taken:
            count += 1
            name = f"{base}#{count}"
        self._taken.add(name)
        return name


def command_label(command: str) -> str:
    """The script a command runs, else its first word: `python3 "$D/guard.py"` -> guard.py."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    for word in words:
        if Path(word).suffix in SCRIPT_SUFFIXES:
            return Path(word).name
    return Path(words[0]).name or words[0]


def unknown_keys(
    path: KeyPath, entry: Mapping[str, object], known: Collection[str], hook: str | None, warn: Warn
) -> None:
    """Warn of each key of `entry` not in `known`: the host ignores it."""
    for key in entry:
        if key not in known:
            warn((*path, key), f"{key}: ignored{did_you_mean(key, known)}", hook)
