"""j-cli hook configs, read from where j-cli reads them, in the order it runs them.

Levels: user (`~/.jdata/agent/`) then project (`.jcli/`); within each, the folder layout
(`hooks/<name>/HOOK.yaml`, j-cli G3 and j-agent G4) and then the legacy single file
(`hooks.yaml`, G1/G2). No real j-cli version reads both layouts; the inspector does, and says so.
Builtin and session hooks do not live in files.

Spec names are j-cli's disable IDs: `<level>:<folder name>`, or for legacy entries
`<level>:<first 40 characters of the command>`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from inspector.config.checks import did_you_mean
from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError
from inspector.config.fields import describe, want_map, want_str_list
from inspector.config.files import read_config_text
from inspector.config.model import CommandHookSpec, Config
from inspector.config.parse import parse_yaml
from inspector.config.warning import ConfigWarning
from inspector.hosts.jcli import NAME
from inspector.hosts.jcli.events import EVENTS
from inspector.hosts.jcli.findings import finding
from inspector.hosts.jcli.hookdef import DEF_KEYS, HookDef, read_hookdef

USER_HOME = Path(".jdata") / "agent"  # under Path.home()
PROJECT_DIR = ".jcli"
HOOK_FILES = ("HOOK.yaml", "HOOK.yml")  # HOOK.yaml wins when both exist
LEGACY_FILE = "hooks.yaml"
SKIPPED_FOLDER = "example"
LEGACY_ID_CHARS = 40
_WHOLE_FILE = "every hook in this file"


@dataclass(frozen=True)
class JcliConfig:
    config: Config
    warnings: tuple[ConfigWarning, ...]
    files: tuple[Path, ...]  # every file read, for the watcher
    cwd: Path  # where j would run: the project root, or the current directory


@dataclass(frozen=True)
class _Level:
    name: str
    folder: Path | None  # hooks/<name>/HOOK.yaml
    legacy: Path | None  # hooks.yaml


def load_jcli(path: str | Path) -> Config:
    return read_jcli(path).config


def read_jcli(path: str | Path) -> JcliConfig:
    """`path` is a project root (holding .jcli/), a .jcli folder, a hooks folder or a legacy
    hooks.yaml. The user level always comes from Path.home(), as j-cli's does."""
    target = Path(os.path.abspath(path))
    if not target.exists():
        raise ConfigError(str(path), "no such file or folder")
    user_home = Path.home() / USER_HOME
    user_places = (user_home, user_home / "hooks", user_home / LEGACY_FILE)
    reader = _Reader()
    reader.read_level(_Level("user", *user_places[1:]))
    if target.resolve() not in {place.resolve() for place in user_places}:
        reader.read_level(_project_level(target))
    config = Config(hooks=tuple(reader.specs), path=target, host=NAME)
    return JcliConfig(config, tuple(reader.warnings), tuple(reader.files), _cwd(target))


def _project_level(target: Path) -> _Level:
    if target.is_file():
        return _Level("project", None, target)
    config_dir = target / PROJECT_DIR if (target / PROJECT_DIR).is_dir() else target
    if config_dir.name == PROJECT_DIR:
        return _Level("project", config_dir / "hooks", config_dir / LEGACY_FILE)
    return _Level("project", target, None)  # a hooks folder given directly


def _cwd(target: Path) -> Path:
    """Where j would be started for these hooks to be the project's."""
    for folder in (target, *target.parents):
        if folder.name == PROJECT_DIR:
            return folder.parent
        if (folder / PROJECT_DIR).is_dir():
            return folder
    return Path.cwd()


class _Reader:
    def __init__(self) -> None:
        self.specs: list[CommandHookSpec] = []
        self.warnings: list[ConfigWarning] = []
        self.files: list[Path] = []
        self._seen: set[tuple[str, str]] = set()

    def read_level(self, level: _Level) -> None:
        first = len(self.specs)
        with _jcli_drops("this hook"):
            for doc, hook_dir in self._hook_folders(level):
                self._folder_hook(doc, level.name, hook_dir)
        self._warn_folder_order(first)
        if level.legacy is not None and level.legacy.is_file():
            with _jcli_drops(_WHOLE_FILE):
                doc = self._parse(level.legacy)
            self._legacy_file(doc, level.name)

    def _hook_folders(self, level: _Level) -> Iterator[tuple[Document, Path]]:
        if level.folder is None or not level.folder.is_dir():
            return
        for hook_dir in sorted(entry for entry in level.folder.iterdir() if entry.is_dir()):
            if hook_dir.name == SKIPPED_FOLDER:
                continue  # j-agent skips it: it is where the shipped example lives
            files = [hook_dir / name for name in HOOK_FILES if (hook_dir / name).is_file()]
            if not files:
                continue
            if files[0].name == "HOOK.yml":
                message = "HOOK.yml is read by j-agent (G4) only; G3 needs HOOK.yaml"
                hook = f"{level.name}:{hook_dir.name}"
                self._warn_file(files[0], "jcli-version-only", message, hook)
            yield self._parse(files[0]), hook_dir

    def _parse(self, file: Path) -> Document:
        self.files.append(file)
        return parse_yaml(str(file), read_config_text(file))

    def _folder_hook(self, doc: Document, level: str, hook_dir: Path) -> None:
        name = f"{level}:{hook_dir.name}"
        entry = want_map(doc, (), doc.data)
        if "events" not in entry:
            raise doc.error((), "events is required: the list of events this hook runs on")
        events = want_str_list(doc, ("events",), entry["events"])
        if not events:
            raise doc.error(("events",), "must name at least one event")
        for index, event in enumerate(events):
            _check_event(doc, ("events", index), event)
        hookdef = read_hookdef(
            doc, (), entry, hook=name, allowed=(*DEF_KEYS, "events"), warnings=self.warnings
        )
        if self._runnable(doc, (), hookdef, name):
            for event in events:
                self._add(doc, hookdef, name, event, level, str(hook_dir))

    def _legacy_file(self, doc: Document, level: str) -> None:
        if not isinstance(doc.data, dict):
            message = (
                f"expected a map of event names to lists of hooks, got {describe(doc, doc.data)}"
            )
            with _jcli_drops(_WHOLE_FILE):
                raise doc.error((), message)
        before = len(self.specs)
        for event, items in doc.data.items():
            with _jcli_drops("the hooks of this event"):
                _check_event(doc, (event,), event)
            with _jcli_drops(_WHOLE_FILE):
                self._legacy_event(doc, level, event, items)
        message = "hooks from the single-file layout; j-cli G3 and j-agent G4 do not read it"
        for name in dict.fromkeys(spec.name for spec in self.specs[before:]):
            self._warn_file(Path(doc.file), "jcli-legacy-layout", message, name)

    def _legacy_event(self, doc: Document, level: str, event: str, items: object) -> None:
        if not isinstance(items, list):
            raise doc.error((event,), f"expected a list of hooks, got {describe(doc, items)}")
        for index, raw in enumerate(items):
            path: KeyPath = (event, index)
            command = raw.get("command") if isinstance(raw, dict) else None
            label = str(command if command is not None else raw)[:LEGACY_ID_CHARS]
            name = f"{level}:{label}"
            hookdef = read_hookdef(doc, path, raw, hook=name, warnings=self.warnings)
            if self._runnable(doc, path, hookdef, name):
                self._add(doc, hookdef, name, event, level, None)

    def _runnable(self, doc: Document, path: KeyPath, hookdef: HookDef, name: str) -> bool:
        if hookdef.kind == "llm":
            message = f"{name} is an LLM hook (type: llm); the inspector does not run it"
            self.warnings.append(
                ConfigWarning.at(doc, path, finding("jcli-llm-hook", message), name)
            )
        return hookdef.kind != "llm"

    def _add(
        self,
        doc: Document,
        hookdef: HookDef,
        name: str,
        event: str,
        level: str,
        hook_dir: str | None,
    ) -> None:
        unique, count = name, 1
        while (unique, event) in self._seen:  # the same command twice in one legacy list
            count += 1
            unique = f"{name} #{count}"
        self._seen.add((unique, event))
        self.specs.append(
            CommandHookSpec(
                name=unique,
                host="jcli",
                event=event,
                command=hookdef.command,
                timeout_ms=hookdef.timeout_s * 1000,
                dir=hook_dir,
                level=level,
                retry=hookdef.retry,
                on_error=hookdef.on_error,
                tool_name=hookdef.tool_name,
                tool_matcher=hookdef.tool_matcher,
                model_prefix=hookdef.model_prefix,
                priority=len(self.specs),
                source=doc.file,
            )
        )

    def _warn_folder_order(self, first: int) -> None:
        """j-cli lists hook folders unsorted: where two share an event, their order may differ."""
        by_event: dict[str, list[CommandHookSpec]] = {}
        for spec in self.specs[first:]:
            by_event.setdefault(spec.event, []).append(spec)
        for event, specs in by_event.items():
            for earlier, spec in pairwise(specs):
                message = (
                    f"{spec.name} runs after {earlier.name} on {event} here (sorted by name); "
                    "j-cli may run them the other way round"
                )
                self._warn_file(Path(spec.source), "jcli-folder-order", message, spec.name)

    def _warn_file(self, file: Path, code: str, message: str, hook: str) -> None:
        self.warnings.append(ConfigWarning(str(file), finding(code, message), hook=hook))


@contextmanager
def _jcli_drops(what: str) -> Iterator[None]:
    """Say, on a config error, what j-cli does instead of refusing: it drops the broken part
    with only a log line."""
    try:
        yield
    except ConfigError as error:
        message = f"{error.message} (j-cli drops {what} with only a log line)"
        raise ConfigError(error.file, message, line=error.line, key=error.key) from None


def _check_event(doc: Document, path: KeyPath, event: str) -> None:
    if event not in EVENTS:
        hint = did_you_mean(event, EVENTS) or f"; j-cli knows {', '.join(EVENTS)}"
        raise doc.error(path, f'unknown event "{event}"{hint}')
