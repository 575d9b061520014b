"""The `command` part of a greeting (relay/command_wire.py): a command relay of which host, and
the handler timeout its host gives it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.relay.command_wire import DEFAULT_TIMEOUT_MS


@dataclass(frozen=True, slots=True)
class CommandGreeting:
    host: str  # claude or jcli
    timeout_ms: int


def read_command(raw: Any) -> CommandGreeting | str:
    """The command relay's greeting, or why it cannot be one."""
    if not isinstance(raw, dict):
        return "command is not an object"
    host, timeout_ms = raw.get("host"), raw.get("timeout_ms")
    if host not in DEFAULT_TIMEOUT_MS:
        return f"command.host must be one of {', '.join(sorted(DEFAULT_TIMEOUT_MS))}"
    if not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool) or timeout_ms <= 0:
        return "command.timeout_ms is not a positive number of milliseconds"
    return CommandGreeting(host, timeout_ms)
