"""`hook-inspector install HOST` and `uninstall HOST`: put the command relay into Claude Code's
settings.json or a j-cli hook folder, and take it out again."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from inspector.cli import install_claude, install_jcli
from inspector.config.checks import did_you_mean
from inspector.config.errors import ConfigError
from inspector.hosts.claude.events import EVENTS as CLAUDE_EVENTS
from inspector.relay import command_wire
from inspector.relay.command_wire import CLAUDE, DEFAULT_TIMEOUT_MS, JCLI

HOSTS = (CLAUDE, JCLI)
KNOWN_EVENTS = {CLAUDE: CLAUDE_EVENTS, JCLI: install_jcli.EVENTS}
DEFAULT_EVENTS = {CLAUDE: install_claude.DEFAULT_EVENTS, JCLI: install_jcli.DEFAULT_EVENTS}
# The relay's own entry file, named without importing it (it puts the package on sys.path).
RELAY_FILE = Path(command_wire.__file__).with_name("run.py")


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    install = commands.add_parser(
        "install", help="make Claude Code (or j-cli) run its hooks through hook-inspector"
    )
    _add_where(install)
    install.add_argument(
        "--events",
        metavar="A,B",
        help="the events to relay (default: Claude Code's session, prompt, tool, notification"
        " and stop events; every j-cli event)",
    )
    install.add_argument(
        "--matcher",
        metavar="M",
        help="Claude Code: which tools the tool events relay (default: every tool)",
    )
    install.add_argument(
        "--timeout",
        type=int,
        metavar="S",
        help="the handler's timeout in seconds, which the relay answers within (default: the"
        " host's, 600 for Claude Code, 10 for j-cli)",
    )
    install.add_argument(
        "--socket", type=Path, metavar="PATH", help="the inspector's socket, if not the default"
    )
    uninstall = commands.add_parser("uninstall", help="take out what install put in")
    _add_where(uninstall)


def _add_where(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("host", choices=HOSTS, help="whose hook configuration to change")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--project",
        type=Path,
        metavar="DIR",
        help="the project's .claude/settings.json or .jcli/hooks (default: the current folder)",
    )
    where.add_argument(
        "--user",
        action="store_true",
        help="the user's ~/.claude/settings.json or ~/.jdata/agent/hooks instead",
    )


def run_install(args: argparse.Namespace) -> int:
    events = _events(args.host, args.events)
    timeout_s = args.timeout or DEFAULT_TIMEOUT_MS[args.host] // 1000
    if timeout_s <= 0:
        raise ConfigError("--timeout", f"must be a positive number of seconds, got {timeout_s}")
    command = relay_command(args.host, timeout_s, args.socket)
    if args.host == CLAUDE:
        file = install_claude.settings_file(args.project, args.user)
        done = install_claude.install(file, command, events, args.matcher, timeout_s)
    else:
        folder = install_jcli.hook_folder(args.project, args.user)
        done = install_jcli.install(folder, command, events, timeout_s)
    print(f"hook-inspector: {done}")
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    if args.host == CLAUDE:
        done = install_claude.uninstall(install_claude.settings_file(args.project, args.user))
    else:
        done = install_jcli.uninstall(install_jcli.hook_folder(args.project, args.user))
    print(f"hook-inspector: {done}")
    return 0


def relay_command(host: str, timeout_s: int, socket: Path | None) -> str:
    """The hook command, with the same timeout the host gives the handler: this installation's
    Python running the relay's own file (inspector/relay/run.py), so the host finds it whatever
    its PATH, and isolated and without site (-I -S), which starts faster than the console
    script: the host starts one relay per event."""
    words = [sys.executable, "-I", "-S", str(RELAY_FILE), "relay", "--host", host]
    words += ["--timeout", str(timeout_s)]
    if socket is not None:
        words += ["--socket", str(socket.absolute())]
    return shlex.join(words)


def _events(host: str, given: str | None) -> tuple[str, ...]:
    if given is None:
        return tuple(DEFAULT_EVENTS[host])
    events = tuple(dict.fromkeys(event.strip() for event in given.split(",") if event.strip()))
    known = KNOWN_EVENTS[host]
    for event in events:
        if event not in known:
            hint = did_you_mean(event, known) or f"; expected some of {', '.join(known)}"
            raise ConfigError("--events", f'{host} has no event "{event}"{hint}')
    if not events:
        raise ConfigError("--events", "names no event")
    return events
