"""hook-inspector's handlers in a Claude Code settings file: merged in beside the user's own hooks,
and taken out again leaving the file as it was.

Install keeps every hook the file has and adds one matcher group per chosen event whose only
handler is hook-inspector's; run again, it replaces its own groups (idempotent). Before the first
change the file is copied to `NAME.hook-inspector.bak`. Uninstall removes hook-inspector's
handlers (and the groups, event lists and `hooks` object that only held them); when what is
left is the backup's content, the backup's own bytes go back, so the file is as it was, byte for
byte. A file that did not exist is removed again.

hook-inspector's handlers are of two kinds: the command relay (its command says `relay --host
claude`) and the HTTP hook (its URL's path is http_endpoint.PATH)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.config.document import Document, KeyPath
from inspector.config.fields import describe
from inspector.config.files import read_config_text
from inspector.config.parse import parse_json
from inspector.hosts.claude.events import TOOL_EVENTS
from inspector.hosts.http_endpoint import PATH
from inspector.hosts.install_files import (
    Backup,
    json_object,
    json_text,
    write_back,
    write_through,
)

JSONObject = dict[str, Any]

RELAY_MARK = " relay --host claude"  # in every handler command install writes, and no other
RELAY, HTTP = "the relay", "the HTTP hooks"


def merge(
    file: Path, handler: JSONObject, events: tuple[str, ...], matcher: str | None
) -> tuple[Path | None, Path]:
    """Put `handler` on `events` in `file` (only tool events take `matcher`), in place of what
    hook-inspector put there before; returns the backup made (None: there was no file) and the
    file written (the link's target when `file` is a link)."""
    doc, settings = _read(file)
    hooks = _hooks_of(doc, settings)
    if hooks is None:
        hooks = settings["hooks"] = {}
    _remove_ours(hooks, keep={})
    for event in events:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            assert doc is not None
            message = f"expected a list of matcher groups, got {describe(doc, groups)}"
            raise doc.error(("hooks", event), message)
        group: JSONObject = {"hooks": [handler]}
        if matcher is not None and event in TOOL_EVENTS:
            group = {"matcher": matcher, **group}
        groups.append(group)
    backup = Backup(file)  # beside the path the user named, a link or not
    saved = backup.keep() if doc is not None else None
    return saved, write_through(file, json_text(settings))


def take_out(file: Path) -> str | None:
    """Take hook-inspector's handlers out of `file`; returns what was done, for the user, or
    None when there were none (or no file)."""
    doc, settings = _read(file)
    if doc is None:
        return None
    backup = Backup(file)
    before = backup.content()
    hooks = _hooks_of(doc, settings)
    removed = _remove_ours(hooks, keep=_hooks_in(before)) if hooks is not None else []
    if not removed:
        return None
    if hooks is not None and not hooks and "hooks" not in json_object(before):
        del settings["hooks"]
    kinds = set(removed)
    ours = kinds.pop() if len(kinds) == 1 else "hook-inspector's hooks"
    handlers = {RELAY: "relay handler(s)", HTTP: "HTTP hook handler(s)"}.get(ours, "handler(s)")
    return write_back(file, settings, backup, ours, f"{len(removed)} {handlers}")


def _read(file: Path) -> tuple[Document | None, JSONObject]:
    """The settings file's document (None when there is no file) and its settings."""
    if not file.exists():
        return None, {}
    doc = parse_json(str(file), read_config_text(file))
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


def _remove_ours(hooks: JSONObject, *, keep: JSONObject) -> list[str]:
    """Take every handler of hook-inspector's out of `hooks`, with the groups and event lists
    left empty by that (unless `keep`, the file before install, had them empty too). Returns
    the kind of each one taken out."""
    removed: list[str] = []
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        for group in list(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                continue
            ours = [kind for handler in handlers if (kind := _kind(handler))]
            if not ours:
                continue
            removed += ours
            handlers[:] = [handler for handler in handlers if not _kind(handler)]
            if not handlers:
                groups.remove(group)
        if not groups and event not in keep:
            del hooks[event]
    return removed


def _kind(handler: object) -> str | None:
    """RELAY or HTTP for a handler of hook-inspector's, else None."""
    if not isinstance(handler, dict):
        return None
    command, url = handler.get("command"), handler.get("url")
    if isinstance(command, str) and RELAY_MARK in command:
        return RELAY
    if handler.get("type") == "http" and isinstance(url, str) and f"{PATH}?" in url:
        return HTTP
    return None


def _hooks_in(data: bytes | None) -> JSONObject:
    hooks = json_object(data).get("hooks")
    return hooks if isinstance(hooks, dict) else {}
