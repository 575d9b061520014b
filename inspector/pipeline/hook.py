"""What a chain needs of a hook, and where an agent's call enters a stage: the contract between
a host's chain and the intercept gate that sits in front of its hooks."""

from __future__ import annotations

from typing import Any, Protocol

from inspector.config.model import Defaults, HookSpec
from inspector.journal.records import Exchange
from inspector.jsonrpc.stages import DENY_TOOL


class Hook(Protocol):
    """What the pipeline needs of a hook: a process hook, a human approver, ..."""

    spec: HookSpec

    @property
    def name(self) -> str: ...

    async def call(
        self,
        method: str,
        params: Any,
        *,
        timeout_ms: int,
        source: str,
        turn: str | None = None,
        exchange: Exchange | None = None,
    ) -> Exchange: ...

    async def notify(self, method: str, params: Any) -> str | None: ...


class LiveHook(Hook, Protocol):
    """A hook the engine starts and stops for a session: a process, or a person at the inspector."""

    async def start(self) -> bool:
        """Come up; False when it did not (its lifecycle records say why)."""
        ...

    async def stop(self) -> None: ...

    def follow(self, defaults: Defaults) -> None:
        """Use a reloaded config's timeouts from the next call on."""
        ...


class StageEntry(Protocol):
    """Where the agent's call enters a stage, before any hook: the params the chain gets, or
    None when the call was stopped there (the intercept's stage-level hold)."""

    async def __call__(
        self, stage: str, params: dict[str, Any], *, source: str, turn: str | None
    ) -> dict[str, Any] | None: ...


# The verdict of a call stopped at a stage's entry: the strongest stop each stage allows, so a
# dropped destructive command never runs.
ENTRY_STOP = {"before_tool": DENY_TOOL}
