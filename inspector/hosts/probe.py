"""What `check` makes of one hook: the calls it was sent, the records they left, and the runs its
host counts as failures. Every host's probe fills these in; the CLI prints them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.journal.records import Exchange, Record


@dataclass
class HookReport:
    """One hook's runs and what its host made of them."""

    name: str
    host: str
    modes: list[str]  # PicoClaw: the modes of its hello; a command hook: its events
    modes_are: str  # what `modes` holds, in words: "modes" or "events"
    probed: list[str] = field(default_factory=list)  # the methods or events it was sent
    not_probed: dict[str, str] = field(default_factory=dict)  # event: why it never ran
    records: list[Record] = field(default_factory=list)
    failed: list[Exchange] = field(default_factory=list)  # runs its host counts as failures
    never_ready: bool = False
    cannot_run: str = ""  # why the inspector cannot run this hook at all ("": it can)

    @property
    def problems(self) -> list[str]:
        found = ["never became ready"] if self.never_ready else []
        found += [f"cannot run here: {self.cannot_run}"] if self.cannot_run else []
        found += [_failure(exchange) for exchange in self.failed]
        found += [
            f"{finding.code}: {finding.message}"
            for record in self.records
            for finding in record.findings_list
            if finding.severity == "error"
        ]
        return found

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "hook": self.name,
            "host": self.host,
            "modes": self.modes,
            "probed": self.probed,
            "not_probed": self.not_probed,
            "ok": self.ok,
            "problems": self.problems,
            "records": [record.to_json() for record in self.records],
        }


def _failure(exchange: Exchange) -> str:
    detail = f" ({exchange.error})" if exchange.error else ""
    return f"{exchange.method}: {exchange.status}{detail}"
