"""A real `hook-inspector serve TARGET --otlp URL` for a test's relays to reach: up and
listening on its socket inside the block, stopped by a signal at its end (SIGTERM, or SIGHUP as
when its terminal closes: either sends what is left), with what it said on stderr then."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

START_S = STOP_S = 30


@asynccontextmanager
async def serving(
    target: Path, socket_path: Path, url: str, stop: signal.Signals = signal.SIGTERM
) -> AsyncIterator[list[str]]:
    """Yields a list that holds serve's stderr once the block has ended by `stop`."""
    serve = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "inspector", "serve", str(target), "--socket", str(socket_path),
        "--otlp", url, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert serve.stderr is not None
    said: list[str] = []
    try:
        assert b"listening on" in await asyncio.wait_for(serve.stderr.readline(), START_S)
        yield said
    finally:
        serve.send_signal(stop)
        said.append((await asyncio.wait_for(serve.stderr.read(), STOP_S)).decode())
        await serve.wait()
