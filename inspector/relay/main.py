"""`hook-inspector relay`: the command an agent runs as its process hook, e.g. in PicoClaw's
config.json: "hooks": {"processes": {"inspector": {"command": ["hook-inspector", "relay"], ...}}}.

Imports only the standard library and the bridge's relay modules, so it starts fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from inspector.relay.command_args import add_endpoint_flags, argparse_type, command_host
from inspector.relay.command_main import main as command_main
from inspector.relay.log import Log
from inspector.relay.wire import DEFAULT_DEADLINES_MS, default_socket_path

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at every start
if TYPE_CHECKING:
    import argparse

    from inspector.relay.link import Endpoint

DESCRIPTION = """\
Run by an agent as its process hook: lends the agent's stdin to a running hook-inspector,
which reads its JSON-RPC lines itself and sends the answers back for the relay to write (over
TCP, or with files for stdin and stdout, the relay copies the lines and the answers, unchanged).
With no inspector listening, or one that stops answering or is too slow for the agent's
deadline, the relay answers by itself as PicoClaw does with a dead hook: interceptors continue,
approvals are denied."""


def build_parser() -> argparse.ArgumentParser:
    import argparse  # not at the top: a command relay never needs it

    parser = argparse.ArgumentParser(
        prog="hook-inspector relay",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_endpoint_flags(parser)
    parser.add_argument(
        "--host",
        choices=["picoclaw"],
        help="picoclaw (the default); --host claude or --host jcli relays a command hook instead",
    )
    parser.add_argument(
        "--name", metavar="LABEL", help="how the inspector labels this agent (default: its name)"
    )
    for kind in DEFAULT_DEADLINES_MS:
        parser.add_argument(
            f"--{kind}-timeout-ms",
            type=argparse_type(_positive),
            default=DEFAULT_DEADLINES_MS[kind],
            metavar="N",
            help=f"the agent's {kind} timeout (default: %(default)s, PicoClaw's)",
        )
    parser.add_argument(
        "--keep-events",
        type=argparse_type(_positive),
        default=1000,
        metavar="N",
        help="runtime events kept while no inspector is connected (default: %(default)s)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if command_host(words) is not None:
        return command_main(words)
    # A command relay never needs the event loop: it is imported only from here on.
    import asyncio

    from inspector.relay.relay import Relay, Settings

    parser = build_parser()
    args = parser.parse_args(words)
    if args.connect and not args.token_file:
        parser.error("--connect needs --token-file")
    name = args.name or _parent_name()
    settings = Settings(
        endpoint=_endpoint(args),
        name=name,
        deadlines_ms={kind: getattr(args, f"{kind}_timeout_ms") for kind in DEFAULT_DEADLINES_MS},
        keep_events=args.keep_events,
    )
    log = Log(name)
    try:
        return asyncio.run(Relay(settings, log).run())
    except KeyboardInterrupt:
        return 130


def _endpoint(args: argparse.Namespace) -> Endpoint:
    from inspector.relay.link import Endpoint

    if args.connect:
        host, port = args.connect
        return Endpoint(host=host, port=port, token_file=args.token_file)
    return Endpoint(path=args.socket or default_socket_path(), token_file=args.token_file)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) == 0:
        raise ValueError(f"expected a positive whole number, got {text!r}")
    return int(text)


def _parent_name() -> str:
    try:
        with open(f"/proc/{os.getppid()}/comm", encoding="utf-8") as comm:
            return comm.read().strip() or "agent"
    except OSError:
        return "agent"


if __name__ == "__main__":
    sys.exit(main())
