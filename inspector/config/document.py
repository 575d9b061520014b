"""A parsed config file: its data, plus the line of every key and list item."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from inspector.config.errors import ConfigError

KeyPath = tuple[str | int, ...]


def format_key(path: KeyPath) -> str:
    """`("hooks", "gate", "intercept", 1)` -> `hooks.gate.intercept[1]`."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


@dataclass(frozen=True)
class Document:
    file: str
    data: object
    lines: Mapping[KeyPath, int]
    syntax: Literal["yaml", "json"]

    def line_of(self, path: KeyPath) -> int | None:
        """The line of `path`, or of its nearest ancestor when the key itself is absent."""
        for length in range(len(path), -1, -1):
            line = self.lines.get(path[:length])
            if line is not None:
                return line
        return None

    def error(self, path: KeyPath, message: str) -> ConfigError:
        return ConfigError(
            self.file, message, line=self.line_of(path), key=format_key(path) or None
        )
