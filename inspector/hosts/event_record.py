"""What a command host's chain journals once an event's hooks have run (or a person has
answered): one Decision for the stage, naming each run in the order the host lists them (and
each hook not run for repeating another's command); and the tool input a person changed while
the event was held at its entry, which the tool gets too."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from inspector.journal.records import Decision, Exchange

JSONObject = dict[str, Any]


def chain_entry(hook: str, action: str, exchange: Exchange) -> JSONObject:
    """One run in a Decision's chain."""
    return {"hook": hook, "action": action, "exchange": exchange.seq, "status": exchange.status}


def duplicate_entry(hook: str, kept: str) -> JSONObject:
    """A hook in a Decision's chain that did not run: it repeats `kept`'s."""
    return {"hook": hook, "action": "deduplicated", "same_as": kept}


def event_decision(
    event: str,
    payload: JSONObject,
    *,
    verdict: str,
    by: Iterable[str],
    reason: str,
    source: str,
    turn: str | None,
    chain: list[JSONObject],
) -> Decision:
    """The Decision for `event`'s hooks on `payload`; the tool is the payload's tool_name."""
    tool = payload.get("tool_name")
    return Decision(
        stage=event,
        verdict=verdict,
        by=", ".join(by),
        reason=reason,
        source=source,
        turn=turn,
        tool=tool if isinstance(tool, str) else None,
        chain=chain,
    )


def edited_tool_input(sent: JSONObject, entered: JSONObject) -> JSONObject | None:
    """The tool_input as a person changed it at the event's entry, else None."""
    edited = entered.get("tool_input")
    if edited == sent.get("tool_input") or not isinstance(edited, dict):
        return None
    return edited
