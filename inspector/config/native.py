"""The native YAML format: `defaults` and a map of `hooks`, checked strictly.

Relative `dir` values resolve against the config file's folder, which is also the default.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Collection, Mapping
from pathlib import Path

from inspector.config.checks import (
    check_runnable,
    did_you_mean,
    intercept_names,
    observe_kinds,
    require_modes,
)
from inspector.config.document import Document, KeyPath
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
from inspector.config.model import (
    CommandHookSpec,
    Config,
    Defaults,
    HookSpec,
    TimeoutBehaviour,
)

ROOT_KEYS = ("defaults", "hooks")
DEFAULT_KEYS = tuple(item.name for item in dataclasses.fields(Defaults))
PROCESS_KEYS = ("kind", "command", "dir", "env", "priority", "intercept", "observe", "enabled")
MANUAL_KEYS = ("kind", "priority", "intercept", "enabled", "on_timeout")
ON_TIMEOUT: dict[str, TimeoutBehaviour] = {"deny": "deny", "allow": "allow"}
COMMAND_KEYS = (
    *("kind", "host", "event", "command", "timeout_ms", "dir", "priority", "enabled"),
    *("matcher", "retry", "on_error", "tool_name", "tool_matcher", "model_prefix"),
)
# Each command-hook host's event names, as its folder under inspector/hosts lists them.
CommandEvents = Mapping[str, Collection[str]]


def read_native(
    doc: Document, config_path: Path, command_events: CommandEvents, native_host: str
) -> Config:
    """The native YAML config in `doc`: command hooks of one of `command_events`' hosts, or
    process and manual hooks, which follow `native_host`'s rules."""
    if not isinstance(doc.data, dict):
        message = f"the top level must be a map with a hooks key, got {describe(doc, doc.data)}"
        raise doc.error((), message)
    root = doc.data
    _check_keys(doc, (), root, ROOT_KEYS)
    if "hooks" not in root:
        raise doc.error((), "hooks is required (write `hooks: {}` for none)")
    defaults = _defaults(doc, field(doc, (), root, "defaults", want_map, {}))
    hooks = want_map(doc, ("hooks",), root["hooks"])
    specs = tuple(_hook(doc, name, raw, config_path, command_events) for name, raw in hooks.items())
    commands = {spec.host for spec in specs if isinstance(spec, CommandHookSpec)}
    if commands and (len(commands) > 1 or len(commands) < len({type(spec) for spec in specs})):
        message = (
            "a config holds process and manual hooks, or command hooks of one host "
            f"({_one_of(command_events)}), not a mix: a turn follows one host's rules"
        )
        raise doc.error(("hooks",), message)
    host = next(iter(commands), None)
    return Config(
        hooks=specs,
        defaults=defaults,
        path=config_path,
        host=host or native_host,
        workdir=config_path.parent if host else None,
    )


def _defaults(doc: Document, entry: Mapping[str, object]) -> Defaults:
    path: KeyPath = ("defaults",)
    _check_keys(doc, path, entry, DEFAULT_KEYS)
    return Defaults(**{name: _want_ms(doc, (*path, name), ms) for name, ms in entry.items()})


def _want_ms(doc: Document, path: KeyPath, value: object) -> int:
    ms = want_int(doc, path, value)
    if ms <= 0:
        raise doc.error(path, f"must be a positive number of milliseconds, got {ms}")
    return ms


def _hook(
    doc: Document, name: str, raw: object, config_path: Path, command_events: CommandEvents
) -> HookSpec | CommandHookSpec:
    path: KeyPath = ("hooks", name)
    entry = want_map(doc, path, raw)
    kind = field(doc, path, entry, "kind", want_str, "process")
    if kind == "process":
        return _process_hook(doc, name, entry, config_path)
    if kind == "manual":
        return _manual_hook(doc, name, entry, config_path)
    if kind == "command":
        return _command_hook(doc, name, entry, config_path, command_events)
    message = f'unsupported kind "{kind}"; expected process, manual or command'
    raise doc.error((*path, "kind"), message)


def _command_hook(
    doc: Document,
    name: str,
    entry: Mapping[str, object],
    config_path: Path,
    command_events: CommandEvents,
) -> CommandHookSpec:
    """One process per call, run by the rules of `host` (a host whose hooks are commands)."""
    path: KeyPath = ("hooks", name)
    _check_keys(doc, path, entry, COMMAND_KEYS, "a command hook")
    host = field(doc, path, entry, "host", want_str, "")
    if host not in command_events:
        where = (*path, "host") if "host" in entry else path
        raise doc.error(where, f'host must be {_one_of(command_events)}, got "{host}"')
    event = field(doc, path, entry, "event", want_str, "")
    if event not in command_events[host]:
        hint = did_you_mean(event, command_events[host])
        raise doc.error((*path, "event"), f'{host} has no event "{event}"{hint}')
    command = field(doc, path, entry, "command", want_str, "")
    if not command.strip():
        raise doc.error((*path, "command") if "command" in entry else path, "command is required")
    folder = field(doc, path, entry, "dir", want_str, "")
    return CommandHookSpec(
        name=name,
        host=host,
        event=event,
        command=command,
        timeout_ms=_want_ms(doc, (*path, "timeout_ms"), entry.get("timeout_ms", 30_000)),
        dir=os.path.normpath(config_path.parent / folder),
        retry=field(doc, path, entry, "retry", want_int, 0),
        on_error=field(doc, path, entry, "on_error", want_str, "skip"),
        matcher=field(doc, path, entry, "matcher", want_str, None),
        tool_name=field(doc, path, entry, "tool_name", want_str, None),
        tool_matcher=field(doc, path, entry, "tool_matcher", want_str, None),
        model_prefix=field(doc, path, entry, "model_prefix", want_str, None),
        level="project",
        priority=field(doc, path, entry, "priority", want_int, 0),
        enabled=field(doc, path, entry, "enabled", want_bool, True),
        source=str(config_path),
    )


def _process_hook(
    doc: Document, name: str, entry: Mapping[str, object], config_path: Path
) -> HookSpec:
    path: KeyPath = ("hooks", name)
    _check_keys(doc, path, entry, PROCESS_KEYS, "a process hook")
    command = field(doc, path, entry, "command", want_command, ())
    if not command:
        raise doc.error((*path, "command") if "command" in entry else path, "command is required")
    observe = field(doc, path, entry, "observe", want_str_list, ())
    observe = observe_kinds(doc, (*path, "observe"), observe)
    intercept = field(doc, path, entry, "intercept", want_str_list, ())
    intercept = intercept_names(doc, (*path, "intercept"), intercept)
    require_modes(doc, path, intercept, observe)
    workdir = Path(
        os.path.normpath(config_path.parent / field(doc, path, entry, "dir", want_str, ""))
    )
    enabled = field(doc, path, entry, "enabled", want_bool, True)
    if enabled:
        check_runnable(doc, path, command, workdir)
    return HookSpec(
        name=name,
        command=command,
        dir=str(workdir),
        env=field(doc, path, entry, "env", want_env, ()),
        priority=field(doc, path, entry, "priority", want_int, 0),
        intercept=intercept,
        observe=observe,
        enabled=enabled,
        source=str(config_path),
    )


def _manual_hook(
    doc: Document, name: str, entry: Mapping[str, object], config_path: Path
) -> HookSpec:
    """A human approver: it only ever answers hook.approve_tool."""
    path: KeyPath = ("hooks", name)
    _check_keys(doc, path, entry, MANUAL_KEYS, "a manual hook")
    intercept = field(doc, path, entry, "intercept", want_str_list, ("approve_tool",))
    if not intercept:
        raise doc.error((*path, "intercept"), "a manual hook must intercept approve_tool")
    for index, stage in enumerate(intercept):
        if stage != "approve_tool":
            message = f'a manual hook can only intercept approve_tool, not "{stage}"'
            raise doc.error((*path, "intercept", index), message)
    on_timeout = field(doc, path, entry, "on_timeout", want_str, "deny")
    if on_timeout not in ON_TIMEOUT:
        raise doc.error((*path, "on_timeout"), f'expected deny or allow, got "{on_timeout}"')
    return HookSpec(
        name=name,
        kind="manual",
        priority=field(doc, path, entry, "priority", want_int, 0),
        intercept=("approve_tool",),
        enabled=field(doc, path, entry, "enabled", want_bool, True),
        on_timeout=ON_TIMEOUT[on_timeout],
        source=str(config_path),
    )


def _check_keys(
    doc: Document,
    path: KeyPath,
    entry: Mapping[str, object],
    allowed: Collection[str],
    owner: str = "",
) -> None:
    for key in entry:
        if key not in allowed:
            where = f" for {owner}" if owner else ""
            hint = did_you_mean(key, allowed)
            message = f'unknown key "{key}"{where}{hint}; allowed keys: {", ".join(allowed)}'
            raise doc.error((*path, key), message)


def _one_of(command_events: CommandEvents) -> str:
    """The hosts whose hooks are commands, as a message names them: claude or jcli."""
    return " or ".join(sorted(command_events))
