"""`hook-inspector install HOST` and `uninstall HOST`: put hook-inspector in front of a host's live
agent (the command relay into its hook settings, or a bridge plugin into its config) and take it
out again. Each host's installer does it (inspector/hosts/<name>/install.py); this reads the
command line and asks the registry for the host named. A few flags are one host's own, and their
help says whose."""

from __future__ import annotations

import argparse
from pathlib import Path

from inspector.config.checks import did_you_mean
from inspector.config.errors import ConfigError
from inspector.hosts.installer import Installer, NoInstaller, Options, Place
from inspector.hosts.registry import HOSTS


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    install = commands.add_parser(
        "install", help="make an agent run its hooks through hook-inspector"
    )
    _add_where(install)
    install.add_argument(
        "--events",
        metavar="A,B",
        help="the events to relay (default: the host's usual ones, which its manual page lists)",
    )
    install.add_argument(
        "--matcher",
        metavar="M",
        help="which tools the tool events relay, for a host whose hooks match tools (default:"
        " every tool)",
    )
    install.add_argument(
        "--timeout",
        type=int,
        metavar="S",
        help="the handler's timeout in seconds, which the relay answers within (default: the"
        f" host's: {_default_timeouts()}; 60 for OpenClaw's deciding hooks)",
    )
    install.add_argument(
        "--socket", type=Path, metavar="PATH", help="the inspector's socket, if not the default"
    )
    install.add_argument(
        "--no-inspector",
        choices=_no_inspector_choices(),
        help="OpenClaw: what a call that decides gets when no inspector answers in time: go on"
        " (default), block, or OpenClaw's own approval",
    )
    install.add_argument(
        "--http",
        action="store_true",
        help="Claude Code: http handlers that POST each event to the inspector on loopback, with"
        " its token, in .claude/settings.local.json (no relay process; see docs/claude-code.md)",
    )
    install.add_argument(
        "--mod",
        action="store_true",
        help="Claude Code 2.1.287+: the inspector's endpoint for the bridge mod, and how to load"
        " the mod (no settings changed; see docs/claude-code.md, Mods)",
    )
    install.add_argument(
        "--print",
        action="store_true",
        help="OpenClaw: print the openclaw.json snippet instead of changing the file",
    )
    uninstall = commands.add_parser("uninstall", help="take out what install put in")
    _add_where(uninstall)


def _add_where(parser: argparse.ArgumentParser) -> None:
    hosts = f"{{{','.join(_installers())}}}"
    parser.add_argument("host", metavar=hosts, help="whose hook configuration to change")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--project",
        type=Path,
        metavar="DIR",
        help="the project folder whose hook settings change, where the host keeps them"
        " (default: the current folder)",
    )
    where.add_argument(
        "--user",
        action="store_true",
        help="the user's own hook settings of that host (in the home folder) instead",
    )
    where.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="OpenClaw: its openclaw.json (default: $OPENCLAW_CONFIG_PATH, else"
        " $OPENCLAW_STATE_DIR/openclaw.json, else ~/.openclaw/openclaw.json)",
    )


def run_install(args: argparse.Namespace) -> int:
    installer = _installer(args.host, "install")
    place = _place(args)
    options = Options(
        events=args.events,
        matcher=args.matcher,
        timeout_s=args.timeout,
        socket=args.socket,
        no_inspector=args.no_inspector,
        http=args.http,
        mod=args.mod,
    )
    snippet = installer.snippet(place, options) if args.print else None
    if snippet is not None:
        print(snippet)
        return 0
    print(f"hook-inspector: {installer.install(place, options)}")
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    done = _installer(args.host, "uninstall").uninstall(_place(args))
    print(f"hook-inspector: {done}")
    return 0


def _installer(name: str, command: str) -> Installer:
    """The installer of the host `name`; a name no host has, or a host with nothing to install,
    is a ConfigError that says which host was meant, or how that host is attached instead."""
    host = next((host for host in HOSTS if host.name == name), None)
    if host is None:
        hint = did_you_mean(name, [known.name for known in HOSTS])
        expected = hint or f"; expected one of {', '.join(_installers())}"
        raise ConfigError("host", f'no host is named "{name}"{expected}')
    if isinstance(host.installer, NoInstaller):
        raise ConfigError(name, f"nothing to {command}: {host.installer.how}")
    return host.installer


def _place(args: argparse.Namespace) -> Place:
    return Place(project=args.project, user=args.user, config=args.config)


def _installers() -> dict[str, Installer]:
    """The hosts `install` can change, by name, in the registry's order."""
    return {
        host.name: host.installer for host in HOSTS if not isinstance(host.installer, NoInstaller)
    }


def _default_timeouts() -> str:
    """Each command-hook host's handler timeout when its config names none, for --timeout's help."""
    hosts = (host for host in HOSTS if host.runs_commands)
    return ", ".join(f"{host.default_timeout_ms // 1000} for {host.label}" for host in hosts)


def _no_inspector_choices() -> list[str]:
    """--no-inspector's choices: those of every host that has them."""
    choices = (choice for each in _installers().values() for choice in each.no_inspector)
    return list(dict.fromkeys(choices))
