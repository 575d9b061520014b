"""Gemini CLI's settings files, read for their `hooks` and `hooksConfig` sections.

Which files: the user's `~/.gemini/settings.json` (home from `Path.home()`), then the project's
`.gemini/settings.json`. Gemini CLI concatenates each event's list across them, so both files'
hooks run. The path given may be a project folder, its `.gemini` folder, or the settings file;
any other JSON file is read on its own (plus the user's file) as if it were a project's settings.

`hooks` maps an event to matcher groups: `matcher`, `sequential` (any group of an event that
says true makes all of that event's hooks run one after another) and `hooks`, the handlers:
`type` ("command"), `command`, `name`, `description`, `timeout` (milliseconds, 60000 if none)
and `env`. Each handler becomes a CommandHookSpec named `<Event>:<name>`, its `name` else its
script (its file name, or the command's first word), with `#2`, `#3`... when the name is taken.
What Gemini CLI would skip is listed with why: a hook on an unknown event (its `cannot_run`),
a handler that is not a command (never run). `hooksConfig.enabled: false` disables every hook;
`hooksConfig.disabled` disables those it names (by `name`, else the command). A key Gemini CLI
does not read is a warning, with the key it most likely meant.

Warnings are ConfigWarnings: file, line, key, a Gemini finding, and the hook they concern.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from pathlib import Path

from inspector.config.checks import did_you_mean
from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError
from inspector.config.fields import describe, field, want_bool, want_map, want_str, want_str_list
from inspector.config.files import read_config_text
from inspector.config.hook_names import HookNames, command_label, unknown_keys
from inspector.config.json_comments import without_comments
from inspector.config.model import CommandHookSpec, Config
from inspector.config.parse import parse_json
from inspector.config.warning import ConfigWarning
from inspector.hosts.gemini import NAME
from inspector.hosts.gemini.events import EVENTS, filters
from inspector.hosts.gemini.findings import finding

GEMINI_DIR = ".gemini"
SETTINGS = "settings.json"
USER, PROJECT = "user", "project"
DEFAULT_TIMEOUT_MS = 60_000

_GROUP_KEYS = frozenset({"matcher", "sequential", "hooks"})
_HANDLER_KEYS = frozenset({"type", "command", "name", "description", "timeout", "env"})
_SWITCH_KEYS = frozenset({"enabled", "disabled", "notifications"})  # hooksConfig's, also legacy
_HANDLER_TYPES = ("command", "plugin", "runtime")  # what its registry accepts; commands run


@dataclass(frozen=True)
class GeminiSettings:
    config: Config
    warnings: tuple[ConfigWarning, ...]
    files: tuple[Path, ...]  # the settings files read, user first: what a reload watches
    project_dir: Path  # GEMINI_PROJECT_DIR and the hooks' working directory


def read_gemini(path: str | Path) -> GeminiSettings:
    """Read the settings files that `path` stands for; anything wrong is a ConfigError."""
    project_dir, project_file = _project_file(path)
    user_file = Path.home() / GEMINI_DIR / SETTINGS
    sources = [(PROJECT, project_file)]
    if user_file.is_file() and not project_file.samefile(user_file):
        sources.insert(0, (USER, user_file))
    reader = _Reader()
    for level, file in sources:
        # Gemini CLI reads settings.json through strip-json-comments: comments are allowed
        text = without_comments(read_config_text(file))
        reader.read(parse_json(str(file), text), level)
    specs = tuple(replace(spec, priority=index) for index, spec in enumerate(reader.specs))
    if not reader.enabled:
        specs = tuple(replace(spec, enabled=False) for spec in specs)
    config = Config(hooks=specs, path=project_file, host=NAME)
    files = tuple(file for _, file in sources)
    return GeminiSettings(config, tuple(reader.warnings), files, project_dir)


def _project_file(path: str | Path) -> tuple[Path, Path]:
    given = Path(os.path.abspath(path))
    if given.is_dir():
        folder = given if given.name == GEMINI_DIR else given / GEMINI_DIR
        if not (folder / SETTINGS).is_file():
            raise ConfigError(str(path), f"no {GEMINI_DIR}/{SETTINGS} here")
        return folder.parent, folder / SETTINGS
    if given.is_file():
        project = given.parent.parent if given.parent.name == GEMINI_DIR else given.parent
        return project, given
    raise ConfigError(str(path), "no such file or folder")


@dataclass(frozen=True)
class _Group:
    doc: Document
    level: str
    event: str
    matcher: str | None
    sequential: bool
    path: KeyPath


class _Reader:
    """Collects specs and warnings from one settings file after another."""

    def __init__(self) -> None:
        self.specs: list[CommandHookSpec] = []
        self.warnings: list[ConfigWarning] = []
        self.enabled = True
        self._disabled: set[str] = set()
        self._names = HookNames()
        self._declared: dict[str, str] = {}  # each spec's own `name`, if the handler has one

    def read(self, doc: Document, level: str) -> None:
        if not isinstance(doc.data, dict):
            message = f"the top level must be a JSON object, got {describe(doc, doc.data)}"
            raise doc.error((), message)
        if "hooksConfig" in doc.data:
            self._switches(doc, want_map(doc, ("hooksConfig",), doc.data["hooksConfig"]))
        if "hooks" not in doc.data:
            return
        section = want_map(doc, ("hooks",), doc.data["hooks"])
        for event, groups in section.items():
            path: KeyPath = ("hooks", event)
            if event in _SWITCH_KEYS:
                continue  # the older place of hooksConfig's switches: Gemini CLI skips them
            if not isinstance(groups, list):
                message = f"expected a list of matcher groups, got {describe(doc, groups)}"
                raise doc.error(path, message)
            first = len(self.specs)
            for index, group in enumerate(groups):
                self._group(doc, level, event, (*path, index), group)
            if event not in EVENTS:
                self._unknown_event(doc, path, event, first)
        self.specs = [
            replace(spec, enabled=False) if self._is_disabled(spec) else spec for spec in self.specs
        ]

    def _switches(self, doc: Document, switches: dict[str, object]) -> None:
        path: KeyPath = ("hooksConfig",)
        self._unknown_keys(doc, path, switches, _SWITCH_KEYS, None)
        if field(doc, path, switches, "enabled", want_bool, True) is False:
            self.enabled = False
            message = "hooksConfig.enabled: false"
            self.warn(doc, (*path, "enabled"), "gemini-hooks-disabled", message)
        self._disabled |= set(field(doc, path, switches, "disabled", want_str_list, ()))

    def _is_disabled(self, spec: CommandHookSpec) -> bool:
        # Gemini CLI names a hook by its `name`, else by its command
        return (self._declared.get(spec.name) or spec.command) in self._disabled

    def _unknown_event(self, doc: Document, path: KeyPath, event: str, first: int) -> None:
        names = [spec.name for spec in self.specs[first:]]
        message = f'unknown hook event "{event}"{did_you_mean(event, EVENTS)}: never runs'
        self.specs[first:] = [
            replace(spec, cannot_run=spec.cannot_run or message) for spec in self.specs[first:]
        ]
        self.warn(doc, path, "gemini-unknown-event", message, ", ".join(names) or None)

    def _group(self, doc: Document, level: str, event: str, path: KeyPath, group: object) -> None:
        entry = want_map(doc, path, group)
        self._unknown_keys(doc, path, entry, _GROUP_KEYS, None)
        matcher = field(doc, path, entry, "matcher", want_str, None)
        sequential = field(doc, path, entry, "sequential", want_bool, False)
        if "hooks" not in entry:
            raise doc.error((*path, "hooks"), "is required: the list of hooks to run")
        handlers = entry["hooks"]
        if not isinstance(handlers, list):
            message = f"expected a list of hooks, got {describe(doc, handlers)}"
            raise doc.error((*path, "hooks"), message)
        first = len(self.specs)
        for index, handler in enumerate(handlers):
            where = _Group(doc, level, event, matcher, sequential, (*path, "hooks", index))
            self._handler(where, handler)
        if event in EVENTS and not filters(event) and matcher not in (None, "", "*"):
            names = ", ".join(spec.name for spec in self.specs[first:]) or None
            message = f"matcher {matcher!r}: {event} hooks are not chosen by matcher"
            self.warn(doc, (*path, "matcher"), "gemini-matcher-ignored", message, names)

    def _handler(self, where: _Group, handler: object) -> None:
        doc, path = where.doc, where.path
        entry = want_map(doc, path, handler)
        kind = field(doc, path, entry, "type", want_str, "")
        command = field(doc, path, entry, "command", want_str, "")
        declared = field(doc, path, entry, "name", want_str, "")
        field(doc, path, entry, "description", want_str, "")
        timeout = field(doc, path, entry, "timeout", _want_ms, DEFAULT_TIMEOUT_MS)
        env = field(doc, path, entry, "env", _want_env, ())
        label = declared or (command_label(command) if command else kind or "hook")
        name = self._names.name(where.event, label)
        self._unknown_keys(doc, path, entry, _HANDLER_KEYS, name)
        if kind not in _HANDLER_TYPES or (kind == "command" and not command.strip()):
            why = f"type {kind!r}" if kind not in _HANDLER_TYPES else "no command"
            hint = did_you_mean(kind, _HANDLER_TYPES) if kind else ""
            key = "type" if kind not in _HANDLER_TYPES else "command"
            message = f"{why}{hint}: discarded, never runs"
            self.warn(doc, (*path, key), "gemini-hook-discarded", message, name)
            return
        cannot_run = "" if kind == "command" else f"a {kind} hook: only commands run in settings"
        spec = CommandHookSpec(
            name=name,
            host=NAME,
            event=where.event,
            command=command,
            timeout_ms=timeout,
            level=where.level,
            matcher=where.matcher,
            source=doc.file,
            env=env,
            cannot_run=cannot_run,
            sequential=where.sequential,
        )
        self.specs.append(spec)
        self._declared[name] = declared

    def _unknown_keys(
        self,
        doc: Document,
        path: KeyPath,
        entry: dict[str, object],
        known: frozenset[str],
        hook: str | None,
    ) -> None:
        def warn(where: KeyPath, message: str, hook: str | None) -> None:
            self.warn(doc, where, "gemini-unknown-setting", message, hook)

        unknown_keys(path, entry, known, hook, warn)

    def warn(
        self, doc: Document, path: KeyPath, code: str, message: str, hook: str | None = None
    ) -> None:
        self.warnings.append(ConfigWarning.at(doc, path, finding(code, message), hook))


def _want_ms(doc: Document, path: KeyPath, value: object) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value <= 0
    ):
        raise doc.error(path, f"expected a number of milliseconds, got {describe(doc, value)}")
    return round(value)


def _want_env(doc: Document, path: KeyPath, value: object) -> tuple[tuple[str, str], ...]:
    entries = want_map(doc, path, value)
    return tuple((key, want_str(doc, (*path, key), item)) for key, item in entries.items())
