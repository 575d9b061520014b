"""What the hosts whose hooks are commands (Claude Code, j-cli, ...) share in `install`: the relay's
command line, and the events and timeout a person chose for it."""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from inspector.config.checks import did_you_mean
from inspector.config.errors import ConfigError
from inspector.hosts.installer import Options
from inspector.relay import command_wire

# The relay's own entry file, named without importing it (it puts the package on sys.path).
RELAY_FILE = Path(command_wire.__file__).with_name("run.py")


@dataclass(frozen=True)
class RelayHook:
    """The relay as one command hook of `host`: its command, the events it runs on, and the
    timeout the host gives it."""

    command: str
    events: tuple[str, ...]
    timeout_s: int


def relay_hook(
    host: str,
    options: Options,
    known: tuple[str, ...],
    default: tuple[str, ...],
    default_timeout_s: int,
    *,
    quiet: bool = False,
) -> RelayHook:
    """The hook `options` ask for: `known` are the events `host` has, `default` those relayed
    when --events is left out, `default_timeout_s` a handler's timeout when none is given;
    `quiet` for a host that would read the relay's stderr as the hook's answer."""
    events = _events(host, options.events, known, default)
    timeout_s = options.timeout_s or default_timeout_s
    if timeout_s <= 0:
        raise ConfigError("--timeout", f"must be a positive number of seconds, got {timeout_s}")
    command = relay_command(host, timeout_s, options.socket, quiet=quiet)
    return RelayHook(command, events, timeout_s)


def relay_command(host: str, timeout_s: int, socket: Path | None, *, quiet: bool = False) -> str:
    """The hook command, with the same timeout the host gives the handler: this installation's
    Python running the relay's own file (inspector/relay/run.py), so the host finds it whatever
    its PATH, and isolated and without site (-I -S), which starts faster than the console
    script: the host starts one relay per event."""
    words = [sys.executable, "-I", "-S", str(RELAY_FILE), "relay", "--host", host]
    words += ["--timeout", str(timeout_s)]
    if socket is not None:
        words += ["--socket", str(socket.absolute())]
    if quiet:
        words.append("--quiet")
    return shlex.join(words)


def _events(
    host: str, given: str | None, known: tuple[str, ...], default: tuple[str, ...]
) -> tuple[str, ...]:
    if given is None:
        return default
    events = tuple(dict.fromkeys(event.strip() for event in given.split(",") if event.strip()))
    for event in events:
        if event not in known:
            hint = did_you_mean(event, known) or f"; expected some of {', '.join(known)}"
            raise ConfigError("--events", f'{host} has no event "{event}"{hint}')
    if not events:
        raise ConfigError("--events", "names no event")
    return events
