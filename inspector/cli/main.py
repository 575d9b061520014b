"""`hook-inspector` and its subcommands."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from inspector.bridge.listener import ListenOptions

from inspector import __version__

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
        help="hook config: native YAML, PicoClaw's config.json, a Claude Code, Codex, Gemini CLI "
        "or j-cli project folder (or its .claude/settings.json, .codex/hooks.json or "
        "config.toml, .gemini/settings.json, .jcli/hooks), or an OpenClaw plugin folder "
        "(default: the bundled demo)",
    )


def _add_journal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal", type=Path, metavar="PATH", help="stream the session's journal to PATH (JSONL)"
    )


def _add_otlp(parser: argparse.ArgumentParser) -> None:
    from inspector.cli.otlp import add_otlp

    add_otlp(parser)


def _add_saved_journal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", type=Path, metavar="FILE", help="a journal saved with --journal or w in the UI"
    )


def build_parser() -> argparse.ArgumentParser:
    import argparse  # not at the top: the relay, started once per hook event, never needs it

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
    _add_listen(ui)
    _add_otlp(ui)

    run = commands.add_parser(
        "run", help="play a scenario headless and print every exchange and event"
    )
    _add_config(run)
    run.add_argument(
        "--scenario",
        type=Path,
        metavar="FILE",
        help="scenario to play (default: the first *scenario*.yaml next to CONFIG; without "
        "CONFIG, or for PicoClaw hooks with none there, the demo's)",
    )
    _add_journal(run)
    run.add_argument("--json", action="store_true", help="one JSON record per line")
    run.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 also when a call failed (error, timeout, exited, invalid, not_sent; a "
        "Claude Code exit 2 that blocks is an answer) or a hook crashed",
    )
    run.add_argument(
        "--watch",
        action="store_true",
        help="keep running: reload when the config or a hook script is saved, then play again",
    )
    _add_otlp(run)

    check = commands.add_parser(
        "check", help="handshake with every hook, send each a representative request, report"
    )
    _add_config(check)
    check.add_argument("--json", action="store_true", help="the report as JSON")
    _add_otlp(check)

    open_ = commands.add_parser("open", help="open a saved JSONL journal read-only in the UI")
    _add_saved_journal(open_)

    replay = commands.add_parser(
        "replay",
        help="send a saved session's requests to the current hooks and compare the answers",
    )
    _add_saved_journal(replay)
    _add_config(replay)
    replay.add_argument("--json", action="store_true", help="the report as JSON")

    export = commands.add_parser(
        "export", help="write a saved session to a new JSONL journal, secrets redacted"
    )
    _add_saved_journal(export)
    export.add_argument("-o", "--output", type=Path, metavar="OUT", help="the journal to write")
    export.add_argument(
        "--otlp",
        nargs="?",
        const="",
        metavar="URL",
        help="send the session's spans (original timestamps, bodies left out) to a collector",
    )
    export.add_argument(
        "--redact",
        action=argparse.BooleanOptionalAction,
        default=True,
        help='replace secret values with "[REDACTED]" (the default; --no-redact copies as is)',
    )

    serve = commands.add_parser(
        "serve", help="bridge mode without the UI: answer relays through the hooks, print records"
    )
    _add_config(serve)
    _add_listen(serve)
    _add_journal(serve)
    serve.add_argument("--json", action="store_true", help="one JSON record per line")
    _add_otlp(serve)

    commands.add_parser(
        "relay",
        add_help=False,
        help="the command an agent runs as its process hook (see hook-inspector relay --help)",
    )
    from inspector.cli.install import add_commands as add_install_commands

    add_install_commands(commands)
    return parser


def _add_listen(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--socket", type=Path, metavar="PATH", help="Unix socket (default: a private per-user one)"
    )
    where.add_argument(
        "--listen", metavar="HOST:PORT", help="TCP instead (needs --token-file; no HOST: loopback)"
    )
    parser.add_argument(
        "--token-file", type=Path, metavar="FILE", help="the token relays must give"
    )


def split_default_command(argv: list[str]) -> list[str]:
    """`hook-inspector [CONFIG]` means `hook-inspector ui [CONFIG]`."""
    known = {"ui", "run", "check", "open", "replay", "export", "serve", "relay"}
    known |= {"install", "uninstall"}
    known |= {"-h", "--help", "--version"}
    if not argv or argv[0] not in known:
        return ["ui", *argv]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["relay"]:  # the agent's hook: start fast, import nothing it does not need
        from inspector.relay.main import main as relay_main

        return relay_main(words[1:])
    from inspector.config.errors import ConfigError
    from inspector.journal.private_file import JournalFileError
    from inspector.otel.endpoint import OtlpError

    args = build_parser().parse_args(split_default_command(words))
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "ui": _ui,
        "run": _run,
        "check": _check,
        "open": _open,
        "replay": _replay,
        "export": _export,
        "serve": _serve,
        "install": _install,
        "uninstall": _uninstall,
    }
    try:
        return handlers[args.command](args)
    except (ConfigError, JournalFileError, OtlpError) as error:
        print(f"hook-inspector: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace) -> int:
    import asyncio

    from inspector.cli.otlp import spans_for
    from inspector.cli.run import run_scenario
    from inspector.cli.session import until_sigterm

    scenario = run_scenario(
        args.config,
        args.scenario,
        args.journal,
        as_json=args.json,
        watch=args.watch,
        strict=args.strict,
        spans=spans_for(args),
    )
    return asyncio.run(until_sigterm(scenario))


def _check(args: argparse.Namespace) -> int:
    import asyncio

    from inspector.cli.check import check_hooks
    from inspector.cli.otlp import spans_for
    from inspector.cli.session import until_sigterm

    checking = check_hooks(args.config, as_json=args.json, spans=spans_for(args))
    return asyncio.run(until_sigterm(checking))


def _ui(args: argparse.Namespace) -> int:
    from inspector.cli.otlp import spans_for
    from inspector.tui.launch import launch

    listen = _listen_options(args, "ui")
    if listen is None:
        return EXIT_BAD_INPUT
    return launch(args.config, args.journal, listen, spans_for(args, on_screen=True))


def _open(args: argparse.Namespace) -> int:
    from inspector.journal.jsonl import JournalLoadError
    from inspector.tui.launch import open_session

    try:
        return open_session(args.file)
    except JournalLoadError as error:
        print(f"hook-inspector: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _replay(args: argparse.Namespace) -> int:
    import asyncio

    from inspector.cli.replay import replay_session

    return asyncio.run(replay_session(args.file, args.config, as_json=args.json))


def _export(args: argparse.Namespace) -> int:
    from inspector.cli.export import export_session

    if args.output is None and args.otlp is None:
        print("hook-inspector export: give -o OUT, --otlp URL or both", file=sys.stderr)
        return EXIT_BAD_INPUT
    status = EXIT_OK
    if args.output is not None:
        status = export_session(args.file, args.output, redact_secrets=args.redact)
    if args.otlp is not None and status == EXIT_OK:
        from inspector.cli.otlp import replay_spans

        status = replay_spans(args.file, args.otlp)
    return status


def _serve(args: argparse.Namespace) -> int:
    import asyncio

    from inspector.cli.otlp import spans_for
    from inspector.cli.serve import serve

    listen = _listen_options(args, "serve")
    if listen is None:
        return EXIT_BAD_INPUT
    serving = serve(
        args.config, listen, journal_path=args.journal, as_json=args.json, spans=spans_for(args)
    )
    return asyncio.run(serving)


def _install(args: argparse.Namespace) -> int:
    from inspector.cli.install import run_install

    return run_install(args)


def _uninstall(args: argparse.Namespace) -> int:
    from inspector.cli.install import run_uninstall

    return run_uninstall(args)


def _listen_options(args: argparse.Namespace, command: str) -> ListenOptions | None:
    from inspector.bridge.listener import ListenOptions

    try:
        options = ListenOptions.from_flags(args.socket, args.listen, args.token_file)
    except (OSError, ValueError) as error:
        print(f"hook-inspector {command}: {error}", file=sys.stderr)
        return None
    if options.exposure:
        print(f"hook-inspector {command}: warning: {options.exposure}", file=sys.stderr)
    return options
