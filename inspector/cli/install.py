"""`hook-inspector install HOST` and `uninstall HOST`: put the command relay into Claude Code's
settings.json or a j-cli hook folder, or the bridge plugin into OpenClaw's openclaw.json, and take
it out again."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from inspector.cli import install_claude, install_jcli, install_openclaw
from inspector.config.checks import did_you_mean
from inspector.config.errors import ConfigError
from inspector.host_names import OPENCLAW
from inspector.hosts.claude.events import EVENTS as CLAUDE_EVENTS
from inspector.relay import command_wire
from inspector.relay.command_wire import CLAUDE, DEFAULT_TIMEOUT_MS, JCLI

HOSTS = (CLAUDE, JCLI, OPENCLAW)
OPENCLAW_TIMEOUT_S = 60  # how long the Gateway gives the bridge's deciding hooks, by default
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
        " host's, 600 for Claude Code, 10 for j-cli; 60 for OpenClaw's deciding hooks)",
    )
    install.add_argument(
        "--socket", type=Path, metavar="PATH", help="the inspector's socket, if not the default"
    )
    install.add_argument(
        "--no-inspector",
        choices=install_openclaw.NO_INSPECTOR,
        default="continue",
        help="OpenClaw: what a call that decides gets when no inspector answers in time: go on"
        " (default), block, or OpenClaw's own approval",
    )
    install.add_argument(
        "--print",
        action="store_true",
        help="OpenClaw: print the openclaw.json snippet instead of changing the file",
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
    where.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="OpenClaw: its openclaw.json (default: $OPENCLAW_CONFIG_PATH, else"
        " $OPENCLAW_STATE_DIR/openclaw.json, else ~/.openclaw/openclaw.json)",
    )


def run_install(args: argparse.Namespace) -> int:
    _check_where(args)
    if args.host == OPENCLAW:
        return _install_openclaw(args)
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
    _check_where(args)
    if args.host == OPENCLAW:
        done = install_openclaw.uninstall(install_openclaw.config_file(args.config))
    elif args.host == CLAUDE:
        done = install_claude.uninstall(install_claude.settings_file(args.project, args.user))
    else:
        done = install_jcli.uninstall(install_jcli.hook_folder(args.project, args.user))
    print(f"hook-inspector: {done}")
    return 0


def _install_openclaw(args: argparse.Namespace) -> int:
    for flag, given in (("--events", args.events), ("--matcher", args.matcher)):
        if given is not None:
            raise ConfigError(flag, "OpenClaw's bridge plugin follows every hook; leave it out")
    timeout_s = args.timeout or OPENCLAW_TIMEOUT_S
    if not 0 < timeout_s <= 600:
        raise ConfigError("--timeout", f"OpenClaw allows 1 to 600 seconds, got {timeout_s}")
    entry = install_openclaw.plugin_entry(args.socket, args.no_inspector, timeout_s * 1000)
    if args.print:
        print(install_openclaw.snippet(entry))
        return 0
    done = install_openclaw.install(install_openclaw.config_file(args.config), entry)
    print(f"hook-inspector: {done}")
    return 0


def _check_where(args: argparse.Namespace) -> None:
    """--config is OpenClaw's; --project and --user are Claude Code's and j-cli's."""
    if args.host == OPENCLAW and (args.project is not None or args.user):
        raise ConfigError("--project", "OpenClaw has one openclaw.json: name it with --config")
    if args.host != OPENCLAW and args.config is not None:
        raise ConfigError("--config", f"{args.host} is set with --project or --user")


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
