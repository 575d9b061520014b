"""A PicoClaw-like client of the bridge over a real Unix socket: an inspector listening for relays,
and a connection that greets it as the relay does and then plays the agent's side line by line."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.relay import wire


@contextmanager
def short_socket_path() -> Iterator[Path]:
    # Unix socket paths are limited to ~100 bytes: pytest's tmp_path can be too long.
    folder = Path(tempfile.mkdtemp(prefix="bridge-", dir="/tmp"))
    try:
        yield folder / "relay.sock"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@asynccontextmanager
async def listening(config: Config, socket_path: Path) -> AsyncIterator[Engine]:
    """A running inspector on `config`, listening for relays at `socket_path`."""
    async with Engine(config) as engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        try:
            yield engine
        finally:
            await listener.close()


class AgentSide:
    """One relay connection, greeted with the agent's name and deadlines."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, socket_path: Path, name: str, deadlines_ms: dict[str, int]) -> AgentSide:
        reader, writer = await asyncio.open_unix_connection(socket_path, limit=1 << 24)
        writer.write(wire.greeting(name, None, deadlines_ms))
        json.loads(await reader.readline())  # the welcome
        return cls(reader, writer)

    async def ask(self, line: bytes) -> bytes:
        """Send one request line (newline included) and read the one answer line."""
        self.writer.write(line)
        answer = await self.reader.readline()
        assert answer, "the inspector closed the connection"
        return answer

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()
