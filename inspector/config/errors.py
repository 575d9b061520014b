"""Config errors that name the file, the line and the key."""

from __future__ import annotations


class ConfigError(Exception):
    """A config the inspector cannot use. `str()` is the one-line message the user sees."""

    def __init__(self, file: str, message: str, *, line: int | None = None, key: str | None = None):
        self.file = file
        self.line = line
        self.key = key
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        key = f" {self.key}:" if self.key else ""
        return f"{where}:{key} {self.message}"

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "key": self.key, "message": self.message}
