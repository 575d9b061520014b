"""The `command` part of a greeting (relay/command_wire.py): a command relay of which host, and
the handler timeout its host gives it. The registry knows the hosts; the relay knows none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.hosts.registry import HOSTS, command_host_named


@dataclass(frozen=True, slots=True)
class CommandGreeting:
    host: str  # the name of a host whose hooks are commands
    timeout_ms: int  # the handler's, as the relay's command line says, else the host's default
    env_prefixes: tuple[str, ...]  # the variables the host sets for its hooks


def read_command(raw: Any) -> CommandGreeting | str:
    """The command relay's greeting, or why it cannot be one."""
    if not isinstance(raw, dict):
        return "command is not an object"
    host, timeout_ms = command_host_named(raw.get("host")), raw.get("timeout_ms")
    if host is None:
        names = sorted(host.name for host in HOSTS if host.runs_commands)
        return f"command.host must be one of {', '.join(names)}"
    if timeout_ms is None:
        timeout_ms = host.default_timeout_ms
    if not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool) or timeout_ms <= 0:
        return "command.timeout_ms is not a positive number of milliseconds"
    return CommandGreeting(host.name, timeout_ms, host.env_prefixes)
