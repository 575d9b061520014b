"""Which files a running config depends on, and how to tell that one really changed."""

from __future__ import annotations

import hashlib
import os
import re
import shlex
from pathlib import Path

from inspector.config.model import CommandHookSpec, Config, HookSpec

_PROJECT_DIR = re.compile(r"\$\{?([A-Z][A-Z0-9_]*_PROJECT_DIR)\}?")
SCRIPT_SUFFIXES = frozenset({".py", ".js", ".mjs", ".ts", ".sh", ".rb", ".pl", ".php", ".lua"})


def hook_files(spec: HookSpec) -> list[Path]:
    """The files a hook's command runs: arguments naming an existing file (resolved against its
    dir), and the program itself when it is a script rather than an interpreter on PATH."""
    base = Path(spec.dir) if spec.dir else Path.cwd()
    files = []
    for index, arg in enumerate(spec.command):
        if arg.startswith("-"):
            continue
        path = Path(arg) if Path(arg).is_absolute() else base / arg
        if not path.is_file():
            continue
        is_program = index == 0
        if is_program and path.suffix not in SCRIPT_SUFFIXES and base not in path.parents:
            continue  # an interpreter such as /usr/bin/python3
        files.append(path)
    return files


def watched_paths(config_path: Path, config: Config | None) -> dict[Path, set[str]]:
    """Every file to watch, mapped to the hooks that run it (the config maps to no hook).
    A symlink is watched under its own name and its target's, since editors write the target."""
    paths: dict[Path, set[str]] = {}
    for path in _with_targets(config_path):
        paths.setdefault(path, set())
    for spec in config.enabled_hooks if config else ():
        for file in hook_files(spec):
            for path in _with_targets(file):
                paths.setdefault(path, set()).add(spec.name)
    for file in config.files if config else ():  # HOOK.yaml files, Claude settings files
        for path in _with_targets(file):
            paths.setdefault(path, set())
    for command in config.command_hooks if config else ():
        for file in command_files(command, config.workdir if config else None):
            for path in _with_targets(file):
                paths.setdefault(path, set()).add(command.name)
    return paths


def command_files(spec: CommandHookSpec, workdir: Path | None) -> list[Path]:
    """The scripts a shell command line runs: words that name an existing file, relative to
    the hook's own folder or the folder the host runs it in ($VARS are expanded)."""
    try:
        words = shlex.split(spec.command)
    except ValueError:
        return []
    bases = [Path(base) for base in (spec.dir, workdir) if base]
    env = {"JCLI_HOOK_DIR": spec.dir or ""}
    # every host's project folder variable: CLAUDE_PROJECT_DIR and its kind
    env |= {name: str(workdir or "") for name in _PROJECT_DIR.findall(spec.command)}
    found = []
    for word in words:
        expanded = Path(os.path.expandvars(_expand(word, env)))
        candidates = [expanded] if expanded.is_absolute() else [base / expanded for base in bases]
        found += [path for path in candidates if path.is_file()][:1]
    return found


def _expand(word: str, env: dict[str, str]) -> str:
    for name, value in env.items():
        word = word.replace(f"${{{name}}}", value).replace(f"${name}", value)
    return word


def folders(paths: dict[Path, set[str]]) -> list[Path]:
    """Watch folders, not files: an editor that saves by rename replaces the file itself."""
    return sorted({path.parent for path in paths if path.parent.is_dir()})


def _with_targets(path: Path) -> list[Path]:
    absolute = path if path.is_absolute() else Path.cwd() / path
    resolved = absolute.resolve()
    return [absolute] if resolved == absolute else [absolute, resolved]


def digest(path: Path) -> str | None:
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
    except OSError:
        return None
