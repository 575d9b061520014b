"""What a host does while a session runs. The engine holds one `Runtime`, made by its config's
host, and asks it for everything a session does with hooks: starting and stopping them,
following a reloaded config, sending to one hook or through the whole chain, playing a
scenario, probing every hook for `check`, and saying what a recorded call needs to be replayed.
Nothing above the registry knows which host it is talking to."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from inspector.config.model import Config
from inspector.hosts.probe import HookReport
from inspector.journal.records import Exchange
from inspector.scenario import Scenario

JSONObject = dict[str, Any]


class TurnOutcome(Protocol):
    status: str


class TurnRunner(Protocol):
    """Plays a scenario's turns the way the host's agent loop would."""

    async def run(self, scenario: Scenario) -> Sequence[TurnOutcome]: ...


class Fired(Protocol):
    """What firing one event through a host's hooks came to (the host's own result type)."""

    @property
    def event(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Reapplied:
    """What following a new config did to each hook, by name, for the journal's reload record."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    restarted: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # added or restarted, and not up


@dataclass(frozen=True)
class ComposerOffer:
    """What a person can compose for this host: the hooks to send to, the methods or events,
    a believable request for each, and the host's own check of a request before it is sent."""

    hooks: list[str]
    methods: list[str]
    template: Callable[[str], JSONObject]  # ValueError: no template for that method
    chain_methods: Collection[str]  # what the whole chain takes (not one hook)
    # why the host could not send these params (None: it can), for a hook or the chain (None)
    refuses: Callable[[str | None, str, JSONObject], str | None]
    request: str  # what is being written, in the host's terms ("params object", ...)


@dataclass(frozen=True, slots=True)
class Unreplayable:
    """Why a recorded call cannot be sent again: its hook is gone ("missing hook"), or it is not
    one a program answers ("skipped")."""

    outcome: Literal["missing hook", "skipped"]
    note: str


class Runtime(Protocol):
    """One session's hooks, run by one host's rules."""

    config: Config

    @property
    def host_name(self) -> str: ...

    async def start(self) -> list[str]:
        """Bring up every hook the config enables; the names of those that did not come up
        (each says why in the journal)."""
        ...

    async def stop(self) -> None: ...

    async def apply(self, config: Config, changed_hooks: Collection[str]) -> Reapplied:
        """Follow a new config of the same host: start what was added, stop what was removed,
        restart what changed (or whose script is in `changed_hooks`), leave the rest alone."""
        ...

    def hook_names(self) -> list[str]: ...

    def composer(self) -> ComposerOffer: ...

    async def send(self, hook: str, method: str, params: Any, *, source: str) -> Exchange:
        """One request to one hook, outside the chain's rules (the composer, replay)."""
        ...

    async def fire(self, method: str, params: JSONObject, *, source: str) -> object:
        """A request through every hook that takes it, as the host would send it."""
        ...

    async def settle(self) -> None:
        """Wait until what was handed to hooks in the background (events) has reached them."""
        ...

    def turn_runner(self) -> TurnRunner: ...

    async def probe(self, source: str) -> None:
        """Run every hook once per thing it takes (`check`)."""
        ...

    def reports(self) -> list[HookReport]:
        """What each probed hook's runs came to, by the host's rules; read after the session
        stopped, so a hook's last words are in the journal."""
        ...

    def unreplayable(self, recorded: Exchange) -> Unreplayable | None:
        """Why `recorded` cannot be sent again to this session's hooks, or None if it can."""
        ...

    def one_liner(self, exchange: Exchange) -> str | None:
        """A shell command that sends `exchange`'s request to its hook again, if it has one."""
        ...
