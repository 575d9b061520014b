"""`hook-inspector relay --host claude|jcli`: the command a Claude Code settings.json (or a j-cli
HOOK.yaml) names as its hook. It runs once per event: stdin to EOF goes to hook-inspector with
the host's variables and the working directory, and the inspector's stdout, stderr and exit code
become the hook's own."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from inspector.relay.command import Target, relay_event
from inspector.relay.command_wire import DEFAULT_TIMEOUT_MS
from inspector.relay.log import Log
from inspector.relay.wire import answer_by_ms, default_socket_path

HOST_FLAG = "--host"

DESCRIPTION = """\
Run by Claude Code (or j-cli) as a command hook, once per event: hands the event to a running
hook-inspector, whose hooks and person decide, and prints its answer as this hook's. With no
inspector listening (or one that does not answer in time) it exits 0 with no output, as if the
hook were absent, and says why on stderr."""


def command_host(argv: Sequence[str]) -> str | None:
    """The host `--host` names in `argv` when it is a command-hook host, else None."""
    for index, word in enumerate(argv):
        if word.startswith(HOST_FLAG + "="):
            value = word.partition("=")[2]
        elif word == HOST_FLAG and index + 1 < len(argv):
            value = argv[index + 1]
        else:
            continue
        return value if value in DEFAULT_TIMEOUT_MS else None
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hook-inspector relay",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(HOST_FLAG, required=True, choices=sorted(DEFAULT_TIMEOUT_MS))
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--socket",
        type=Path,
        metavar="PATH",
        help=f"the inspector's Unix socket (default: {default_socket_path()})",
    )
    where.add_argument(
        "--connect", metavar="HOST:PORT", type=host_port, help="reach the inspector over TCP"
    )
    parser.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help="file holding the inspector's token (required with --connect)",
    )
    parser.add_argument(
        "--name", metavar="LABEL", help="how the inspector labels this agent (default: the host)"
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        metavar="S",
        help="the handler's timeout in the host's config, in seconds (default: the host's,"
        " 600 for Claude Code, 10 for j-cli); the relay answers a little before it",
    )
    return parser


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.connect and not args.token_file:
        parser.error("--connect needs --token-file")
    timeout_ms = args.timeout or DEFAULT_TIMEOUT_MS[args.host]
    if answer_by_ms(timeout_ms) <= 0:
        parser.error(f"--timeout {timeout_ms / 1000:g} leaves no time to answer")
    target = Target(
        host=args.host,
        name=args.name or args.host,
        timeout_ms=timeout_ms,
        path=None if args.connect else (args.socket or default_socket_path()),
        host_port=args.connect,
        token_file=args.token_file,
    )
    stdin = sys.stdin.buffer.read()
    output = relay_event(target, stdin, os.environ, os.getcwd(), Log(target.name).say)
    _write(sys.stdout.buffer, output.stdout)
    _write(sys.stderr.buffer, output.stderr)
    return output.exit_code


def _write(stream: BinaryIO, text: str) -> None:
    if not text:
        return
    try:
        stream.write(text.encode("utf-8", "surrogateescape"))
        stream.flush()
    except OSError:  # the host stopped reading: nothing left to tell it
        pass


def host_port(text: str) -> tuple[str, int]:
    """`--connect`'s value: HOST:PORT, with [brackets] around an IPv6 host."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]"), int(port)


def _seconds(text: str) -> int:
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0 or seconds != seconds or seconds > 86_400:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return round(seconds * 1000)
