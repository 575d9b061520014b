"""`hook-inspector install gemini` / `uninstall gemini`: the relay merged into a Gemini CLI
settings file (`--project DIR`: DIR/.gemini/settings.json, the default the current folder;
`--user`: ~/.gemini/settings.json), and taken out again.

Install keeps every hook the file has and adds one matcher group per chosen event whose only
hook is the relay (named "hook-inspector", its timeout in milliseconds as Gemini CLI reads it);
run again, it replaces its own groups (idempotent). Before the first change the file is copied
to `settings.json.hook-inspector.bak`. Uninstall removes the relay's hooks (and the groups,
event lists and `hooks` object that only held them); when what is left is the backup's
content, the backup's bytes go back, so the file is as it was, byte for byte. A file that did
not exist is removed again. The merge and the taking out are json_settings_hooks.py's, as for
Claude Code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.hosts import json_settings_hooks
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
from inspector.hosts.install_files import through_link, write_back
from inspector.hosts.install_relay import relay_hook
from inspector.hosts.installer import Flag, Options, Place

JSONObject = dict[str, Any]

RELAY_NAME = "hook-inspector"
RELAY_MARK = f" relay --host {NAME}"  # in every hook command install writes, and no other
RELAY = "the relay"
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
    flags: tuple[Flag, ...] = ()
    config_file: str | None = None
    default_timeout_s = DEFAULT_TIMEOUT_MS // 1000

    def install(self, place: Place, options: Options) -> str:
        # Gemini CLI takes a hook's stderr for its answer when stdout is empty: a relay with no
        # inspector to reach would put its line before the user and reset BeforeToolSelection.
        hook = relay_hook(NAME, options, EVENTS, DEFAULT_EVENTS, self.default_timeout_s, quiet=True)
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
    merged = json_settings_hooks.merged(
        file, handler, events, matcher, tool_events=TOOL_EVENTS, kind_of=_kind
    )
    return json_settings_hooks.write(file, merged.settings)


def take_out(file: Path) -> str | None:
    """Take the relay's hooks out of `file`; what was done, or None when there were none."""
    taken = json_settings_hooks.take_out(file, _kind)
    if taken is None:
        return None
    removed = f"{len(taken.kinds)} relay hook(s)"
    return write_back(file, taken.settings, taken.backup, RELAY, removed)


def _kind(handler: object) -> str | None:
    """RELAY for the relay's hook, else None."""
    command = handler.get("command") if isinstance(handler, dict) else None
    return RELAY if isinstance(command, str) and RELAY_MARK in command else None


INSTALLER = GeminiInstaller()
