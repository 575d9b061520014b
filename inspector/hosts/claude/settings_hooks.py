"""hook-inspector's handlers in a Claude Code settings file: merged in beside the user's own hooks,
and taken out again leaving the file as it was.

Install keeps every hook the file has and adds one matcher group per chosen event whose only
handler is hook-inspector's; run again, it replaces its own groups (idempotent). Before the first
change the file is copied to `NAME.hook-inspector.bak`. Uninstall removes hook-inspector's
handlers (and the groups, event lists and `hooks` object that only held them); when what is
left is the backup's content, the backup's own bytes go back, so the file is as it was, byte for
byte. A file that did not exist is removed again.

The merge and the taking out are json_settings_hooks.py's, as for Gemini CLI; hook-inspector's
handlers here are of two kinds: the command relay (its command says `relay --host
claude`) and the HTTP hook (its URL's path is http_endpoint.PATH)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.hosts import json_settings_hooks
from inspector.hosts.claude.events import TOOL_EVENTS
from inspector.hosts.http_endpoint import PATH
from inspector.hosts.install_files import write_back

JSONObject = dict[str, Any]

RELAY_MARK = " relay --host claude"  # in every handler command install writes, and no other
RELAY, HTTP = "the relay", "the HTTP hooks"


def merge(
    file: Path, handler: JSONObject, events: tuple[str, ...], matcher: str | None
) -> tuple[Path | None, Path]:
    """Put `handler` on `events` in `file` (only tool events take `matcher`), in place of what
    hook-inspector put there before; returns the backup made (None: there was no file) and the
    file written (the link's target when `file` is a link)."""
    merged = json_settings_hooks.merged(
        file, handler, events, matcher, tool_events=TOOL_EVENTS, kind_of=_kind
    )
    return json_settings_hooks.write(file, merged.settings)


def take_out(file: Path) -> str | None:
    """Take hook-inspector's handlers out of `file`; returns what was done, for the user, or
    None when there were none (or no file)."""
    taken = json_settings_hooks.take_out(file, _kind)
    if taken is None:
        return None
    kinds = set(taken.kinds)
    ours = kinds.pop() if len(kinds) == 1 else "hook-inspector's hooks"
    handlers = {RELAY: "relay handler(s)", HTTP: "HTTP hook handler(s)"}.get(ours, "handler(s)")
    return write_back(file, taken.settings, taken.backup, ours, f"{len(taken.kinds)} {handlers}")


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
