"""Read any supported config file into a Config, choosing the format by the file's suffix."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from inspector.config.document import Document
from inspector.config.errors import ConfigError
from inspector.config.model import Config
from inspector.config.native import read_native
from inspector.config.parse import parse_json, parse_yaml
from inspector.config.picoclaw import read_picoclaw

Reader = tuple[Callable[[str, str], Document], Callable[[Document, Path], Config]]
READERS: dict[str, Reader] = {
    ".json": (parse_json, read_picoclaw),
    ".yaml": (parse_yaml, read_native),
    ".yml": (parse_yaml, read_native),
}


def load_config(path: str | Path) -> Config:
    """Load a native YAML config or PicoClaw's config.json; anything wrong is a ConfigError."""
    file = str(path)
    config_path = Path(os.path.abspath(path))
    reader = READERS.get(config_path.suffix.lower())
    if reader is None:
        message = "unsupported file type: use .yaml or .yml (native) or .json (PicoClaw)"
        raise ConfigError(file, message)
    parse, read = reader
    return read(parse(file, _read_text(file, config_path)), config_path)


def _read_text(file: str, config_path: Path) -> str:
    try:
        data = config_path.read_bytes()
    except OSError as error:
        raise ConfigError(file, f"cannot read the file: {error.strerror or error}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        message = f"not UTF-8 text: {error.reason} at byte {error.start}"
        raise ConfigError(file, message, line=line) from None
