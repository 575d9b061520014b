"""What `hook-inspector install HOST` and `uninstall HOST` ask of a host: each host's installer
(inspector/hosts/<name>/install.py) puts hook-inspector in front of its agent and takes exactly
that out again, so the command line reads the options and asks the registry for the host, and
knows no host by name."""

from __future__ import annotations

from dataclasses import dataclass
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
class Options:
    """The rest of `install`'s command line, as given; None is an option left out. What a host
    does not use it ignores or refuses, as its installer says."""

    events: str | None = None  # --events A,B, as typed
    matcher: str | None = None
    timeout_s: int | None = None
    socket: Path | None = None
    no_inspector: str | None = None  # one of the installer's `no_inspector` choices
    http: bool = False  # --http: the host's own HTTP hooks to the inspector, not the relay
    mod: bool = False  # --mod: the host's bridge mod (Claude Code 2.1.287+), no settings changed


class Installer(Protocol):
    """One host's `install` and `uninstall`: backup first, idempotent, the user's own hooks
    kept, and uninstall gives back the file as it was. Bad options, or a file it cannot read
    or will not change: a ConfigError, and nothing changed."""

    # what --no-inspector may choose (a call that decides, with no inspector answering), the
    # first by default; () when the host has no such choice and ignores it
    no_inspector: tuple[str, ...]

    def install(self, place: Place, options: Options) -> str:
        """Put hook-inspector in; returns what was done, for the user."""
        ...

    def snippet(self, place: Place, options: Options) -> str | None:
        """What install would add, for a person to put in by hand (--print), changing nothing;
        None when the host has no such text, and --print is ignored."""
        ...

    def uninstall(self, place: Place) -> str:
        """Take out what install put in; returns what was done, for the user."""
        ...


@dataclass(frozen=True)
class NoInstaller:
    """A host with nothing to install: its agent is attached some other way, which `how` tells
    the person who asked to install it."""

    how: str
