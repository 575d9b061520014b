"""The turn of each call a live agent relays, as its host reads it (Host.relayed_turns): one
reader per host for each inspector session, over all its relays, since a command relay is a
process per event and a host that names no turn is read from the order of its events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from inspector.hosts.host import Host, RelayedTurns

if TYPE_CHECKING:
    from inspector.engine import Engine

_READERS: WeakKeyDictionary[Engine, dict[str, RelayedTurns]] = WeakKeyDictionary()


def relayed_turn(engine: Engine, host: Host, payload: dict[str, Any]) -> str | None:
    """The turn of the call `payload` that `host`'s live agent relayed to `engine`'s session."""
    readers = _READERS.setdefault(engine, {})
    reader = readers.get(host.name)
    if reader is None:
        reader = readers[host.name] = host.relayed_turns()
    return reader.turn_of(payload)
