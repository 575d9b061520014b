"""What a host provides, so that the engine, check, replay, the composer, the bridge and the TUI
can ask it instead of knowing it: each folder under inspector/hosts has one `Host`, and the
registry lists them. A host reads its config, makes the runtime a session holds
(inspector/hosts/runtime.py), and answers the calls a relay brings from its live agent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hooks.command_hook import CommandHook
from inspector.hooks.http_hook import HttpHook
from inspector.hosts.deadline import CallDeadline
from inspector.hosts.installer import Installer, NoInstaller
from inspector.hosts.runtime import Fired, Runtime, TurnRunner
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Finding
from inspector.pipeline.gate import Gate


class CommandChain(Protocol):
    """A command-hook host's rules over one session's hooks: one process (or, for Claude Code's
    http handlers, one request) per call, fired by event, every run journalled."""

    def hook_list(self) -> Sequence[CommandHook | HttpHook]: ...

    def run_failed(self, exchange: Exchange) -> bool:
        """Whether the host counts this run as a failure (not as an answer)."""
        ...

    def context_template(self, event: str) -> dict[str, Any]:
        """A believable stdin context for `event`, for the composer and check to start from."""
        ...

    async def fire(
        self, event: str, context: dict[str, Any], *, source: str, turn: str | None = None
    ) -> Fired: ...

    async def send_one(
        self, name: str, event: str, context: dict[str, Any], *, source: str
    ) -> Exchange:
        """The hook `name` on `event` run by hand, outside the event's chain, its run read as
        the host reads one; KeyError when there is no such hook."""
        ...

    def turn_runner(self) -> TurnRunner: ...


@dataclass(frozen=True, slots=True)
class HookOutput:
    """What a relayed call gets back, as one hook of its host would answer it, and the action
    the exchange list shows: what a command relay prints and exits with, or for a JSON relay
    the whole answer (`result`: the OpenClaw bridge plugin's handler value, None for no
    decision; PicoClaw's JSON-RPC answer, result or error)."""

    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0
    action: str = "continue"
    result: dict[str, Any] | None = None


ABSENT = HookOutput()  # a hook that says nothing: the host goes on as if it were not there


@dataclass(frozen=True, slots=True)
class Relayed:
    """One call a relay brought from a live agent, for its host to answer."""

    event: str
    # what the agent sent, as it goes on (edited, if it was held): a command hook's stdin,
    # OpenClaw's {"event", "ctx"}, PicoClaw's JSON-RPC request
    payload: dict[str, Any]
    source: str  # relay:<name>
    ask_by: float | None = None  # time.monotonic() by which a person must have answered
    env: Mapping[str, str] = field(default_factory=dict)  # the live hook's own variables
    sent: dict[str, Any] | None = None  # a held call's payload before a person edited it
    cwd: str | None = None  # the folder the live agent ran the hook in
    deadline: CallDeadline | None = None  # when the agent stops waiting for the answer
    call: Exchange | None = None  # the journal's record of the call, which the answer settles
    turn: str | None = None  # the agent's turn the call is in, as its host reads it (RelayedTurns)


class RelayedTurns(Protocol):
    """Which turn of its agent each event a relay brings belongs to, as the agent itself names
    it; one for each host's live agents of an inspector session (it may remember the events it
    has read, for an agent that names no turn)."""

    def turn_of(self, payload: dict[str, Any]) -> str | None:
        """The turn of the relayed call `payload` (Relayed.payload), None when it is in none."""
        ...


class Host(Protocol):
    """One agent whose hooks hook-inspector speaks."""

    name: str  # what its configs and every journal record of it say (Record.host)
    label: str  # how a person names it
    runs_commands: bool  # its hooks are one process per call, run by a CommandChain
    bridge_plugin: bool  # its live agent reaches the inspector through a plugin of ours
    posts_hooks: bool  # its hooks may POST events, to the inspector too (install --http)
    events: tuple[str, ...]  # every method or event name its hooks can be called with
    counts_skips: bool  # it keeps per-hook counts of skipped runs and their total time
    event_field: str  # the stdin field that names the event, for a command host ("" if none)
    default_timeout_ms: int  # a hook's timeout when its config names none
    env_prefixes: tuple[str, ...]  # the variables it sets for its hooks, by their names' start

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

    def runtime(
        self,
        config: Config,
        journal: Journal,
        approvals: Approvals,
        gate: Gate,
        *,
        restart_crashed: bool = True,
    ) -> Runtime:
        """What runs `config`'s hooks for a session: calls held at `gate`, people asked through
        `approvals`; `restart_crashed`: a hook process that dies is started again."""
        ...

    def run_failed(self, exchange: Exchange) -> bool:
        """Whether this host counts one of its hooks' runs as a failure rather than an answer
        (a Claude Code exit 2 that blocks is an answer)."""
        ...

    def answer_of(self, exchange: Exchange) -> dict[str, Any]:
        """What a hook answered in one of this host's records, as replay compares it."""
        ...

    async def answer_relayed(self, runtime: Runtime | None, relayed: Relayed) -> HookOutput:
        """The answer one relayed event gets, written as one of this host's hooks would write
        it: from `runtime` (the session's own hooks for this host), or None when it has none."""
        ...

    def unanswered(self, relayed: Relayed, reason: str) -> HookOutput:
        """What the agent does when its hook gives no answer, as an answer given now: the
        inspector gave up on the call (`reason`)."""
        ...

    def relayed_turns(self) -> RelayedTurns:
        """A new reader of the turns of the events this host's live agents relay."""
        ...

    def finding(self, code: str, message: str) -> Finding:
        """One of this host's own findings (`code` from its table), saying what it does."""
        ...
