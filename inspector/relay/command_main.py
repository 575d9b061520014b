"""`hook-inspector relay --host claude|jcli`: the command a Claude Code settings.json (or a j-cli
HOOK.yaml) names as its hook. It runs once per event: stdin to EOF goes to hook-inspector with
the host's variables and the working directory, and the inspector's stdout, stderr and exit code
become the hook's own."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from inspector.relay.command import Target, relay_event
from inspector.relay.command_args import parse
from inspector.relay.log import Log
from inspector.relay.wire import default_socket_location

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at every start
if TYPE_CHECKING:
    from typing import BinaryIO


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    target = Target(
        host=args.host,
        name=args.name or args.host,
        timeout_ms=args.timeout_ms,
        path=None if args.connect else (args.socket or default_socket_location()),
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
