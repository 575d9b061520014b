"""`hook-inspector install gemini` / `uninstall gemini`: the relay merged into a Gemini CLI
settings file (`--project DIR`: DIR/.gemini/settings.json, the default the current folder;
`--user`: ~/.gemini/settings.json), and taken out again.

Install keeps every hook the file has and adds one matcher group per chosen event whose only
hook is the relay (named "hook-inspector", its timeout in milliseconds as Gemini CLI reads it);
run again, it replaces its own groups (idempotent). Before the first change the file is copied
to `settings.json.hook-inspector.bak`. Uninstall removes the relay's hooks (and the groups,
event lists and `hooks` object that only held them); when what is left is the backup's
content, the backup's bytes go back, so the file is as it was, byte for byte. A file that did
not exist is removed again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.config.document import Document
from inspector.config.fields import describe
from inspector.config.files import read_config_text
from inspector.config.parse import parse_json
from inspector.hosts.gemini import NAME
from inspector.hosts.gemini.config import DEFAULT_TIMEOUT_MS, GEMINI_DIR, SETTINGS
from inspector.hosts.gemini.events import (
    AFTER_AGENT,
    AFTER_TOOL,
    BEFORE_AGENT,
    BEFORE_TOOL,
    EVENTS,
    NOTIFICATION,
    SESSION_END,
    SESSION_START,
    TOOL_EVENTS,
)
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

RELAY_NAME = "hook-inspector"
RELAY_MARK = f" relay --host {NAME}"  # in every hook command install writes, and no other
# The model events fire on every model call (AfterModel on every streamed chunk): asked for
# by name only.
DEFAULT_EVENTS = (
    SESSION_START,
    BEFORE_AGENT,
    BEFORE_TOOL,
    AFTER_TOOL,
    AFTER_AGENT,
    NOTIFICATION,
    SESSION_END,
)


class GeminiInstaller:
    no_inspector: tuple[str, ...] = ()

    def install(self, place: Place, options: Options) -> str:
        # Gemini CLI takes a hook's stderr for its answer when stdout is empty: a relay with no
        # inspector to reach would put its line before the user and reset BeforeToolSelection.
        timeout_s = DEFAULT_TIMEOUT_MS // 1000
        hook = relay_hook(NAME, place, options, EVENTS, DEFAULT_EVENTS, timeout_s, quiet=True)
        file = settings_file(place)
        handler = {
            "name": RELAY_NAME,
            "type": "command",
            "command": hook.command,
            "timeout": hook.timeout_s * 1000,
        }
        saved, target = merge(file, handler, hook.events, options.matcher)
        where = f" (the file as it was: {saved})" if saved else ""
        events = ", ".join(hook.events)
        return f"the relay runs on {events} in {file}{where}{through_link(file, target)}"

    def snippet(self, place: Place, options: Options) -> None:
        return None

    def uninstall(self, place: Place) -> str:
        project_or_user(NAME, place)
        file = settings_file(place)
        if (done := take_out(file)) is not None:
            return done
        if not file.exists():
            return f"{file} does not exist: nothing to take out"
        return f"the relay is not in {file}: nothing taken out"


def settings_file(place: Place) -> Path:
    if place.user:
        return Path.home() / GEMINI_DIR / SETTINGS
    return (place.project or Path.cwd()) / GEMINI_DIR / SETTINGS


def merge(
    file: Path, handler: JSONObject, events: tuple[str, ...], matcher: str | None
) -> tuple[Path | None, Path]:
    """Put `handler` on `events` in `file` (only tool events take `matcher`) in place of what
    install put there before; returns the backup made (None: there was no file) and the file
    written (the link's target when `file` is a link)."""
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
    saved = Backup(file).keep() if doc is not None else None
    return saved, write_through(file, json_text(settings))


def take_out(file: Path) -> str | None:
    """Take the relay's hooks out of `file`; what was done, or None when there were none."""
    doc, settings = _read(file)
    if doc is None:
        return None
    backup = Backup(file)
    before = backup.content()
    hooks = _hooks_of(doc, settings)
    before_hooks = json_object(before).get("hooks")
    keep = before_hooks if isinstance(before_hooks, dict) else {}
    removed = _remove_ours(hooks, keep=keep) if hooks is not None else 0
    if not removed:
        return None
    if hooks is not None and not hooks and "hooks" not in json_object(before):
        del settings["hooks"]
    return write_back(file, settings, backup, "the relay", f"{removed} relay hook(s)")


def _read(file: Path) -> tuple[Document | None, JSONObject]:
    if not file.exists():
        return None, {}
    doc = parse_json(str(file), read_config_text(file))
    if not isinstance(doc.data, dict):
        raise doc.error((), f"the top level must be a JSON object, got {describe(doc, doc.data)}")
    return doc, doc.data


def _hooks_of(doc: Document | None, settings: JSONObject) -> JSONObject | None:
    if "hooks" not in settings:
        return None
    hooks = settings["hooks"]
    if not isinstance(hooks, dict):
        assert doc is not None
        raise doc.error(("hooks",), f"expected an object of events, got {describe(doc, hooks)}")
    return hooks


def _remove_ours(hooks: JSONObject, *, keep: JSONObject) -> int:
    """Take every relay hook out of `hooks`, with the groups and event lists left empty by that
    (unless `keep`, the file before install, had them empty too); how many were taken."""
    removed = 0
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        for group in list(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                continue
            ours = [handler for handler in handlers if _is_ours(handler)]
            if not ours:
                continue
            removed += len(ours)
            handlers[:] = [handler for handler in handlers if not _is_ours(handler)]
            if not handlers:
                groups.remove(group)
        if not groups and event not in keep:
            del hooks[event]
    return removed


def _is_ours(handler: object) -> bool:
    command = handler.get("command") if isinstance(handler, dict) else None
    return isinstance(command, str) and RELAY_MARK in command


INSTALLER = GeminiInstaller()
