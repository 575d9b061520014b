"""`hook-inspector relay --host HOST`: the command a command-hook host's config (a Claude Code
settings.json, a j-cli HOOK.yaml, ...) names as its hook. It runs once per event: stdin to EOF
(read within the deadline, at most STDIN_LIMIT) goes to hook-inspector with the host's variables
and the working directory, and the inspector's stdout, stderr and exit code become the hook's
own."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from inspector.relay.command import ABSENT, Deadline, Target, relay_event
from inspector.relay.command_args import parse
from inspector.relay.command_stdin import StdinTooLong, read_stdin
from inspector.relay.log import Log
from inspector.relay.wire import default_socket_location

STDIN_FD = 0
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
    deadline = Deadline(target.timeout_ms)
    say = _silent if args.quiet else Log(target.name).say
    stdin = _event_on_stdin(deadline, say)
    if stdin is None:
        output = ABSENT
    else:
        output = relay_event(target, stdin, os.environ, os.getcwd(), say, deadline)
    _write(sys.stdout.buffer, output.stdout)
    _write(sys.stderr.buffer, output.stderr)
    return output.exit_code


def _event_on_stdin(deadline: Deadline, say: Callable[[str], None]) -> bytes | None:
    """The host's stdin, or None (after one line through `say`) when it does not end in time or
    is too long for an event: the hook is then absent, as when no inspector listens."""
    passes = "sent hook-inspector nothing, the event passes as if this hook were absent"
    try:
        return read_stdin(STDIN_FD, deadline.answer_by)
    except TimeoutError:
        seconds = round(deadline.answer_by - deadline.started, 3)
        say(f"the host's stdin did not end within {seconds:g} s; {passes}")
    except StdinTooLong as too_long:
        say(f"the event on stdin is {too_long}; stopped reading it, {passes}")
    except OSError as error:
        say(f"cannot read the host's stdin ({error.strerror or error}); {passes}")
    return None


def _write(stream: BinaryIO, text: str) -> None:
    if not text:
        return
    try:
        stream.write(text.encode("utf-8", "surrogateescape"))
        stream.flush()
    except OSError:  # the host stopped reading: nothing left to tell it
        pass


def _silent(text: str) -> None:
    """What a --quiet relay says: nothing, so the host never takes it for the hook's answer."""
