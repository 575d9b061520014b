"""A config problem j-cli would not stop on: the hook still loads, and the finding travels to the
first exchange of the hook it concerns."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.config.document import Document, KeyPath, format_key
from inspector.protocol.command_findings import finding
from inspector.protocol.finding import Finding


@dataclass(frozen=True, slots=True)
class ConfigWarning:
    file: str
    finding: Finding
    line: int | None = None
    key: str | None = None
    hook: str | None = None  # the name of the hook spec(s) it concerns

    @classmethod
    def at(
        cls, doc: Document, path: KeyPath, code: str, message: str, hook: str | None
    ) -> ConfigWarning:
        return cls(
            doc.file, finding(code, message), doc.line_of(path), format_key(path) or None, hook
        )

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        key = f" {self.key}:" if self.key else ""
        return f"{where}:{key} {self.finding.message}"
