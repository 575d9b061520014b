"""What the bridge adds to a call, measured by PicoClaw's own hook host.

    bridge_latency.py --picoclaw GIT_DIR_OR_CHECKOUT --go GO_BINARY [--rev REV] [--calls N]

Builds the corpus harness from PicoClaw's source (as regenerate.py does, nothing fetched), then
has PicoClaw's HookManager call BeforeTool N times on one process hook, in turns: the echo hook of
tests/bench/ mounted directly, and `hook-inspector relay` in front of a
`hook-inspector serve --json` whose one hook is that echo hook. Prints each turn's medians and
what the bridge added.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import go_tree

ROOT = Path(__file__).resolve().parents[4]  # the checkout: generator, corpus, data, tests
sys.path.insert(0, str(ROOT))
from inspector.hosts.picoclaw.templates import template  # noqa: E402

ECHO = [sys.executable, str(ROOT / "tests" / "bench" / "echo_hook.py")]
CONSOLE = Path(sys.executable).parent / "hook-inspector"
TURNS = 3


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--picoclaw", type=Path, required=True, help="PicoClaw git directory")
    parser.add_argument("--go", type=Path, required=True, help="go binary (Go 1.25 or newer)")
    parser.add_argument("--rev", default="HEAD", help="PicoClaw revision (default HEAD)")
    parser.add_argument("--calls", type=int, default=2000, help="calls per turn and side")
    args = parser.parse_args()
    upstream = go_tree.resolve(args.picoclaw, args.rev)
    with tempfile.TemporaryDirectory(prefix="picoclaw-bench-", dir="/tmp") as build:
        folder = Path(build)
        harness = go_tree.build_harness(upstream, args.go, folder)
        call = folder / "call.json"
        call.write_text(json.dumps(template("hook.before_tool")))
        socket = folder / "relay.sock"
        config = folder / "hooks.yaml"
        hooks = f"hooks:\n  echo:\n    command: {json.dumps(ECHO)}\n    intercept: [before_tool]\n"
        config.write_text(hooks)
        serve = subprocess.Popen(
            [str(CONSOLE), "serve", str(config), "--socket", str(socket), "--json"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            assert serve.stderr is not None
            while b"listening on" not in serve.stderr.readline():
                pass
            relay = [str(CONSOLE), "relay", "--name", "picoclaw", "--socket", str(socket)]
            print(f"PicoClaw {upstream.commit[:12]}, {args.calls} before_tool calls per turn")
            for turn in range(1, TURNS + 1):
                direct = _bench(harness, ECHO, args.calls, call)
                bridged = _bench(harness, relay, args.calls, call)
                added = bridged["median_ms"] - direct["median_ms"]
                print(
                    f"turn {turn}: direct {direct['median_ms']:.3f} ms,"
                    f" relay + serve {bridged['median_ms']:.3f} ms (p90 {bridged['p90_ms']:.3f}):"
                    f" adds {added:.3f} ms; decisions {bridged['actions']}"
                )
        finally:
            serve.terminate()
            serve.wait()
    return 0


def _bench(harness: Path, command: list[str], calls: int, call: Path) -> dict[str, Any]:
    done = subprocess.run(
        [str(harness), "bench", json.dumps(command), str(calls), str(call)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


if __name__ == "__main__":
    sys.exit(main())
