"""What a host provides, so that the engine, check, replay, the composer and the TUI can ask it
instead of knowing it: each folder under inspector/hosts has one `Host`, and the registry lists
them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hooks.command_hook import CommandHook
from inspector.hosts.installer import Installer, NoInstaller
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange
from inspector.pipeline.gate import Gate
from inspector.scenario import Scenario


class TurnOutcome(Protocol):
    status: str


class TurnRunner(Protocol):
    """Plays a scenario's turns the way the host's agent loop would."""

    async def run(self, scenario: Scenario) -> Sequence[TurnOutcome]: ...


class Fired(Protocol):
    """What firing one event through a host's hooks came to (the host's own result type)."""

    @property
    def event(self) -> str: ...


class CommandChain(Protocol):
    """A command-hook host's rules over one session's hooks: one process per call, fired by
    event, every run journalled."""

    def hook_list(self) -> list[CommandHook]: ...

    def run_failed(self, exchange: Exchange) -> bool:
        """Whether the host counts this run as a failure (not as an answer)."""
        ...

    def context_template(self, event: str) -> dict[str, Any]:
        """A believable stdin context for `event`, for the composer and check to start from."""
        ...

    async def fire(
        self, event: str, context: dict[str, Any], *, source: str, turn: str | None = None
    ) -> Fired: ...

    def turn_runner(self) -> TurnRunner: ...


@dataclass(frozen=True, slots=True)
class HookOutput:
    """What a command relay prints and exits with, as one hook of its host, and the action the
    exchange list shows."""

    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0
    action: str = "continue"


ABSENT = HookOutput()  # a hook that says nothing: the host goes on as if it were not there


@dataclass(frozen=True)
class Relayed:
    """One event a command relay brought from a live agent, for its host to answer."""

    event: str
    payload: dict[str, Any]  # the host's stdin, as it goes on (edited, if it was held)
    source: str  # relay:<name>
    ask_by: float | None = None  # time.monotonic() by which a person must have answered
    env: Mapping[str, str] = field(default_factory=dict)  # the live hook's own variables
    edited_input: dict[str, Any] | None = None  # a held tool call's input as a person changed it
    cwd: str | None = None  # the folder the live agent ran the hook in


class Host(Protocol):
    """One agent whose hooks hook-inspector speaks."""

    name: str  # one of inspector.host_names: what every journal record says
    label: str  # how a person names it
    runs_commands: bool  # its hooks are one process per call, run by a CommandChain
    events: tuple[str, ...]  # every method or event name its hooks can be called with
    counts_skips: bool  # it keeps per-hook counts of skipped runs and their total time

    @property
    def installer(self) -> Installer | NoInstaller:
        """What `install` and `uninstall` do for it."""
        ...

    def recognises(self, path: Path) -> bool:
        """Whether `path` (absolute) is one of this host's config files or project folders."""
        ...

    def load(self, path: Path) -> Config:
        """Read the config `path` stands for; anything wrong is a ConfigError."""
        ...

    def command_chain(
        self, config: Config, journal: Journal, approvals: Approvals, gate: Gate | None = None
    ) -> CommandChain | None:
        """The chain that runs `config`'s command hooks, or None when the host runs none (its
        hooks are long-lived processes the engine starts)."""
        ...

    async def answer_relayed(self, chain: CommandChain | None, relayed: Relayed) -> HookOutput:
        """The answer one relayed event gets, written as one of this host's hooks would write
        it: from `chain` (the inspector's own hooks for this host), or None when it has none."""
        ...
