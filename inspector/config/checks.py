"""Checks both formats share: hook modes as PicoClaw reads them, and whether a hook can start."""

from __future__ import annotations

import difflib
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from inspector.config.document import Document, KeyPath
from inspector.config.model import INTERCEPT_NAMES
from inspector.jsonrpc.event_kinds import (
    LEGACY_EVENT_ALIASES,
    OBSERVE_ALL,
    RUNTIME_EVENT_KINDS,
    normalize_kind,
)

SCRIPT_SUFFIXES = frozenset(
    {".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".bash", ".rb", ".pl", ".php", ".lua"}
)
_OBSERVABLE = sorted(RUNTIME_EVENT_KINDS | LEGACY_EVENT_ALIASES.keys())


def intercept_names(doc: Document, path: KeyPath, names: Iterable[str]) -> tuple[str, ...]:
    """The stages named, without duplicates; PicoClaw ignores an empty name."""
    wanted: list[str] = []
    for index, name in enumerate(names):
        if name not in INTERCEPT_NAMES and name != "":
            hint = did_you_mean(name, INTERCEPT_NAMES) or f"; expected {', '.join(INTERCEPT_NAMES)}"
            raise doc.error((*path, index), f'unsupported intercept "{name}"{hint}')
        if name and name not in wanted:
            wanted.append(name)
    return tuple(wanted)


def observe_kinds(doc: Document, path: KeyPath, names: Iterable[str]) -> tuple[str, ...]:
    """Runtime kinds with legacy aliases resolved, or ("*",) for all kinds.

    Entries are read in order as PicoClaw does: an unknown kind before the first
    "", "*" or "all" is an error, anything after it is never looked at.
    """
    kinds: list[str] = []
    for index, name in enumerate(names):
        if name in OBSERVE_ALL:
            return ("*",)
        kind = normalize_kind(name)
        if kind is None:
            hint = did_you_mean(name, _OBSERVABLE) or ' (use "*" for every kind)'
            raise doc.error((*path, index), f'unsupported observe event "{name}"{hint}')
        if kind not in kinds:
            kinds.append(kind)
    return tuple(kinds)


def require_modes(
    doc: Document, path: KeyPath, intercept: tuple[str, ...], observe: tuple[str, ...]
) -> None:
    if not intercept and not observe:
        raise doc.error(path, "no hook modes enabled; add an intercept or observe list")


def check_runnable(doc: Document, path: KeyPath, command: tuple[str, ...], workdir: Path) -> None:
    """Fail now on what would make the hook fail to start: its dir, program or script."""
    if not workdir.is_dir():
        raise doc.error((*path, "dir"), f"directory {workdir} does not exist")
    _check_program(doc, (*path, "command", 0), command[0], workdir)
    for index, arg in enumerate(command[1:], start=1):
        script = Path(os.path.normpath(workdir / arg))
        if _looks_like_script(arg) and not script.exists():
            raise doc.error(
                (*path, "command", index), f'script "{arg}" not found: no file {script}'
            )


def _check_program(doc: Document, path: KeyPath, program: str, workdir: Path) -> None:
    if "/" in program:
        target = Path(os.path.normpath(workdir / program))
        if not target.is_file():
            raise doc.error(path, f'program "{program}" not found: no file {target}')
        if not os.access(target, os.X_OK):
            raise doc.error(path, f'program "{program}" is not executable: {target}')
    elif shutil.which(program) is None:
        message = f'program "{program}" not found on PATH'
        if (workdir / program).is_file():
            message += f'; to run the file in {workdir}, write "./{program}"'
        raise doc.error(path, message)


def _looks_like_script(arg: str) -> bool:
    """A path the hook needs, as opposed to an option, inline code or a URL."""
    if arg.startswith("-") or "://" in arg or any(char.isspace() for char in arg):
        return False
    return "/" in arg or Path(arg).suffix.lower() in SCRIPT_SUFFIXES


def did_you_mean(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f' (did you mean "{close[0]}"?)' if close else ""
