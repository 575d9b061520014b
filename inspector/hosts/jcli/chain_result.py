"""What one run of the j-cli chain gives back: each hook's attempts and the merged HookResult.
Its own module so that the turn runner reads it without importing the chain that makes it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.journal.records import Decision, Exchange

JSONObject = dict[str, Any]


@dataclass(slots=True)
class HookRun:
    """One attempt of one hook, and the HookResult j-cli read from it (None when it failed)."""

    name: str
    exchange: Exchange
    result: JSONObject | None


@dataclass(slots=True)
class ChainResult:
    event: str
    result: JSONObject | None  # j-cli's Option<HookResult>: None when no hook ran successfully
    by: str = ""  # the hook whose stop/skip (or failure with on_error: stop) ended the chain
    runs: list[HookRun] = field(default_factory=list)
    decision: Decision | None = None

    @property
    def action(self) -> str | None:
        return self.get("action")

    def get(self, key: str) -> Any:
        return (self.result or {}).get(key)

    @property
    def deciding_run(self) -> HookRun | None:
        """The last attempt of the hook that ended the chain."""
        return next((run for run in reversed(self.runs) if run.name == self.by), None)
