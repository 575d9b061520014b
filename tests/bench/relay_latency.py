"""Bridge mode: what `hook-inspector relay` and the inspector behind it add to a round trip.

Baseline: a bare client calling the echo hook directly. Measured: the same bare client calling
`hook-inspector relay`, which lends its stdin to a running `hook-inspector serve` whose one
downstream hook is that same echo hook. Both sides take turns, so load falls on both alike.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

from . import Row, row
from .roundtrip import HOOK_COMMAND, PAYLOADS, BareClient, measure

CONSOLE_SCRIPT = Path(sys.executable).parent / "hook-inspector"
TARGET_ADDED_MS = 0.5
SMALL = PAYLOADS[0]  # a before_tool request exactly as PicoClaw sends it


async def serve(folder: Path) -> tuple[asyncio.subprocess.Process, Path]:
    """A headless inspector with the echo hook downstream, ready for relays."""
    config = folder / "hooks.yaml"
    command = ", ".join(HOOK_COMMAND)
    config.write_text(f"hooks:\n  echo:\n    command: [{command}]\n    intercept: [before_tool]\n")
    socket = folder / "relay.sock"
    proc = await asyncio.create_subprocess_exec(
        str(CONSOLE_SCRIPT), "serve", str(config), "--socket", str(socket), "--json",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    while b"listening on" not in await asyncio.wait_for(proc.stderr.readline(), 30):
        pass
    return proc, socket


async def run_async(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory() as folder:
        inspector, socket = await serve(Path(folder))
        direct = BareClient()
        relay = (str(CONSOLE_SCRIPT), "relay", "--name", "bench", "--socket", str(socket))
        relayed = BareClient(relay)
        try:
            await direct.start()
            await relayed.start()
            baseline, measured = await measure(direct, relayed, SMALL, quick)
        finally:
            await direct.stop()
            await relayed.stop()
            inspector.terminate()
            await inspector.wait()
    before, after = statistics.median(baseline.ms), statistics.median(measured.ms)
    added = after - before
    verdict = "met" if added < TARGET_ADDED_MS else "missed"
    return [
        row(
            "bridge: small before_tool through relay + inspector, median ms",
            before,
            after,
            None,
            f"baseline = the same hook called directly; adds {added:.2f} ms "
            f"(target < {TARGET_ADDED_MS} ms: {verdict})",
            limit=before + TARGET_ADDED_MS,
        )
    ]


def run(quick: bool) -> list[Row]:
    return asyncio.run(run_async(quick))
