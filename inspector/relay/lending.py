"""The relay's side of its connection while the inspector holds the agent's stdin (see wire.py).

Every line from the inspector is handled in the read callback itself, with no task to wake per
line: an answer is on its way to the agent's stdout in the same loop iteration its bytes arrive.
A watchdog counts the heartbeats missed; `outcome` says how the lending ended (the stdin given
back, the inspector gone, or silent), `closed` when the connection did.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.relay import wire


@dataclass(frozen=True)
class GivenBack:
    input: bytes  # what the inspector read of stdin and did not act on
    hello: dict[str, Any] | None


GONE = "gone"  # the connection ended (or broke the wire) without the stdin given back
SILENT = "silent"  # no line for wire.ALIVE_MISSES heartbeats in a row
Outcome = GivenBack | str

# A line from the inspector; returns the `returned` line's (size, hello) when it is that line.
OnLine = Callable[[bytes], tuple[int, dict[str, Any] | None] | None]


class Lending(asyncio.Protocol):
    def __init__(self, on_line: OnLine, alive_ms: int, line_limit: int) -> None:
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._on_line = on_line
        self._alive_s = alive_ms / 1000
        self._line_limit = line_limit
        self.outcome: asyncio.Future[Outcome] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self._transport: asyncio.BaseTransport | None = None
        self._buffer = bytearray()
        self._returning: tuple[int, dict[str, Any] | None] | None = None
        self._heard = True
        self._missed = 0
        self._watchdog = loop.call_later(self._alive_s, self._watch)

    def adopt(self, transport: asyncio.BaseTransport) -> None:
        """Take over a connection's transport from its stream. The inspector sends nothing
        before the relay's confirmation, so the stream has read nothing that is lost here."""
        self._transport = transport
        transport.set_protocol(self)

    def data_received(self, data: bytes) -> None:
        self._heard = True
        self._buffer += data
        if self._returning is None:
            self._read_lines()
        if self._returning is not None:
            self._collect_returned()
        elif len(self._buffer) > self._line_limit:
            self._end(GONE)
            self.close()

    def eof_received(self) -> bool:
        self._end(GONE)
        return False  # close the transport

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(GONE)
        self._watchdog.cancel()
        if not self.closed.done():
            self.closed.set_result(None)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    def _read_lines(self) -> None:
        """Each whole line, up to the `returned` line (the bytes after it are not lines)."""
        buffer, start = self._buffer, 0
        while self._returning is None and (end := buffer.find(b"\n", start)) >= 0:
            self._returning = self._on_line(bytes(buffer[start : end + 1]))
            start = end + 1
        del buffer[:start]

    def _collect_returned(self) -> None:
        assert self._returning is not None
        size, hello = self._returning
        if len(self._buffer) >= size:
            self._end(GivenBack(bytes(self._buffer[:size]), hello))

    def _watch(self) -> None:
        self._missed = 0 if self._heard else self._missed + 1
        self._heard = False
        if self._missed >= wire.ALIVE_MISSES:
            self._end(SILENT)
        else:
            self._watchdog = self._loop.call_later(self._alive_s, self._watch)

    def _end(self, outcome: Outcome) -> None:
        if not self.outcome.done():
            self.outcome.set_result(outcome)
