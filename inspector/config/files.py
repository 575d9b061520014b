"""A config-like file's text (configs, scenarios, settings, themes): a regular file of at most
MAX_FILE_BYTES, UTF-8 with or without a byte order mark; anything else is a ConfigError."""

from __future__ import annotations

from pathlib import Path

from inspector.config.errors import ConfigError
from inspector.safe_files import read_bytes_limited


def read_config_text(path: str | Path, file: str | None = None) -> str:
    """The text of `path`; errors name `file` (the path as the user gave it) when given."""
    name = str(path) if file is None else file
    try:
        data = read_bytes_limited(path)
    except OSError as error:
        raise ConfigError(name, f"cannot read the file: {error.strerror or error}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        message = f"not UTF-8 text: {error.reason} at byte {error.start}"
        raise ConfigError(name, message, line=line) from None
