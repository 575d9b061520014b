"""Codex's hook files, read for their hooks (codex-cli 0.171.0).

Which files: the user's layer, CODEX_HOME (else ~/.codex), then the project's `.codex` folder,
each as `hooks.json` and the `[hooks]` tables of `config.toml`; Codex runs the hooks of every
file, user first, hooks.json before config.toml within a folder. The path given may be a project
folder, its `.codex` folder or one of those two files; any other JSON file is read on its own
(plus the user's files) as if it were a project's hooks.json. Codex loads a project's `.codex`
folder only when the project is trusted; the workbench reads it regardless.

Each command handler becomes a CommandHookSpec named `<Event>:<label>` (its script's file name,
or the command's first word; `#2`... when taken). `timeout` (or `timeout_sec`) is in seconds,
600 when unset. A structural problem is a ConfigError at file:line:key; what Codex would skip or
ignore (an unknown event, an unknown key, a prompt or agent handler, a matcher on an event that
has none) loads with a warning in Codex's words and, where a hook never runs, its `cannot_run`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from inspector.config.checks import did_you_mean
from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError
from inspector.config.fields import describe, field, want_bool, want_int, want_map, want_str
from inspector.config.files import read_config_text
from inspector.config.hook_names import HookNames, command_label, unknown_keys
from inspector.config.model import CommandHookSpec, Config, HandlerKind
from inspector.config.parse import parse_json
from inspector.config.warning import ConfigWarning
from inspector.hosts.codex import NAME, switches
from inspector.hosts.codex.events import (
    DEFAULT_TIMEOUT_S,
    DISPLAY_ORDER,
    EVENTS,
    MATCH_FIELDS,
    is_match_all,
    matcher_error,
)
from inspector.hosts.codex.findings import finding
from inspector.hosts.codex.switches import Identity
from inspector.hosts.codex.toml_doc import parse_toml
from inspector.hosts.codex.trust import hook_hash, hook_key

CODEX_DIR = ".codex"
HOOKS_JSON = "hooks.json"
CONFIG_TOML = "config.toml"
USER, PROJECT = "user", "project"
STATE = "state"  # [hooks.state."<key>"]: Codex's trust and on/off record, not an event
COMPACT_LIMIT = "model_auto_compact_token_limit"  # a config.toml key the turn runner plays
_GROUP_KEYS = frozenset({"matcher", "hooks"})
_COMMAND_KEYS = frozenset(
    {
        "type",
        "command",
        "commandWindows",
        "command_windows",
        "timeout",
        "timeout_sec",
        "timeoutSec",
        "async",
        "statusMessage",
        "status_message",
    }
)
MCP_TOOL: HandlerKind = "mcp_tool"
_TYPES = ("command", MCP_TOOL, "prompt", "agent")
_TYPES_SAID = ", ".join(f"`{kind}`" for kind in _TYPES)
_NOT_RUN = {
    "prompt": "prompt hooks are not supported yet",
    "agent": "agent hooks are not supported yet",
}


@dataclass(frozen=True)
class CodexFiles:
    config: Config
    warnings: tuple[ConfigWarning, ...]
    files: tuple[Path, ...]  # every file read, user first: what a reload watches
    project_dir: Path  # the hooks' working folder


def codex_home() -> Path:
    """Codex's own folder: CODEX_HOME, else ~/.codex."""
    explicit = os.environ.get("CODEX_HOME")
    return Path(explicit) if explicit else Path.home() / CODEX_DIR


def read_codex(path: str | Path) -> CodexFiles:
    """Read the hook files `path` stands for; anything wrong is a ConfigError."""
    project_dir, project_files = _project_files(path)
    home = codex_home()
    user_files = [
        (USER, home / name) for name in (HOOKS_JSON, CONFIG_TOML) if (home / name).is_file()
    ]
    sources = [
        source
        for source in user_files
        if all(not source[1].samefile(file) for _, file in project_files)
    ] + project_files
    reader = _Reader()
    for level, file in sources:
        text = read_config_text(file)
        if file.suffix == ".toml":
            reader.read(parse_toml(str(file), text), level, toml=True)
        else:
            reader.read(parse_json(str(file), text), level, toml=False)
    files = tuple(file for _, file in sources)
    switched, notes = switches.apply(reader.specs, reader.identities, reader.tomls)
    specs = tuple(
        replace(spec, priority=index)
        for index, spec in enumerate(sorted(switched, key=lambda spec: _listed(spec, files)))
    )
    config = Config(hooks=specs, path=project_files[0][1], host=NAME)
    return CodexFiles(config, (*reader.warnings, *notes), files, project_dir)


def _check_compact_limit(doc: Document, data: dict[str, object]) -> None:
    """Codex refuses to load a config.toml whose compaction limit is not an integer (seen with
    0.171.0: `invalid type: string "lots", expected i64`)."""
    if COMPACT_LIMIT in data and type(data[COMPACT_LIMIT]) is not int:
        raise doc.error((COMPACT_LIMIT,), switches.refused(doc, data[COMPACT_LIMIT], "an integer"))


def _listed(spec: CommandHookSpec, files: tuple[Path, ...]) -> tuple[int, int]:
    """Where Codex lists a hook: by file (user first), then in its order of events; sorted()
    keeps the file's own order within one event."""
    order = DISPLAY_ORDER.index(spec.event) if spec.event in DISPLAY_ORDER else len(DISPLAY_ORDER)
    return ([str(file) for file in files].index(spec.source), order)


def _project_files(path: str | Path) -> tuple[Path, list[tuple[str, Path]]]:
    given = Path(os.path.abspath(path))
    if given.is_dir():
        folder = given if given.name == CODEX_DIR else given / CODEX_DIR
    elif (
        given.is_file()
        and given.parent.name == CODEX_DIR
        and given.name in (HOOKS_JSON, CONFIG_TOML)
    ):
        folder = given.parent
    elif given.is_file():
        return given.parent, [(PROJECT, given)]
    else:
        raise ConfigError(str(path), "no such file or folder")
    found = [
        (PROJECT, folder / name) for name in (HOOKS_JSON, CONFIG_TOML) if (folder / name).is_file()
    ]
    if not found:
        raise ConfigError(
            str(path), f"no {CODEX_DIR}/{HOOKS_JSON} or {CODEX_DIR}/{CONFIG_TOML} here"
        )
    return folder.parent, found


class _Reader:
    """Collects specs and warnings from one file after another."""

    def __init__(self) -> None:
        self.specs: list[CommandHookSpec] = []
        self.warnings: list[ConfigWarning] = []
        self._names = HookNames()
        self._folders: dict[Path, str] = {}  # the folders read so far: which form had hooks
        self.identities: dict[str, Identity] = {}  # by spec name: Codex's key and hash of it
        self.tomls: list[Document] = []  # the config.toml files read, in order

    def read(self, doc: Document, level: str, *, toml: bool) -> None:
        if not isinstance(doc.data, dict):
            raise doc.error(
                (), f"the top level must be a JSON object, got {describe(doc, doc.data)}"
            )
        if toml:
            self.tomls.append(doc)
            _check_compact_limit(doc, doc.data)
        if "hooks" not in doc.data:
            return
        section = want_map(doc, ("hooks",), doc.data["hooks"])
        events = {
            event: groups for event, groups in section.items() if not (toml and event == STATE)
        }
        if events:
            self._one_form(doc)
        for event, groups in events.items():
            path: KeyPath = ("hooks", event)
            if not isinstance(groups, list):
                raise doc.error(
                    path, f"expected a list of matcher groups, got {describe(doc, groups)}"
                )
            first = len(self.specs)
            for index, group in enumerate(groups):
                self._group(doc, level, event, (*path, index), group)
            if event not in EVENTS:
                self._unknown_event(doc, path, event, first)

    def _one_form(self, doc: Document) -> None:
        folder = Path(doc.file).parent
        other = self._folders.setdefault(folder, doc.file)
        if other != doc.file:
            message = (
                f"loading hooks from both {other} and {doc.file};"
                " prefer a single representation for this layer"
            )
            self.warn(doc, ("hooks",), "codex-two-forms", message)

    def _unknown_event(self, doc: Document, path: KeyPath, event: str, first: int) -> None:
        names = [spec.name for spec in self.specs[first:]]
        message = (
            f'unknown hook event "{event}"{did_you_mean(event, EVENTS)}: Codex never runs its hooks'
        )
        self.specs[first:] = [
            replace(spec, cannot_run=spec.cannot_run or message) for spec in self.specs[first:]
        ]
        self.warn(doc, path, "codex-unknown-event", message, ", ".join(names) or None)

    def _group(self, doc: Document, level: str, event: str, path: KeyPath, group: object) -> None:
        entry = want_map(doc, path, group)
        self._unknown_keys(doc, path, entry, _GROUP_KEYS, None)
        matcher = field(doc, path, entry, "matcher", want_str, None)
        if matcher is not None and event in MATCH_FIELDS and (problem := matcher_error(matcher)):
            raise doc.error((*path, "matcher"), f"{problem}; Codex skips this group")
        handlers = entry.get("hooks", [])
        if not isinstance(handlers, list):
            raise doc.error(
                (*path, "hooks"), f"expected a list of handlers, got {describe(doc, handlers)}"
            )
        first = len(self.specs)
        for index, handler in enumerate(handlers):
            self._handler(doc, level, event, matcher, (*path, "hooks", index), handler)
        if event not in MATCH_FIELDS and not is_match_all(matcher):
            names = ", ".join(spec.name for spec in self.specs[first:]) or None
            message = f"matcher {matcher!r}: Codex runs every {event} hook whatever the matcher"
            self.warn(doc, (*path, "matcher"), "codex-matcher-ignored", message, names)

    def _handler(
        self,
        doc: Document,
        level: str,
        event: str,
        matcher: str | None,
        path: KeyPath,
        handler: object,
    ) -> None:
        entry = want_map(doc, path, handler)
        if "type" not in entry:
            raise doc.error((*path, "type"), f"is required: one of {_TYPES_SAID}")
        kind = want_str(doc, (*path, "type"), entry["type"])
        if kind in _NOT_RUN:
            name = self._names.name(event, kind)
            message = f"skipping {kind} hook in {doc.file}: {_NOT_RUN[kind]}"
            self.warn(doc, (*path, "type"), "codex-handler-not-run", message, name)
            return
        if kind == MCP_TOOL:
            self._mcp_tool(doc, level, event, matcher, path, entry)
            return
        if kind != "command":
            hint = did_you_mean(kind, _TYPES)
            message = f"unknown variant `{kind}`, expected one of {_TYPES_SAID}{hint}"
            raise doc.error((*path, "type"), f"{message}: Codex refuses the whole file")
        if "command" not in entry:
            raise doc.error((*path, "command"), "is required: the shell command to run")
        command = want_str(doc, (*path, "command"), entry["command"])
        if not command.strip():
            raise doc.error((*path, "command"), "is empty: Codex skips an empty hook command")
        timeout_key = next(
            (key for key in ("timeout", "timeout_sec", "timeoutSec") if key in entry), None
        )
        timeout_s = DEFAULT_TIMEOUT_S
        if timeout_key is not None:
            timeout_s = max(1, want_int(doc, (*path, timeout_key), entry[timeout_key]))
        name = self._names.name(event, command_label(command))
        self._unknown_keys(doc, path, entry, _COMMAND_KEYS, name)
        background = field(doc, path, entry, "async", want_bool, False)
        if background:
            message = "async: true: Codex does not wait for it, so its answer decides nothing"
            self.warn(doc, (*path, "async"), "codex-async", message, name)
        normal = {"type": "command", "command": command, "timeout": timeout_s, "async": background}
        status = entry.get("statusMessage", entry.get("status_message"))
        if isinstance(status, str):
            normal["statusMessage"] = status
        own_matcher = matcher if event in MATCH_FIELDS else None  # as Codex hashes it
        key = hook_key(Path(doc.file), event, int(path[2]), int(path[4]))
        self.identities[name] = Identity(doc, path, key, hook_hash(event, own_matcher, normal))
        self.specs.append(
            CommandHookSpec(
                name=name,
                host=NAME,
                event=event,
                command=command,
                timeout_ms=timeout_s * 1000,
                level=level,
                matcher=matcher,
                source=doc.file,
                background=background,
            )
        )

    def _mcp_tool(
        self,
        doc: Document,
        level: str,
        event: str,
        matcher: str | None,
        path: KeyPath,
        entry: dict[str, object],
    ) -> None:
        """A hook that calls an MCP server's tool: listed with why the inspector cannot run it."""
        target = []
        for key in ("server", "tool"):
            if key not in entry:
                raise doc.error((*path, key), f"is required: the {key} an mcp_tool hook calls")
            target.append(want_str(doc, (*path, key), entry[key]))
        name = self._names.name(event, f"mcp:{target[1]}")
        why = f"calls {'/'.join(target)}: the inspector has no MCP server to call"
        self.warn(
            doc,
            (*path, "type"),
            "codex-handler-not-run",
            f"mcp_tool handler, not run here: {why}",
            name,
        )
        timeout_s = max(1, field(doc, path, entry, "timeout", want_int, DEFAULT_TIMEOUT_S))
        self.specs.append(
            CommandHookSpec(
                name=name,
                host=NAME,
                event=event,
                command="/".join(target),
                timeout_ms=timeout_s * 1000,
                level=level,
                matcher=matcher,
                source=doc.file,
                handler=MCP_TOOL,
                cannot_run=why,
            )
        )

    def _unknown_keys(
        self,
        doc: Document,
        path: KeyPath,
        entry: dict[str, object],
        known: frozenset[str],
        hook: str | None,
    ) -> None:
        def warn(where: KeyPath, message: str, hook: str | None) -> None:
            self.warn(doc, where, "codex-unknown-setting", message, hook)

        unknown_keys(path, entry, known, hook, warn)

    def warn(
        self, doc: Document, path: KeyPath, code: str, message: str, hook: str | None = None
    ) -> None:
        self.warnings.append(ConfigWarning.at(doc, path, finding(code, message), hook))
