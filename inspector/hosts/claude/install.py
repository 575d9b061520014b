"""`hook-inspector install claude` / `uninstall claude`: the relay merged into a Claude Code
settings.json, and taken out again.

Install keeps every hook the file has and adds one matcher group per chosen event whose only
handler is the relay; run again, it replaces its own groups (idempotent). Before the first
change the file is copied to `settings.json.hook-inspector.bak`. Uninstall removes the relay's
handlers (and the groups, event lists and `hooks` object that only held them); when what is left
is the backup's content, the backup's own bytes go back, so the file is as it was, byte for byte.
A file that did not exist is removed again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.config.document import Document, KeyPath
from inspector.config.fields import describe
from inspector.config.files import read_config_text
from inspector.config.parse import parse_json
from inspector.host_names import CLAUDE
from inspector.hosts.claude.events import EVENTS, TOOL_EVENTS
from inspector.hosts.install_files import (
    Backup,
    json_object,
    json_text,
    through_link,
    write_back,
    write_through,
)
from inspector.hosts.install_relay import project_or_user, relay_hook
from inspector.hosts.installer import Options, Place

JSONObject = dict[str, Any]

CLAUDE_DIR, SETTINGS = ".claude", "settings.json"
RELAY_MARK = " relay --host claude"  # in every handler command install writes, and no other
DEFAULT_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "Stop",
    "SubagentStop",
    "SessionEnd",
)


class ClaudeInstaller:
    no_inspector: tuple[str, ...] = ()

    def install(self, place: Place, options: Options) -> str:
        hook = relay_hook(CLAUDE, place, options, EVENTS, DEFAULT_EVENTS)
        file = settings_file(place.project, place.user)
        return install(file, hook.command, hook.events, options.matcher, hook.timeout_s)

    def snippet(self, place: Place, options: Options) -> None:
        return None

    def uninstall(self, place: Place) -> str:
        project_or_user(CLAUDE, place)
        return uninstall(settings_file(place.project, place.user))


def settings_file(project: Path | None, user: bool) -> Path:
    if user:
        return Path.home() / CLAUDE_DIR / SETTINGS
    return (project or Path.cwd()) / CLAUDE_DIR / SETTINGS


def install(
    file: Path, command: str, events: tuple[str, ...], matcher: str | None, timeout_s: int
) -> str:
    """Merge the relay into `file`; returns what was done, for the user."""
    doc, settings = _read(file)
    hooks = _hooks_of(doc, settings)
    if hooks is None:
        hooks = settings["hooks"] = {}
    _remove_relay(hooks, keep={})
    handler = {"type": "command", "command": command, "timeout": timeout_s}
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
    target = write_through(file, json_text(settings))
    where = f" (the file as it was: {saved})" if saved else ""
    return f"the relay runs on {', '.join(events)} in {file}{where}{through_link(file, target)}"


def uninstall(file: Path) -> str:
    """Take the relay out of `file`; returns what was done, for the user."""
    doc, settings = _read(file)
    if doc is None:
        return f"{file} does not exist: nothing to take out"
    backup = Backup(file)
    before = backup.content()
    hooks = _hooks_of(doc, settings)
    removed = _remove_relay(hooks, keep=_hooks_in(before)) if hooks is not None else 0
    if not removed:
        return f"the relay is not in {file}: nothing taken out"
    if hooks is not None and not hooks and "hooks" not in json_object(before):
        del settings["hooks"]
    return write_back(file, settings, backup, "the relay", f"{removed} relay handler(s)")


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


def _remove_relay(hooks: JSONObject, *, keep: JSONObject) -> int:
    """Take every relay handler out of `hooks`, with the groups and event lists left empty by
    that (unless `keep`, the file before install, had them empty too). Returns how many."""
    removed = 0
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        for group in list(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                continue
            ours = [handler for handler in handlers if _is_relay(handler)]
            if not ours:
                continue
            removed += len(ours)
            handlers[:] = [handler for handler in handlers if not _is_relay(handler)]
            if not handlers:
                groups.remove(group)
        if not groups and event not in keep:
            del hooks[event]
    return removed


def _is_relay(handler: object) -> bool:
    command = handler.get("command") if isinstance(handler, dict) else None
    return isinstance(command, str) and RELAY_MARK in command


def _hooks_in(data: bytes | None) -> JSONObject:
    hooks = json_object(data).get("hooks")
    return hooks if isinstance(hooks, dict) else {}


INSTALLER = ClaudeInstaller()
