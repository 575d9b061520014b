"""The two ways a live agent's relayed events say their turn (host.py's RelayedTurns): an agent
that names its turn on every event (Codex's turn_id, Claude Code's prompt_id, OpenClaw's runId,
PicoClaw's TurnID), and one that names none, whose turn runs from an event that starts a prompt
to the next such event of the same session."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspector.hosts.host import Host, RelayedTurns

JSONObject = dict[str, Any]
SESSIONS_KEPT = 1000  # a serve left for days remembers this many live sessions' turns


@dataclass(frozen=True, slots=True)
class NamedTurns:
    """Turns the agent names on each event: `read` finds the name in one payload."""

    read: Callable[[JSONObject], str | None]

    def turn_of(self, payload: JSONObject) -> str | None:
        return self.read(payload)


def text_at(payload: JSONObject, *path: str) -> str | None:
    """The non-empty string at `path` in `payload`'s nested objects, else None."""
    value: Any = payload
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, str) and value else None


class PromptTurns:
    """Turns of an agent that names none: an event `starts` says begins a turn begins the next
    turn of its `session_id`, named by the session's first eight characters and the turn's
    number (`1a2b3c4d/turn-2`); an event before the session's first start is in none. Two
    hooks of one start event are two relayed calls with one payload: one turn."""

    def __init__(self, starts: Callable[[JSONObject], bool]) -> None:
        self.starts = starts
        self._turns: OrderedDict[str, tuple[int, JSONObject]] = OrderedDict()

    def turn_of(self, payload: JSONObject) -> str | None:
        session = text_at(payload, "session_id")
        if session is None:
            return None
        count, started = self._turns.get(session, (0, {}))
        if self.starts(payload) and payload != started:
            count, started = count + 1, payload
        if not count:
            return None
        self._turns[session] = (count, started)
        self._turns.move_to_end(session)
        if len(self._turns) > SESSIONS_KEPT:
            self._turns.popitem(last=False)
        return f"{session[:8]}/turn-{count}"


class SessionTurns:
    """One inspector session's readers of its live agents' turns, one per host over all its
    relays: a command relay is a process per event, and a host that names no turn is read
    from the order of its events."""

    def __init__(self) -> None:
        self._readers: dict[str, RelayedTurns] = {}

    def turn_of(self, host: Host, payload: JSONObject) -> str | None:
        """The turn of the call `payload` that `host`'s live agent relayed."""
        reader = self._readers.get(host.name)
        if reader is None:
            reader = self._readers[host.name] = host.relayed_turns()
        return reader.turn_of(payload)
