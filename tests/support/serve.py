"""A real `hook-inspector serve` for tests that stop or kill it: started on a config's text,
listening on a socket, and at the end woken (if stopped) and killed."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.support.paths import SCRIPTED

_TAG = '{"before_tool": {"echo": "modify", "patch": {"arguments": {"tag": 1}}}}'
# One hook that tags every before_tool's arguments with "tag": 1.
TAGGER_CONFIG = (
    f"hooks:\n  tagger:\n    command: [{sys.executable}, {SCRIPTED}, '{_TAG}']\n"
    "    intercept: [before_tool]\n"
)


@asynccontextmanager
async def serving(
    socket_path: Path, folder: Path, config: str
) -> AsyncIterator[asyncio.subprocess.Process]:
    """`serve` on the hooks.yaml `config` (written into `folder`), ready for relays."""
    config_file = folder / "hooks.yaml"
    config_file.write_text(config)
    serve = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "inspector", "serve", str(config_file), "--socket", str(socket_path),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert serve.stderr is not None
    try:
        assert b"listening on" in await asyncio.wait_for(serve.stderr.readline(), 20)
        yield serve
    finally:
        if serve.returncode is None:
            serve.send_signal(signal.SIGCONT)
            serve.kill()
        await serve.wait()
