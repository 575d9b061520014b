"""The command relay's flags. A host starts the relay once per event, so a plainly well-formed
command line (what `hook-inspector install` writes) is read without argparse, whose import is a
good part of the relay's start; `--help` and anything unusual go to argparse, for its help text
and its one-line errors."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inspector.relay.slotted_value import Value
from inspector.relay.wire import answer_by_ms

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at every start

if TYPE_CHECKING:
    import argparse

HOST_FLAG = "--host"
VALUE_FLAGS = (HOST_FLAG, "--socket", "--connect", "--token-file", "--name", "--timeout")
QUIET_FLAG = "--quiet"
MAX_TIMEOUT_S = 86_400
JSONRPC_HOST = "picoclaw"  # --host picoclaw is the JSON-RPC process-hook relay (relay/main.py)

DESCRIPTION = """\
Run by an agent whose hooks are commands (Claude Code, j-cli, ...) as a command hook, once per
event: hands the event to a running hook-inspector, whose hooks and person decide, and prints
its answer as this hook's. With no inspector listening (or one that does not answer in time) it
exits 0 with no output, as if the hook were absent, and says why on stderr."""


class CommandArgs(Value):
    __slots__ = ("connect", "host", "name", "quiet", "socket", "timeout_ms", "token_file")

    def __init__(
        self,
        host: str,
        socket: str | None,
        connect: tuple[str, int] | None,
        token_file: str | None,
        name: str | None,
        timeout_ms: int | None,
        quiet: bool = False,
    ) -> None:
        self.host, self.socket, self.connect = host, socket, connect
        self.token_file, self.name, self.timeout_ms = token_file, name, timeout_ms
        self.quiet = quiet


def command_host(argv: Sequence[str]) -> str | None:
    """The host `--host` names in `argv` when it is a command-hook host (any but PicoClaw, whose
    relay is the JSON-RPC one), else None. Which hosts there are the inspector knows, not the
    relay: it refuses a name none has."""
    for index, word in enumerate(argv):
        if word.startswith(HOST_FLAG + "="):
            value = word.partition("=")[2]
        elif word == HOST_FLAG and index + 1 < len(argv):
            value = argv[index + 1]
        else:
            continue
        return value if value != JSONRPC_HOST else None
    return None


def host_name(text: str) -> str:
    """`--host`'s value: a host's name, lowercase letters, digits and dashes."""
    if not (
        "a" <= text[:1] <= "z" and all(c.isdigit() or c == "-" or "a" <= c <= "z" for c in text)
    ):
        raise ValueError(f"expected a host's name such as claude, got {text!r}")
    return text


def parse(argv: Sequence[str]) -> CommandArgs:
    """The flags in `argv`; on a bad command line argparse says why and exits 2."""
    try:
        return _read(_flags(argv))
    except ValueError:
        return _with_argparse(argv)


def host_port(text: str) -> tuple[str, int]:
    """`--connect`'s value: HOST:PORT, with [brackets] around an IPv6 host."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]"), int(port)


def milliseconds(text: str) -> int:
    """`--timeout`'s value, seconds as the host's config gives them, in milliseconds."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= MAX_TIMEOUT_S:
        raise ValueError(f"expected a positive number of seconds, got {text!r}")
    return round(seconds * 1000)


def argparse_type(check: Callable[[str], object]) -> Callable[[str], object]:
    """`check` as an argparse type: its ValueError becomes argparse's one-line error."""
    import argparse

    def convert(text: str) -> object:
        try:
            return check(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return convert


def _flags(argv: Sequence[str]) -> dict[str, str]:
    """Each flag once, with a value (--quiet with none); ValueError for anything else (--help
    included)."""
    flags: dict[str, str] = {}
    words = iter(argv)
    for word in words:
        if word == QUIET_FLAG and word not in flags:
            flags[word] = ""
            continue
        flag, equals, value = word.partition("=")
        if flag not in VALUE_FLAGS or flag in flags:
            raise ValueError(word)
        if not equals:
            value = next(words, "-")
            if value.startswith("-"):
                raise ValueError(word)
        flags[flag] = value
    return flags


def _read(flags: dict[str, str]) -> CommandArgs:
    host = host_name(flags.get(HOST_FLAG, ""))
    if "--socket" in flags and "--connect" in flags:
        raise ValueError(host)
    connect = host_port(flags["--connect"]) if "--connect" in flags else None
    token_file = flags.get("--token-file")
    if connect and token_file is None:
        raise ValueError("--connect needs --token-file")
    timeout = flags.get("--timeout")
    timeout_ms = milliseconds(timeout) if timeout else None
    if timeout_ms is not None and answer_by_ms(timeout_ms) <= 0:
        raise ValueError("no time to answer")
    socket = flags.get("--socket") or None
    name, quiet = flags.get("--name"), QUIET_FLAG in flags
    return CommandArgs(host, socket, connect, token_file, name, timeout_ms, quiet)


def _with_argparse(argv: Sequence[str]) -> CommandArgs:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.connect and not args.token_file:
        parser.error("--connect needs --token-file")
    timeout_ms = args.timeout
    if timeout_ms is not None and answer_by_ms(timeout_ms) <= 0:
        parser.error(f"--timeout {timeout_ms / 1000:g} leaves no time to answer")
    socket, token_file = (str(path) if path else None for path in (args.socket, args.token_file))
    return CommandArgs(
        args.host, socket, args.connect, token_file, args.name, timeout_ms, args.quiet
    )


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="hook-inspector relay",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        HOST_FLAG,
        required=True,
        type=argparse_type(host_name),
        metavar="HOST",
        help="the agent whose hook this is: claude, jcli, or any command-hook host"
        " `hook-inspector install` knows",
    )
    add_endpoint_flags(parser)
    parser.add_argument(
        "--name", metavar="LABEL", help="how the inspector labels this agent (default: the host)"
    )
    parser.add_argument(
        "--timeout",
        type=argparse_type(milliseconds),
        metavar="S",
        help="the handler's timeout in the host's config, in seconds (default: the host's, as"
        " the inspector says it: 600 for Claude Code, 10 for j-cli); the relay answers a little"
        " before it",
    )
    parser.add_argument(
        QUIET_FLAG,
        action="store_true",
        help="say nothing on stderr, for a host that reads a hook's stderr as its answer when"
        " stdout is empty (Gemini CLI): with no inspector the event passes in silence",
    )
    return parser


def add_endpoint_flags(parser: argparse.ArgumentParser) -> None:
    """Where the inspector is: --socket, or --connect with --token-file. Both relays take them."""
    from pathlib import Path

    from inspector.relay.wire import default_socket_path

    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--socket",
        type=Path,
        metavar="PATH",
        help=f"the inspector's Unix socket (default: {default_socket_path()})",
    )
    where.add_argument(
        "--connect",
        metavar="HOST:PORT",
        type=argparse_type(host_port),
        help="reach the inspector over TCP",
    )
    parser.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help="file holding the inspector's token (required with --connect)",
    )
