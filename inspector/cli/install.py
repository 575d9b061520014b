"""`hook-inspector install HOST` and `uninstall HOST`: put hook-inspector in front of a host's live
agent (the command relay into its hook settings, or a bridge plugin into its config) and take it
out again. Each host's installer does it (inspector/hosts/<name>/install.py) and declares the
options that are its own; this reads the command line, refuses an option the host named does
not have, and asks the registry for the host."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from inspector.config.checks import did_you_mean
from inspector.config.errors import ConfigError
from inspector.hosts.installer import PRINT, Flag, Installer, NoInstaller, Options, Place
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
        f" host's: {_default_timeouts()})",
    )
    install.add_argument(
        "--socket", type=Path, metavar="PATH", help="the inspector's socket, if not the default"
    )
    for flag, owners in _own_flags().values():
        said = f"{', '.join(owners)}: {flag.help}"
        if flag.choices:
            install.add_argument(f"--{flag.name}", choices=flag.choices, help=said)
        else:
            install.add_argument(f"--{flag.name}", action="store_true", help=said)
    uninstall = commands.add_parser("uninstall", help="take out what install put in")
    _add_where(uninstall)


def _add_where(parser: argparse.ArgumentParser) -> None:
    hosts = f"{{{','.join(target.name for target in _targets())}}}"
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
        help="; ".join(
            f"{target.label}: {target.installer.config_file}"
            for target in _targets()
            if target.installer.config_file is not None
        ),
    )


@dataclass(frozen=True)
class Target:
    """A host that `install` can change: its name, its label and its installer."""

    name: str
    label: str
    installer: Installer


def run_install(args: argparse.Namespace) -> int:
    target = _target(args.host, "install")
    place = _place(args, target)
    options = Options(
        events=args.events,
        matcher=args.matcher,
        timeout_s=args.timeout,
        socket=args.socket,
        own=_own_options(args, target),
    )
    if options.own.get(PRINT.name):
        print(target.installer.snippet(place, options))
        return 0
    print(f"hook-inspector: {target.installer.install(place, options)}")
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    target = _target(args.host, "uninstall")
    print(f"hook-inspector: {target.installer.uninstall(_place(args, target))}")
    return 0


def _target(name: str, command: str) -> Target:
    """The host `name`; a name no host has, or a host with nothing to install, is a
    ConfigError that says which host was meant, or how that host is attached instead."""
    host = next((host for host in HOSTS if host.name == name), None)
    if host is None:
        hint = did_you_mean(name, [known.name for known in HOSTS])
        expected = hint or f"; expected one of {', '.join(each.name for each in _targets())}"
        raise ConfigError("host", f'no host is named "{name}"{expected}')
    if isinstance(host.installer, NoInstaller):
        raise ConfigError(name, f"nothing to {command}: {host.installer.how}")
    return Target(host.name, host.label, host.installer)


def _own_options(args: argparse.Namespace, target: Target) -> dict[str, str | bool]:
    """The host-specific flags given, by name; one that is not `target`'s is a ConfigError."""
    own_flags = _own_flags()
    given = {
        name: value
        for name in own_flags
        if (value := getattr(args, name.replace("-", "_"))) not in (None, False)
    }
    for name in given:
        if target.label not in (owners := own_flags[name][1]):
            whose = " and ".join(owners)
            raise ConfigError(f"--{name}", f"{target.label} has no such option; {whose} has")
    return given


def _place(args: argparse.Namespace, target: Target) -> Place:
    """Where the host's hook configuration is; --config for a host set with --project or
    --user, or those for a host set with --config, is a ConfigError."""
    takes_file = target.installer.config_file is not None
    if args.config is not None and not takes_file:
        raise ConfigError("--config", f"{target.label} is set with --project or --user")
    if takes_file and (args.project is not None or args.user):
        flag = "--user" if args.user else "--project"
        raise ConfigError(flag, f"{target.label} has one config file: name it with --config")
    return Place(project=args.project, user=args.user, config=args.config)


def _targets() -> list[Target]:
    """The hosts `install` can change, in the registry's order."""
    return [
        Target(host.name, host.label, host.installer)
        for host in HOSTS
        if not isinstance(host.installer, NoInstaller)
    ]


def _own_flags() -> dict[str, tuple[Flag, list[str]]]:
    """Every host-specific flag by name (as the first host to declare it says it), with the
    labels of the hosts that have it."""
    own: dict[str, tuple[Flag, list[str]]] = {}
    for target in _targets():
        for flag in target.installer.flags:
            own.setdefault(flag.name, (flag, []))[1].append(target.label)
    return own


def _default_timeouts() -> str:
    """Each host's handler timeout when --timeout is left out, for --timeout's help."""
    return ", ".join(
        f"{target.installer.default_timeout_s} for {target.label}" for target in _targets()
    )
