"""Claude Code's settings files, read for their `hooks` sections.

Which files: the user's `~/.claude/settings.json` (home from `Path.home()`), then the project's
`.claude/settings.json` and `.claude/settings.local.json`. Claude Code runs the hooks of every file,
so they are merged, not overridden. The path given may be a project folder, its `.claude`
folder, or one of those two files (the other one is read too, as Claude Code would); any other
JSON file is read on its own (plus the user's file) as if it were a project's settings.

Each handler becomes a CommandHookSpec (handlers.py reads its fields) named `<Event>:<label>`:
a command's script (its file name, or the command's first word), else the handler's type
(`http`, `prompt`, ...), with `#2`, `#3`... when the name is taken. A handler's `timeout` is in
seconds. Command and http handlers run; prompt, agent and mcp_tool handlers are listed with why
host mode cannot run them (a warning and the spec's `cannot_run`). Every hook is disabled when a
file sets `disableAllHooks`. A hook on an event name the newest Claude Code known here does not
know is listed with why it never runs (its `cannot_run`; the file still loads, as it does in
Claude Code). An http handler's
`allowedEnvVars` is narrowed to the settings' `httpHookAllowedEnvVars` when any file sets it,
and one whose URL matches no pattern of `allowedHttpHookUrls` is listed as never sent (the
lists of all files merge, as Claude Code merges them).

Warnings are ConfigWarnings (as j-cli's reader gives): file, line, key, a Claude finding, and the
hook they concern.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from inspector.config.checks import did_you_mean
from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError
from inspector.config.fields import (
    describe,
    field,
    want_bool,
    want_map,
    want_str,
    want_str_list,
)
from inspector.config.files import read_config_text
from inspector.config.hook_names import HookNames, command_label
from inspector.config.hook_names import unknown_keys as unknown_settings
from inspector.config.model import CommandHookSpec, Config
from inspector.config.parse import parse_json
from inspector.config.warning import ConfigWarning
from inspector.hosts.claude import NAME
from inspector.hosts.claude.events import (
    EVENTS,
    MATCH_FIELDS,
    NEWEST_VERSION,
    is_match_all,
    matcher_error,
)
from inspector.hosts.claude.findings import finding
from inspector.hosts.claude.handlers import (
    ENV_LIMIT,
    URL_LIMIT,
    ReadHandler,
    limit_env_vars,
    limit_urls,
    read_handler,
    unknown_keys,
)
from inspector.hosts.claude.settings_schema import check_settings

CLAUDE_DIR = ".claude"
SETTINGS = "settings.json"
LOCAL_SETTINGS = "settings.local.json"
USER, PROJECT, LOCAL = "user", "project", "local"

_GROUP_KEYS = frozenset({"matcher", "hooks"})


@dataclass(frozen=True)
class ClaudeSettings:
    config: Config
    warnings: tuple[ConfigWarning, ...]
    files: tuple[Path, ...]  # the settings files read, user first: what a reload watches
    project_dir: Path  # CLAUDE_PROJECT_DIR and the hooks' working directory


def load_claude(path: str | Path) -> Config:
    return read_claude(path).config


def read_claude(path: str | Path) -> ClaudeSettings:
    """Read the settings files that `path` stands for; anything wrong is a ConfigError."""
    project_dir, project_files = _project_files(path)
    user_file = Path.home() / CLAUDE_DIR / SETTINGS
    sources = list(project_files)
    if user_file.is_file() and all(not file.samefile(user_file) for _, file in project_files):
        sources.insert(0, (USER, user_file))
    reader = _Reader()
    for level, file in sources:
        reader.read(parse_json(str(file), read_config_text(file)), level)
    specs = tuple(
        replace(
            limit_urls(limit_env_vars(spec, reader.env_limit), reader.url_limit), priority=index
        )
        for index, spec in enumerate(reader.specs)
    )
    if reader.disable_all:
        specs = tuple(replace(spec, enabled=False) for spec in specs)
    config = Config(hooks=specs, path=project_files[0][1], host=NAME)
    files = tuple(file for _, file in sources)
    return ClaudeSettings(config, tuple(reader.warnings), files, project_dir)


def _project_files(path: str | Path) -> tuple[Path, list[tuple[str, Path]]]:
    given = Path(os.path.abspath(path))
    if given.is_dir():
        claude = given if given.name == CLAUDE_DIR else given / CLAUDE_DIR
    elif (
        given.is_file()
        and given.parent.name == CLAUDE_DIR
        and given.name
        in (
            SETTINGS,
            LOCAL_SETTINGS,
        )
    ):
        claude = given.parent
    elif given.is_file():
        return given.parent, [(PROJECT, given)]
    else:
        raise ConfigError(str(path), "no such file or folder")
    found = [
        (level, claude / name)
        for level, name in ((PROJECT, SETTINGS), (LOCAL, LOCAL_SETTINGS))
        if (claude / name).is_file()
    ]
    if not found:
        message = f"no {CLAUDE_DIR}/{SETTINGS} or {CLAUDE_DIR}/{LOCAL_SETTINGS} here"
        raise ConfigError(str(path), message)
    return claude.parent, found


@dataclass(frozen=True)
class _Group:
    """Where a handler sits: its file, level, event and matcher group."""

    doc: Document
    level: str
    event: str
    matcher: str | None
    path: KeyPath


class _Reader:
    """Collects specs and warnings from one settings file after another."""

    def __init__(self) -> None:
        self.specs: list[CommandHookSpec] = []
        self.warnings: list[ConfigWarning] = []
        self.disable_all = False
        self.env_limit: tuple[str, ...] | None = None  # httpHookAllowedEnvVars, merged
        self.url_limit: tuple[str, ...] | None = None  # allowedHttpHookUrls, merged
        self._names = HookNames()

    def read(self, doc: Document, level: str) -> None:
        if not isinstance(doc.data, dict):
            message = f"the top level must be a JSON object, got {describe(doc, doc.data)}"
            raise doc.error((), message)
        check_settings(doc, doc.data)
        if field(doc, (), doc.data, "disableAllHooks", want_bool, False):
            self.disable_all = True
            self.warn(doc, ("disableAllHooks",), "claude-hooks-disabled", "disableAllHooks: true")
        if (names := field(doc, (), doc.data, ENV_LIMIT, want_str_list, None)) is not None:
            self.env_limit = (*(self.env_limit or ()), *names)
        if (patterns := field(doc, (), doc.data, URL_LIMIT, want_str_list, None)) is not None:
            self.url_limit = (*(self.url_limit or ()), *patterns)
        if "hooks" not in doc.data:
            return
        section = want_map(doc, ("hooks",), doc.data["hooks"])
        for event, groups in section.items():
            path: KeyPath = ("hooks", event)
            if not isinstance(groups, list):
                message = f"expected a list of matcher groups, got {describe(doc, groups)}"
                raise doc.error(path, message)
            first = len(self.specs)
            for index, group in enumerate(groups):
                self._group(doc, level, event, (*path, index), group)
            if event not in EVENTS:
                self._unknown_event(doc, path, event, first)

    def _unknown_event(self, doc: Document, path: KeyPath, event: str, first: int) -> None:
        """Claude Code loads the file and never fires the event: its hooks are listed with that
        as why they cannot run, so check, run and the UI name them. The newest release known here
        may not be the newest there is, so the warning says which release never runs them."""
        names = [spec.name for spec in self.specs[first:]]
        newest = f"Claude Code {NEWEST_VERSION}, the newest release known here"
        hint = did_you_mean(event, EVENTS) or ""
        message = f'unknown hook event "{event}"{hint}: {newest}, never runs its hooks'
        self.specs[first:] = [
            replace(spec, cannot_run=spec.cannot_run or message) for spec in self.specs[first:]
        ]
        self.warn(doc, path, "claude-unknown-event", message, ", ".join(names) or None)

    def _group(self, doc: Document, level: str, event: str, path: KeyPath, group: object) -> None:
        entry = want_map(doc, path, group)
        self._unknown_keys(doc, path, entry, _GROUP_KEYS, None)
        matcher = field(doc, path, entry, "matcher", want_str, None)
        if matcher is not None and (problem := matcher_error(matcher)):
            raise doc.error((*path, "matcher"), problem)
        if "hooks" not in entry:
            raise doc.error((*path, "hooks"), "is required: the list of handlers to run")
        handlers = entry["hooks"]
        if not isinstance(handlers, list):
            message = f"expected a list of handlers, got {describe(doc, handlers)}"
            raise doc.error((*path, "hooks"), message)
        first = len(self.specs)
        for index, handler in enumerate(handlers):
            where = _Group(doc, level, event, matcher, (*path, "hooks", index))
            self._handler(where, handler)
        if event not in MATCH_FIELDS and not is_match_all(matcher):
            names = ", ".join(spec.name for spec in self.specs[first:]) or None
            message = f"matcher {matcher!r}: {event} hooks are not filtered by matcher here"
            self.warn(doc, (*path, "matcher"), "claude-matcher-ignored", message, names)

    def _handler(self, where: _Group, handler: object) -> None:
        doc, path = where.doc, where.path
        entry = want_map(doc, path, handler)
        read = read_handler(doc, path, entry, where.event)
        label = command_label(read.target) if read.kind == "command" else read.kind
        name = self._names.name(where.event, label)
        for key, message in unknown_keys(read.kind, entry):
            self.warn(doc, (*path, key), "claude-unknown-setting", message, name)
        for key, code, message in read.warnings:
            self.warn(doc, (*path, key), code, message, name)
        if read.cannot_run:
            message = f"{read.kind} handler, not run: {read.cannot_run}"
            self.warn(doc, (*path, "type"), "claude-handler-not-run", message, name)
        self._add(where, name, read)

    def _add(self, where: _Group, name: str, read: ReadHandler) -> None:
        spec = CommandHookSpec(
            name=name,
            host="claude",
            event=where.event,
            command=read.target,
            timeout_ms=round(read.timeout_s * 1000),
            level=where.level,
            matcher=where.matcher,
            source=where.doc.file,
            handler=read.kind,
            http=read.http,
            on_failure=read.on_failure,
            cannot_run=read.cannot_run,
            once=read.once,
            condition=read.condition,
        )
        self.specs.append(spec)

    def _unknown_keys(
        self,
        doc: Document,
        path: KeyPath,
        entry: dict[str, object],
        known: frozenset[str],
        hook: str | None,
    ) -> None:
        def warn(where: KeyPath, message: str, hook: str | None) -> None:
            self.warn(doc, where, "claude-unknown-setting", message, hook)

        unknown_settings(path, entry, known, hook, warn)

    def warn(
        self, doc: Document, path: KeyPath, code: str, message: str, hook: str | None = None
    ) -> None:
        self.warnings.append(ConfigWarning.at(doc, path, finding(code, message), hook))
