"""A command host's answer to a call its relay brought from a live agent: the host's chain (if
the runtime has one) fires the event live, with the relayed call's deadline, variables and
folder, and the host writes the outcome as its own hook output. Without the host's chain, the
host writes an outcome nobody decided. On the events where the host lets a hook change the tool
input, a held call's tool input as a person changed it goes on with the answer."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol, TypeVar

from inspector.hosts.command_runtime import CommandRuntime
from inspector.hosts.event_record import edited_tool_input
from inspector.hosts.host import HookOutput, Relayed
from inspector.hosts.runtime import Runtime

JSONObject = dict[str, Any]
Outcome = TypeVar("Outcome")
Outcome_co = TypeVar("Outcome_co", covariant=True)


class LiveChain(Protocol[Outcome_co]):
    """A host's chain as the relay fires it."""

    async def fire(
        self,
        event: str,
        payload: JSONObject,
        *,
        source: str,
        turn: str | None = ...,
        ask_by: float | None = ...,
        env: Mapping[str, str] | None = ...,
        live: bool = ...,
        cwd: str | None = ...,
    ) -> Outcome_co: ...


async def answer_relayed(
    runtime: Runtime | None,
    relayed: Relayed,
    *,
    chain_type: type[LiveChain[Outcome]],
    undecided: Callable[[str, JSONObject], Outcome],
    output: Callable[[Outcome, JSONObject | None], HookOutput],
    edits_on: Collection[str],
) -> HookOutput:
    """`relayed` fired on the runtime's chain of `chain_type` and its outcome as `output` writes
    it; `undecided(event, payload)` the outcome when there is no such chain; `edits_on` the
    events whose changed tool input goes on."""
    edited = edited_input(relayed, edits_on)
    chain = runtime.chain if isinstance(runtime, CommandRuntime) else None
    if not isinstance(chain, chain_type):
        return output(undecided(relayed.event, relayed.payload), edited)
    fired = await chain.fire(
        relayed.event,
        relayed.payload,
        source=relayed.source,
        turn=relayed.turn,
        ask_by=relayed.ask_by,
        env=relayed.env,
        live=True,
        cwd=relayed.cwd,
    )
    return output(fired, edited)


def edited_input(relayed: Relayed, events: Collection[str]) -> JSONObject | None:
    """A held call's tool_input as the person changed it, on one of `events`, else None."""
    if relayed.sent is None or relayed.event not in events:
        return None
    return edited_tool_input(relayed.sent, relayed.payload)
