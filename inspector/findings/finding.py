"""A conformance finding: what is wrong with a line or an answer, and what the host would do."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]


@dataclass(slots=True)
class Finding:
    code: str
    severity: Severity
    message: str
    host_does: str = ""  # what the record's host (PicoClaw, j-cli, ...) does, where it matters

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        return cls(
            code=str(data.get("code", "")),
            severity=data.get("severity", "info"),
            message=str(data.get("message", "")),
            # journals written before the host_does name call it "picoclaw"
            host_does=str(data.get("host_does", data.get("picoclaw", ""))),
        )
