"""A config problem the host would not stop on (j-cli's and Claude Code's readers make them): the
hook still loads, and the finding, in the host's words, travels to the first exchange of the hook
it concerns."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.config.document import Document, KeyPath, format_key
from inspector.findings.finding import Finding


@dataclass(frozen=True, slots=True)
class ConfigWarning:
    file: str
    finding: Finding
    line: int | None = None
    key: str | None = None
    hook: str | None = None  # the name of the hook spec(s) it concerns

    @classmethod
    def at(cls, doc: Document, path: KeyPath, finding: Finding, hook: str | None) -> ConfigWarning:
        return cls(doc.file, finding, doc.line_of(path), format_key(path) or None, hook)

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        key = f" {self.key}:" if self.key else ""
        return f"{where}:{key} {self.finding.message}"
