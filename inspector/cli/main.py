"""`hook-inspector` and its subcommands."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from inspector import __version__
from inspector.config.errors import ConfigError

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2

DESCRIPTION = """\
A terminal workbench for agent hooks. With no command it opens the UI on CONFIG
(or on the bundled demo, playing its scenario)."""


def _add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "config",
        nargs="?",
        type=Path,
        metavar="CONFIG",
        help="hook config: native YAML or PicoClaw config.json (default: the bundled demo)",
    )


def _add_journal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal", type=Path, metavar="PATH", help="stream the session's journal to PATH (JSONL)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hook-inspector",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hook-inspector {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    ui = commands.add_parser("ui", help="open the terminal UI (the default command)")
    _add_config(ui)
    _add_journal(ui)

    run = commands.add_parser(
        "run", help="play a scenario headless and print every exchange and event"
    )
    _add_config(run)
    run.add_argument(
        "--scenario", type=Path, metavar="FILE", help="scenario to play (default: the demo's)"
    )
    _add_journal(run)
    run.add_argument("--json", action="store_true", help="one JSON record per line")

    check = commands.add_parser(
        "check", help="handshake with every hook, send each a representative request, report"
    )
    _add_config(check)
    check.add_argument("--json", action="store_true", help="the report as JSON")
    return parser


def split_default_command(argv: list[str]) -> list[str]:
    """`hook-inspector [CONFIG]` means `hook-inspector ui [CONFIG]`."""
    known = {"ui", "run", "check", "-h", "--help", "--version"}
    if not argv or argv[0] not in known:
        return ["ui", *argv]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(
        split_default_command(list(sys.argv[1:] if argv is None else argv))
    )
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "ui": _ui,
        "run": _run,
        "check": _check,
    }
    try:
        return handlers[args.command](args)
    except ConfigError as error:
        print(f"hook-inspector: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace) -> int:
    from inspector.cli.run import run_scenario

    return asyncio.run(run_scenario(args.config, args.scenario, args.journal, as_json=args.json))


def _check(args: argparse.Namespace) -> int:
    from inspector.cli.check import check_hooks

    return asyncio.run(check_hooks(args.config, as_json=args.json))


def _ui(args: argparse.Namespace) -> int:
    from inspector.tui.launch import launch

    return launch(args.config, args.journal)
