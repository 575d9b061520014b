"""The `hook-inspector` console script. An agent runs `hook-inspector relay` once per hook event,
so that word goes straight to the relay's standard-library-only entry point, before the CLI's own
imports (pathlib, typing, the command table) are paid for; every other command goes to the CLI."""

import sys


def main() -> int:
    if sys.argv[1:2] == ["relay"]:
        from inspector.relay.main import main as relay_main

        return relay_main(sys.argv[2:])
    from inspector.cli.main import main as cli_main

    return cli_main()
