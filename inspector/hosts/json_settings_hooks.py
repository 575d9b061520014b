"""hook-inspector's handlers in a JSON settings file whose `hooks` object lists, per event,
matcher groups of handlers (Claude Code's and Gemini CLI's settings.json, Codex's hooks.json):
merged in beside the user's own hooks, and taken out again leaving the file as it was.

Merging keeps every hook the file has and adds one matcher group per chosen event whose only
handler is hook-inspector's (only tool events take the matcher), in place of the groups it put
there before (idempotent); before the first change the file is copied to its backup. Taking out
removes hook-inspector's handlers, with the groups, event lists and `hooks` object that only
held them (unless the file before install had them empty too). Which handlers are
hook-inspector's, and what uninstall says, is each host's. Merging is two steps, merged then
write, so that Codex can trust each group it placed before the file is written."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.config.document import Document, KeyPath
from inspector.config.errors import ConfigError
from inspector.config.fields import describe
from inspector.config.files import read_config_text
from inspector.config.json_comments import has_comments
from inspector.config.parse import parse_json
from inspector.hosts.install_files import Backup, json_object, json_text, write_through

JSONObject = dict[str, Any]
# The kind of a handler of hook-inspector's (such as "the relay"), None for the user's own.
KindOf = Callable[[object], str | None]


@dataclass(frozen=True)
class TakenOut:
    """What is left of a settings file once hook-inspector's handlers were taken out."""

    settings: JSONObject
    backup: Backup
    kinds: list[str]  # the kind of each handler taken out


@dataclass(frozen=True)
class Placed:
    """A matcher group merging added: on `event`, at `index` in its list."""

    event: str
    index: int
    group: JSONObject


@dataclass(frozen=True)
class Merged:
    """A settings file's settings with hook-inspector's handler merged in, not written yet."""

    settings: JSONObject
    placed: list[Placed]


def merged(
    file: Path,
    handler: JSONObject,
    events: tuple[str, ...],
    matcher: str | None,
    *,
    tool_events: Collection[str],
    kind_of: KindOf,
    plain_json: bool = False,
) -> Merged:
    """`file`'s settings with `handler` on `events` (only `tool_events` take `matcher`), in
    place of the handlers `kind_of` names, and where each group went; nothing written yet.
    `plain_json`: the host reads the file as plain JSON (Codex), so comments are an error in
    it like any other, not something install would lose."""
    doc, settings = _read(file, plain_json)
    hooks = _hooks_of(doc, settings)
    if hooks is None:
        hooks = settings["hooks"] = {}
    _remove_ours(hooks, kind_of, keep=_hooks_in(Backup(file).content()))
    placed = []
    for event in events:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            assert doc is not None
            message = f"expected a list of matcher groups, got {describe(doc, groups)}"
            raise doc.error(("hooks", event), message)
        group: JSONObject = {"hooks": [handler]}
        if matcher is not None and event in tool_events:
            group = {"matcher": matcher, **group}
        placed.append(Placed(event, len(groups), group))
        groups.append(group)
    return Merged(settings, placed)


def write(file: Path, settings: JSONObject) -> tuple[Path | None, Path]:
    """Write merged settings to `file`, backed up first; returns the backup made (None: there
    was no file) and the file written (the link's target when `file` is a link)."""
    backup = Backup(file)  # beside the path the user named, a link or not
    saved = backup.keep() if file.exists() else None
    return saved, write_through(file, json_text(settings))


def take_out(file: Path, kind_of: KindOf, *, plain_json: bool = False) -> TakenOut | None:
    """`file`'s settings without the handlers `kind_of` names, not written yet; None when it
    had none (or there is no file). `plain_json` as for merged."""
    doc, settings = _read(file, plain_json)
    if doc is None:
        return None
    backup = Backup(file)
    before = backup.content()
    hooks = _hooks_of(doc, settings)
    removed = _remove_ours(hooks, kind_of, keep=_hooks_in(before)) if hooks is not None else []
    if not removed:
        return None
    if hooks is not None and not hooks and "hooks" not in json_object(before):
        del settings["hooks"]
    return TakenOut(settings, backup, removed)


def _read(file: Path, plain_json: bool) -> tuple[Document | None, JSONObject]:
    """The settings file's document (None when there is no file) and its settings."""
    if not file.exists():
        return None, {}
    text = read_config_text(file)
    if not plain_json and has_comments(
        text
    ):  # Gemini CLI allows them; writing the file back would drop them
        message = (
            "has comments, which install would lose when it writes the file back: move them"
            " out, or add hook-inspector's handlers by hand (see the host's manual page)"
        )
        raise ConfigError(str(file), message)
    doc = parse_json(str(file), text)
    if not isinstance(doc.data, dict):
        raise doc.error((), f"the top level must be a JSON object, got {describe(doc, doc.data)}")
    return doc, doc.data


def _hooks_of(doc: Document | None, settings: JSONObject) -> JSONObject | None:
    """The `hooks` object, or None when the settings have none."""
    if "hooks" not in settings:
        return None
    hooks = settings["hooks"]
    if not isinstance(hooks, dict):
        assert doc is not None
        path: KeyPath = ("hooks",)
        raise doc.error(path, f"expected an object of events, got {describe(doc, hooks)}")
    return hooks


def _remove_ours(hooks: JSONObject, kind_of: KindOf, *, keep: JSONObject) -> list[str]:
    """Take every handler `kind_of` names out of `hooks`, with the groups and event lists left
    empty by that (unless `keep`, the file before install, had them empty too); a list that
    was empty already is the user's and stays. Returns the kind of each one taken out."""
    removed: list[str] = []
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list) or not groups:
            continue
        for group in list(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                continue
            ours = [kind for handler in handlers if (kind := kind_of(handler))]
            if not ours:
                continue
            removed += ours
            handlers[:] = [handler for handler in handlers if not kind_of(handler)]
            if not handlers:
                groups[:] = [each for each in groups if each is not group]  # not an equal one
        if not groups and event not in keep:
            del hooks[event]
    return removed


def _hooks_in(data: bytes | None) -> JSONObject:
    hooks = json_object(data).get("hooks")
    return hooks if isinstance(hooks, dict) else {}
