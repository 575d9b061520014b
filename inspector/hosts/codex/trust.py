"""Codex's hook trust (codex-cli 0.171.0, hooks/src/engine/discovery.rs): a hook that is not
managed runs only when config.toml records, under `[hooks.state."<key>"]`, a `trusted_hash`
equal to the hook's current hash. The key is `<file>:<event_label>:<group>:<handler>` (the
positions in the file, from 0); the hash is `sha256:` and the hex SHA-256 of the compact JSON,
keys sorted, of {"event_name": event_label, "matcher": ..., "hooks": [the handler with its
timeout (600 when unset) and async filled in]}, fields that are unset left out. Codex's own
review (`/hooks` in its TUI) writes the same entry. The hash was checked against the real CLI:
tests/real_agents/test_codex_relay.py runs an installed hook without the bypass flag."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from inspector.hosts.codex.events import DEFAULT_TIMEOUT_S

JSONObject = dict[str, Any]

BEGIN = "# hook-inspector: Codex's trust for its relay hooks (uninstall codex takes it out)"
END = "# end of hook-inspector's trust"
_BLOCK = re.compile(rf"\n?{re.escape(BEGIN)}\n.*?{re.escape(END)}\n", re.DOTALL)
_STRING = r'"(?:[^"\\]|\\.)*"'
_ENTRY = re.compile(rf"\[hooks\.state\.({_STRING})\]\ntrusted_hash = ({_STRING})\n")


def event_label(event: str) -> str:
    """PreToolUse -> pre_tool_use."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_key(file: Path, event: str, group: int, handler: int) -> str:
    return f"{key_path(file)}:{event_label(event)}:{group}:{handler}"


def key_path(file: Path) -> Path:
    """The hooks file as Codex names it in a key: its folder's real path (no `..`, no link)."""
    return file.absolute().parent.resolve() / file.name


def hook_hash(event: str, matcher: str | None, handler: JSONObject) -> str:
    normal = {**handler, "timeout": max(1, handler.get("timeout") or DEFAULT_TIMEOUT_S)}
    normal.setdefault("async", False)
    identity: JSONObject = {"event_name": event_label(event), "hooks": [normal]}
    if matcher is not None:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def trust_block(entries: dict[str, str]) -> str:
    """The lines install adds to config.toml: one state table per key, with its hash."""
    tables = "".join(
        f"[hooks.state.{json.dumps(key)}]\ntrusted_hash = {json.dumps(value)}\n"
        for key, value in entries.items()
    )
    return f"{BEGIN}\n{tables}{END}\n"


def block_entries(text: str) -> dict[str, str]:
    """The keys and hashes in hook-inspector's trust block of config.toml's text."""
    block = _BLOCK.search(text)
    found = _ENTRY.findall(block.group()) if block else []
    return {json.loads(key): json.loads(value) for key, value in found}


def without_block(text: str) -> str:
    """config.toml's text without hook-inspector's trust block."""
    return _BLOCK.sub("", text)


def with_trust(text: str, hooks_file: Path, entries: dict[str, str]) -> str:
    """config.toml's text with the block trusting `entries` for `hooks_file`, in place of what
    it trusted there before; other hooks files' entries stay, and an empty block goes."""
    others = {
        key: value for key, value in block_entries(text).items() if not is_for(key, hooks_file)
    }
    kept = without_block(text)
    if not others | entries:
        return kept
    spacer = "" if not kept or kept.endswith("\n\n") else ("\n" if kept.endswith("\n") else "\n\n")
    return kept + spacer + trust_block(others | entries)


def is_for(key: str, hooks_file: Path) -> bool:
    """Whether the trust `key` is for a hook in `hooks_file`."""
    return key.rsplit(":", 3)[0] == str(key_path(hooks_file))
