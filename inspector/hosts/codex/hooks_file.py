"""The relay in a Codex hooks.json: merged in beside the user's own hooks, and taken out again
leaving the file as it was.

The merge, the backup and the taking out are json_settings_hooks.py's, as for Claude Code's and
Gemini CLI's settings.json (the user's own hooks and empty lists kept, idempotent, given back
byte for byte); Codex reads the file as plain JSON. What is Codex's own: the trust key and hash
of each relay handler merged in (for config.toml), and the roll-back of the written file when
config.toml then cannot take them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.hosts import json_settings_hooks
from inspector.hosts.codex.events import MATCH_FIELDS
from inspector.hosts.codex.trust import hook_hash, hook_key
from inspector.hosts.install_files import Backup, write_atomically, write_back

JSONObject = dict[str, Any]

RELAY_MARK = " relay --host codex"  # in every handler command install writes, and no other
RELAY = "the relay"


def merge(
    file: Path, handler: JSONObject, events: tuple[str, ...], matcher: str | None
) -> tuple[JSONObject, dict[str, str]]:
    """`file`'s settings with `handler` on `events` (only events with a matcher take `matcher`),
    in place of what install put there before, and Codex's trust key and hash of each relay
    handler; nothing written yet (json_settings_hooks.write does that)."""
    done = json_settings_hooks.merged(
        file, handler, events, matcher, tool_events=MATCH_FIELDS, kind_of=_kind, plain_json=True
    )
    written = {
        hook_key(file, at.event, at.index, 0): hook_hash(at.event, at.group.get("matcher"), handler)
        for at in done.placed
    }
    return done.settings, written


def roll_back(file: Path, target: Path, previous: bytes | None, backed_up: bool) -> None:
    """Undo json_settings_hooks.write: `previous` (the file's bytes before it, None: there was
    no file) back in `target`, and the backup gone unless it was there before (`backed_up`)."""
    if previous is None:
        target.unlink()
    else:
        write_atomically(target, previous)
    if not backed_up:
        Backup(file).discard()


def take_out(file: Path) -> str | None:
    """Remove the relay from `file`; what was done, or None when it was not there."""
    taken = json_settings_hooks.take_out(file, _kind, plain_json=True)
    if taken is None:
        return None
    return write_back(file, taken.settings, taken.backup, RELAY, RELAY)


def _kind(handler: object) -> str | None:
    """RELAY for the relay's handler, else None."""
    is_relay = isinstance(handler, dict) and RELAY_MARK in str(handler.get("command", ""))
    return RELAY if is_relay else None
