"""hook-inspector's trust entries in the user's config.toml (trust.py says what they are): added
by install in one block between two comment lines of its own, backed up first, and taken out by
uninstall; a config.toml that install made is removed again when nothing else is left in it."""

from __future__ import annotations

import tomllib
from pathlib import Path

from inspector.config.errors import ConfigError
from inspector.config.files import read_config_text
from inspector.hosts.codex.trust import BEGIN, with_block, without_block
from inspector.hosts.install_files import Backup, write_atomically, write_through


def check_config(config: Path) -> None:
    """A config.toml install can add trust to: none yet, or one that reads as TOML."""
    if not config.exists():
        return
    try:
        tomllib.loads(read_config_text(config))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(config), f"invalid TOML: {error}; nothing changed") from None


def trust(config: Path, entries: dict[str, str]) -> str:
    """Trust the relay hooks `entries` (key: hash) in `config`; what was done, for the user."""
    before = read_config_text(config) if config.exists() else ""
    after = with_block(_other_entries(before, entries), entries)
    try:
        tomllib.loads(after)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(config), f"cannot add the relay's trust to it: {error}") from None
    saved = Backup(config).keep() if config.exists() and BEGIN not in before else None
    write_through(config, after)
    where = f" (the file as it was: {saved})" if saved else ""
    return (
        f"Codex runs hooks only once trusted: trusted the {len(entries)} relay hook(s) install"
        f" wrote, and nothing else, in {config}{where}"
    )


def untrust(config: Path, hooks_file: Path) -> str | None:
    """Take hook-inspector's trust block out of `config`; what was done, or None."""
    if not config.exists():
        return None
    text = read_config_text(config)
    if BEGIN not in text:
        return None
    left = without_block(text)
    backup = Backup(config)
    before = backup.content()
    if before is not None and left == before.decode("utf-8"):
        write_atomically(config, before)
        backup.discard()
        return f"took the relay's trust out of {config}: it is as it was before install"
    if before is None and not left.strip():
        config.unlink()
        return f"took the relay's trust out of {config}, which install had made: removed it"
    write_through(config, left)
    backup.discard()
    return f"took the relay's trust for {hooks_file} out of {config}"


def _other_entries(text: str, entries: dict[str, str]) -> str:
    """`text` as is: a key install trusts that the user trusted too stays theirs, twice would
    be a TOML error, so it is left out of install's block instead."""
    for key in list(entries):
        if f'[hooks.state."{key}"]' in without_block(text):
            del entries[key]
    return text
