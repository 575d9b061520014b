"""The relay in a Codex hooks.json: merged in beside the user's own hooks, and taken out again
leaving the file as it was.

Install keeps every hook the file has and adds one matcher group per chosen event whose only
handler is the relay; run again, it replaces its own groups (idempotent). Before the first change
the file is copied to `hooks.json.hook-inspector.bak`. Uninstall removes the relay's handlers
(and the groups, event lists and `hooks` object that only held them); when what is left is the
backup's content, the backup's own bytes go back, so the file is as it was, byte for byte. A file
that did not exist is removed again."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from inspector.config.document import Document
from inspector.config.fields import describe
from inspector.config.files import read_config_text
from inspector.config.parse import parse_json
from inspector.hosts.codex.events import MATCH_FIELDS
from inspector.hosts.codex.trust import hook_hash, hook_key
from inspector.hosts.install_files import (
    Backup,
    json_object,
    json_text,
    write_atomically,
    write_back,
    write_through,
)

JSONObject = dict[str, Any]

RELAY_MARK = " relay --host codex"  # in every handler command install writes, and no other


def merge(
    file: Path, handler: JSONObject, events: tuple[str, ...], matcher: str | None
) -> tuple[JSONObject, dict[str, str]]:
    """`file`'s settings with `handler` on `events` (only events with a matcher take `matcher`),
    in place of what install put there before, and Codex's trust key and hash of each relay
    handler; nothing written yet (write does that)."""
    doc, data = _read(file)
    hooks = _hooks_of(doc, data)
    if hooks is None:
        hooks = data["hooks"] = {}
    _remove_ours(hooks, keep=set(_hooks_before_install(file) or {}))
    written: dict[str, str] = {}
    for event in events:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            assert doc is not None
            message = f"expected a list of matcher groups, got {describe(doc, groups)}"
            raise doc.error(("hooks", event), message)
        group: JSONObject = {"hooks": [handler]}
        own_matcher = matcher if event in MATCH_FIELDS else None
        if own_matcher is not None:
            group = {"matcher": own_matcher, **group}
        written[hook_key(file, event, len(groups), 0)] = hook_hash(event, own_matcher, handler)
        groups.append(group)
    return data, written


def write(file: Path, data: JSONObject) -> tuple[Path | None, Path]:
    """Write merge's `data` to `file`, backed up first; the backup made (None: there was no
    file) and the file written."""
    backup = Backup(file)
    saved = backup.keep() if file.exists() else None
    return saved, write_through(file, json_text(data))


def roll_back(file: Path, target: Path, previous: bytes | None, backed_up: bool) -> None:
    """Undo write: `previous` (the file's bytes before it, None: there was no file) back in
    `target`, and the backup gone unless it was there before (`backed_up`)."""
    if previous is None:
        target.unlink()
    else:
        write_atomically(target, previous)
    if not backed_up:
        Backup(file).discard()


def take_out(file: Path) -> str | None:
    """Remove the relay from `file`; what was done, or None when it was not there."""
    if not file.exists():
        return None
    doc, data = _read(file)
    hooks = _hooks_of(doc, data)
    if hooks is None:
        return None
    had = _hooks_before_install(file)
    if not _remove_ours(hooks, keep=set(had or {})):
        return None
    if not hooks and had is None:
        del data["hooks"]
    return write_back(file, data, Backup(file), "the relay", "the relay")


def _read(file: Path) -> tuple[Document | None, JSONObject]:
    if not file.exists():
        return None, {}
    doc = parse_json(str(file), read_config_text(file))
    if not isinstance(doc.data, dict):
        raise doc.error((), f"the top level must be a JSON object, got {describe(doc, doc.data)}")
    return doc, doc.data


def _hooks_of(doc: Document | None, data: JSONObject) -> JSONObject | None:
    hooks = data.get("hooks")
    if hooks is None:
        return None
    if not isinstance(hooks, dict):
        assert doc is not None
        raise doc.error(("hooks",), f"expected an object of events, got {describe(doc, hooks)}")
    return hooks


def _hooks_before_install(file: Path) -> JSONObject | None:
    """The hooks object `file` had before install, as its backup holds it; None: it had none,
    or there is no backup (install made the file)."""
    had = json_object(Backup(file).content()).get("hooks")
    return had if isinstance(had, dict) else None


def _remove_ours(hooks: JSONObject, keep: Collection[str]) -> list[str]:
    """Take the relay's handlers out of `hooks`, and the groups that only held them, and the
    event lists they left empty but those in `keep` (the file had them before install); the
    events it was on. Lists and groups the relay was not in stay as they are."""
    events = []
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                kept.append(group)
                continue
            own = [handler for handler in handlers if not _is_relay(handler)]
            if len(own) == len(handlers):
                kept.append(group)
                continue
            if event not in events:
                events.append(event)
            if own:
                kept.append({**group, "hooks": own})
        if kept or event not in events or event in keep:
            hooks[event] = kept
        else:
            del hooks[event]
    return events


def _is_relay(handler: object) -> bool:
    return isinstance(handler, dict) and RELAY_MARK in str(handler.get("command", ""))
