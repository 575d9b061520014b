"""hook-inspector's trust entries in the user's config.toml (trust.py says what they are): added
by install in one block between two comment lines of its own, backed up first; each hooks
file's entries are replaced or taken out on their own, other hooks files' kept. A config.toml
that install made is removed again when nothing else is left in it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from inspector.config.errors import ConfigError
from inspector.config.files import read_config_text
from inspector.hosts.codex.trust import BEGIN, block_entries, is_for, with_trust, without_block
from inspector.hosts.install_files import Backup, write_atomically, write_through


def check_config(config: Path) -> None:
    """A config.toml install can add trust to: none yet, or one that reads as TOML."""
    if not config.exists():
        return
    try:
        tomllib.loads(read_config_text(config))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(config), f"invalid TOML: {error}; nothing changed") from None


def trusted_text(config: Path, hooks_file: Path, entries: dict[str, str]) -> str:
    """`config`'s text trusting the relay hooks `entries` (key: hash) of `hooks_file`, in place
    of what install trusted there before; checked to read as TOML, nothing written yet."""
    before = read_config_text(config) if config.exists() else ""
    after = with_trust(before, hooks_file, _other_entries(before, entries))
    try:
        tomllib.loads(after)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(
            str(config), f"cannot add the relay's trust to it: {error}; nothing changed"
        ) from None
    return after


def trust(config: Path, text: str, count: int) -> str:
    """Write `text`, from trusted_text, to `config` (backed up first); what was done."""
    before = read_config_text(config) if config.exists() else ""
    saved = Backup(config).keep() if config.exists() and BEGIN not in before else None
    write_through(config, text)
    where = f" (the file as it was: {saved})" if saved else ""
    return (
        f"Codex runs hooks only once trusted: trusted the {count} relay hook(s) install"
        f" wrote, and nothing else, in {config}{where}"
    )


def untrust(config: Path, hooks_file: Path) -> str | None:
    """Take the trust install added for `hooks_file`'s relay out of `config`, other hooks
    files' kept; what was done, or None when there was none."""
    if not config.exists():
        return None
    text = read_config_text(config)
    if not any(is_for(key, hooks_file) for key in block_entries(text)):
        return None
    left = with_trust(text, hooks_file, {})
    taken = f"took the relay's trust for {hooks_file} out of {config}"
    if BEGIN in left:
        write_through(config, left)
        return f"{taken}, keeping install's trust for the relay in other hooks files"
    backup = Backup(config)
    before = backup.content()
    if before is not None and left == before.decode("utf-8"):
        write_atomically(config, before)
        backup.discard()
        return f"{taken}: it is as it was before install"
    if before is None and not left.strip():
        config.unlink()
        return f"{taken}, which install had made: removed it"
    write_through(config, left)
    backup.discard()
    return taken


def _other_entries(text: str, entries: dict[str, str]) -> dict[str, str]:
    """`entries` but a key the user trusted too, outside install's block: it stays theirs, and
    twice would be a TOML error."""
    theirs = without_block(text)
    return {
        key: value
        for key, value in entries.items()
        if f"[hooks.state.{json.dumps(key)}]" not in theirs
    }
