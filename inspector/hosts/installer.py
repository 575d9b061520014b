"""What `hook-inspector install HOST` and `uninstall HOST` ask of a host: each host's installer
(inspector/hosts/<name>/install.py) puts hook-inspector in front of its agent and takes exactly
that out again, so the command line reads the options and asks the registry for the host, and
knows no host by name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class Place:
    """Where the agent's hook configuration is, as the command line said (at most one of
    them): --project DIR, --user, or --config FILE."""

    project: Path | None = None
    user: bool = False
    config: Path | None = None


@dataclass(frozen=True)
class Flag:
    """An `install` option of some hosts only, which their installer declares: `--NAME`, a
    switch, or a value among `choices` (the first by default)."""

    name: str  # as typed, without the dashes
    help: str
    choices: tuple[str, ...] = ()


# the flag of a host whose installer can print what it would add instead (its snippet())
PRINT = Flag("print", "print what install would add instead of changing the file")


@dataclass(frozen=True)
class Options:
    """The rest of `install`'s command line, as given; None is an option left out. What a host
    does not use it ignores or refuses, as its installer says."""

    events: str | None = None  # --events A,B, as typed
    matcher: str | None = None
    timeout_s: int | None = None
    socket: Path | None = None
    # the host's own flags (its installer's `flags`) that were given, by name: True for a
    # switch, else the choice
    own: Mapping[str, str | bool] = field(default_factory=dict)


class Installer(Protocol):
    """One host's `install` and `uninstall`: backup first, idempotent, the user's own hooks
    kept, and uninstall gives back the file as it was. Bad options, or a file it cannot read
    or will not change: a ConfigError, and nothing changed."""

    # the host's own options; the command line refuses them for any other host
    flags: tuple[Flag, ...]
    # what --config names for this host (its help), or None when it is set with --project or
    # --user instead
    config_file: str | None
    default_timeout_s: int  # the handler's timeout when --timeout is left out

    def install(self, place: Place, options: Options) -> str:
        """Put hook-inspector in; returns what was done, for the user."""
        ...

    def snippet(self, place: Place, options: Options) -> str | None:
        """What install would add, for a person to put in by hand (--print, for a host whose
        flags hold PRINT), changing nothing; None when the host has no such text."""
        ...

    def uninstall(self, place: Place) -> str:
        """Take out what install put in; returns what was done, for the user."""
        ...


@dataclass(frozen=True)
class NoInstaller:
    """A host with nothing to install: its agent is attached some other way, which `how` tells
    the person who asked to install it."""

    how: str
