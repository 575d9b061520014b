"""PicoClaw's config.json, read as PicoClaw reads it: only the top-level `hooks` section.

PicoClaw decodes the whole section first (unknown keys, then types), then mounts the
enabled builtins and the enabled processes, each group in name order, and stops at the
first error. A JSON null leaves a field at its default, as Go's decoder does.

Relative `dir` values resolve against the current working directory: PicoClaw hands
`dir` to the child process as is, so the OS resolves it against PicoClaw's own cwd.
An absent `dir` means that cwd too.

Disabled entries stay in `Config.hooks` (enabled=False) so they can be listed. PicoClaw
never validates them, so neither do we: their `intercept` and `observe` are kept as written.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Collection, Mapping
from pathlib import Path

from inspector.config.checks import (
    check_runnable,
    intercept_names,
    observe_kinds,
    require_modes,
)
from inspector.config.document import Document, KeyPath, format_key
from inspector.config.errors import ConfigError
from inspector.config.fields import (
    describe,
    field,
    want_bool,
    want_command,
    want_env,
    want_int,
    want_map,
    want_str,
    want_str_list,
)
from inspector.config.model import Config, Defaults, HookSpec
from inspector.hosts.picoclaw import NAME

HOOKS: KeyPath = ("hooks",)
HOOKS_FIELDS = ("enabled", "defaults", "builtins", "processes")
DEFAULTS_FIELDS = ("observer_timeout_ms", "interceptor_timeout_ms", "approval_timeout_ms")
BUILTIN_FIELDS = ("enabled", "priority", "config")
PROCESS_FIELDS = (
    "enabled",
    "priority",
    "transport",
    "command",
    "dir",
    "env",
    "observe",
    "intercept",
)


@dataclasses.dataclass(frozen=True)
class _Process:
    """A process entry as decoded, before PicoClaw's mount-time checks."""

    spec: HookSpec
    transport: str
    workdir: Path


def read_picoclaw(doc: Document, config_path: Path) -> Config:
    if not isinstance(doc.data, dict):
        raise doc.error((), f"the top level must be a JSON object, got {describe(doc, doc.data)}")
    _reject_unknown_fields(doc, doc.data.get("hooks"))
    section = _object(doc, HOOKS, doc.data.get("hooks"))
    hooks_enabled = field(doc, HOOKS, section, "enabled", want_bool, True)
    defaults = _defaults(doc, section.get("defaults"))
    builtins = _enabled_builtins(doc, section.get("builtins"))
    processes = {
        name: _decode_process(doc, name, entry, config_path, hooks_enabled)
        for name, entry in _entries(doc, (*HOOKS, "processes"), section.get("processes")).items()
    }
    if hooks_enabled and builtins:
        raise _unregistered_builtin(doc, min(builtins))
    mounted = {name: _mount(doc, name, processes[name]) for name in sorted(processes)}
    specs = tuple(mounted[name] for name in processes)
    return Config(hooks=specs, defaults=defaults, path=config_path, host=NAME)


def _reject_unknown_fields(doc: Document, hooks: object) -> None:
    """PicoClaw's strict-key check: every unknown key inside `hooks`, in one message."""
    unknown = _unknown(hooks, HOOKS_FIELDS, HOOKS)
    if isinstance(hooks, dict):
        unknown += _unknown(hooks.get("defaults"), DEFAULTS_FIELDS, (*HOOKS, "defaults"))
        for group, allowed in (("builtins", BUILTIN_FIELDS), ("processes", PROCESS_FIELDS)):
            entries = hooks.get(group)
            if isinstance(entries, dict):
                for name, entry in entries.items():
                    unknown += _unknown(entry, allowed, (*HOOKS, group, name))
    if unknown:
        by_key = {format_key(path): path for path in unknown}
        keys = sorted(by_key)
        message = f"config.json contains unknown field(s): {', '.join(keys)}"
        raise doc.error(by_key[keys[0]], message)


def _unknown(value: object, allowed: Collection[str], path: KeyPath) -> list[KeyPath]:
    if not isinstance(value, dict):
        return []
    return [(*path, key) for key in value if key not in allowed]


def _object(doc: Document, path: KeyPath, value: object) -> dict[str, object]:
    """A JSON object with its null members dropped (Go leaves those fields untouched)."""
    if value is None:
        return {}
    return {key: item for key, item in want_map(doc, path, value).items() if item is not None}


def _entries(doc: Document, path: KeyPath, value: object) -> dict[str, dict[str, object]]:
    """A map of named entries; a null entry is an entry with every field at its default."""
    if value is None:
        return {}
    return {
        name: _object(doc, (*path, name), raw) for name, raw in want_map(doc, path, value).items()
    }


def _defaults(doc: Document, value: object) -> Defaults:
    """Timeouts <= 0 keep PicoClaw's defaults, as its ConfigureTimeouts does."""
    path = (*HOOKS, "defaults")
    entry = _object(doc, path, value)
    timeouts = {name: field(doc, path, entry, name, want_int, 0) for name in DEFAULTS_FIELDS}
    return dataclasses.replace(Defaults(), **{name: ms for name, ms in timeouts.items() if ms > 0})


def _enabled_builtins(doc: Document, value: object) -> list[str]:
    path = (*HOOKS, "builtins")
    enabled: list[str] = []
    for name, entry in _entries(doc, path, value).items():
        field(doc, (*path, name), entry, "priority", want_int, 0)
        if field(doc, (*path, name), entry, "enabled", want_bool, False):
            enabled.append(name)
    return enabled


def _unregistered_builtin(doc: Document, name: str) -> ConfigError:
    message = (
        f'builtin hook "{name}" is not registered'
        " (PicoClaw registers no builtins, and hook-inspector cannot run Go builtins)"
    )
    return doc.error((*HOOKS, "builtins", name), message)


def _decode_process(
    doc: Document, name: str, entry: Mapping[str, object], config_path: Path, hooks_enabled: bool
) -> _Process:
    path = (*HOOKS, "processes", name)
    workdir = Path(os.path.normpath(Path.cwd() / field(doc, path, entry, "dir", want_str, "")))
    enabled = field(doc, path, entry, "enabled", want_bool, False)
    spec = HookSpec(
        name=name,
        command=field(doc, path, entry, "command", want_command, ()),
        dir=str(workdir),
        env=field(doc, path, entry, "env", want_env, ()),
        priority=field(doc, path, entry, "priority", want_int, 0),
        intercept=field(doc, path, entry, "intercept", want_str_list, ()),
        observe=field(doc, path, entry, "observe", want_str_list, ()),
        enabled=hooks_enabled and enabled,
        source=str(config_path),
    )
    return _Process(spec, field(doc, path, entry, "transport", want_str, ""), workdir)


def _mount(doc: Document, name: str, process: _Process) -> HookSpec:
    """PicoClaw's checks when it mounts an enabled process hook, in its order."""
    spec = process.spec
    if not spec.enabled:
        return spec
    path = (*HOOKS, "processes", name)
    if process.transport not in ("", "stdio"):
        raise doc.error((*path, "transport"), f'unsupported transport "{process.transport}"')
    if not spec.command:
        raise doc.error(_present_or_parent(doc, (*path, "command")), "command is required")
    observe = observe_kinds(doc, (*path, "observe"), spec.observe)
    intercept = intercept_names(doc, (*path, "intercept"), spec.intercept)
    require_modes(doc, path, intercept, observe)
    check_runnable(doc, path, spec.command, process.workdir)
    return dataclasses.replace(spec, intercept=intercept, observe=observe)


def _present_or_parent(doc: Document, path: KeyPath) -> KeyPath:
    return path if path in doc.lines else path[:-1]
