"""Reading a relay's greeting (see wire.py): who it is, the agent's deadlines, and its proof
that it knows the token."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inspector.bridge.command_greeting import CommandGreeting, read_command
from inspector.hosts.registry import HOSTS, plugin_host_named
from inspector.relay.command_wire import COMMAND_KEY
from inspector.relay.proof import PROOF_KEY, matches
from inspector.relay.wire import DEFAULT_DEADLINES_MS, GREETING_KEY, PIPES_KEY, WIRE_VERSION
from inspector.safe_text import one_line

NAME_LIMIT = 64
PLUGIN_KEY = "plugin"
DEFAULT_NAME = "relay"


@dataclass(frozen=True, slots=True)
class Greeting:
    name: str  # shown as given (control characters escaped), before any #2 suffix
    pid: int | None
    deadlines_ms: dict[str, int]  # observer, interceptor, approval
    modes: tuple[str, ...] = ()  # from the agent's hook.hello, when the relay saw it before us
    command: CommandGreeting | None = None  # a command hook's relay: one event, then it hangs up
    plugin: str | None = None  # an in-process plugin's bridge (the host it runs in): many calls
    hello: dict[str, Any] | None = None  # the agent's hook.hello request, when the relay saw it
    pipes: bool = False  # the relay sent the agent's stdin with it


class Refused(Exception):
    """The greeting is not acceptable; the message is the refusal's reason."""

    def __init__(self, reason: str, name: str = DEFAULT_NAME) -> None:
        super().__init__(reason)
        self.name = name


def read_greeting(line: bytes, proof: str | None) -> Greeting:
    """The greeting in `line`, or Refused. With `proof` set (the inspector has a token), the
    relay must present it: the proof over the nonces of the challenge just answered, or "" when
    the relay sent no challenge (no proof can match)."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict) or GREETING_KEY not in message:
        raise Refused("the first line is not a hook-inspector relay greeting")
    name = message.get("name")
    name = one_line(name, NAME_LIMIT) if isinstance(name, str) and name.strip() else DEFAULT_NAME
    wrong = wrong_version(message[GREETING_KEY])
    if wrong is not None:
        raise Refused(wrong, name)
    if proof is not None:
        _check_proof(message.get(PROOF_KEY), proof, name)
    pid = message.get("pid")
    command = read_command(message[COMMAND_KEY]) if COMMAND_KEY in message else None
    if isinstance(command, str):
        raise Refused(command, name)
    plugin = _plugin(message[PLUGIN_KEY], name) if PLUGIN_KEY in message else None
    hello = message.get("hello") if isinstance(message.get("hello"), dict) else None
    return Greeting(
        name=name,
        pid=pid if _whole(pid) else None,
        deadlines_ms=_deadlines(message.get("deadlines_ms"), name),
        modes=_modes(hello),
        command=command,
        plugin=plugin,
        hello=hello,
        pipes=_pipes(message.get(PIPES_KEY), name),
    )


def _pipes(raw: Any, name: str) -> bool:
    if raw is not None and not isinstance(raw, bool):
        raise Refused("pipes is not true or false", name)
    return raw is True


def _plugin(raw: Any, name: str) -> str:
    host = plugin_host_named(raw.get("host") if isinstance(raw, dict) else None)
    if host is None:
        names = ", ".join(host.name for host in HOSTS if host.bridge_plugin)
        raise Refused(f"plugin.host must be one of {names}", name)
    return host.name


def wrong_version(version: Any) -> str | None:
    """Why a relay of wire `version` is refused, or None for this inspector's own."""
    if _whole(version) and version == WIRE_VERSION:
        return None
    return (
        f"wire version {json.dumps(version)}; this inspector speaks {WIRE_VERSION}: update the"
        " relay (or the OpenClaw plugin) and the inspector to the same hook-inspector"
    )


def _check_proof(given: Any, expected: str, name: str) -> None:
    if not isinstance(given, str) or not given:
        raise Refused(
            "a token is required: the relay must prove it knows it (challenge first)", name
        )
    if not expected or not matches(given, expected):
        raise Refused("wrong token", name)


def _deadlines(raw: Any, name: str) -> dict[str, int]:
    if raw is None:
        return dict(DEFAULT_DEADLINES_MS)
    if not isinstance(raw, dict):
        raise Refused("deadlines_ms is not an object", name)
    deadlines = dict(DEFAULT_DEADLINES_MS)
    for key in DEFAULT_DEADLINES_MS:
        value = raw.get(key, deadlines[key])
        if not _whole(value) or value <= 0:
            raise Refused(f"deadlines_ms.{key} is not a positive number of milliseconds", name)
        deadlines[key] = value
    return deadlines


def _modes(hello: Any) -> tuple[str, ...]:
    params = hello.get("params") if isinstance(hello, dict) else None
    modes = params.get("modes") if isinstance(params, dict) else None
    if not isinstance(modes, list):
        return ()
    return tuple(one_line(mode, NAME_LIMIT) for mode in modes if isinstance(mode, str))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
