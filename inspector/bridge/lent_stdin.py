"""The agent's stdin, lent by its relay (see wire.py): the inspector reads the agent's requests
itself, with no process in between; its answers still go back over the relay's socket.

Lines are handed to the session as they are read, in the read callback, so a request starts on
the very loop iteration its bytes arrive. Before it does, the relay is told which calls were read
(`took`), so that it can answer them should the inspector die. Before every read the relay's
socket is checked: once that connection has ended (the relay is gone, or took its stdin back
from an inspector that had stopped answering) not another byte is read. Reading can stop at any
moment, and what was read past the last line goes back to the relay."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
from collections.abc import Callable

from inspector.jsonrpc.framing import Line, LineSplitter
from inspector.relay import wire
from inspector.relay.lines import classify

_CHUNK = 1 << 18
_ENDED = select.POLLIN | select.POLLHUP | select.POLLERR | select.POLLRDHUP


class LentStdin:
    """`fd` is ours to close; `link_fd` is the relay's socket (the relay sends nothing on it
    while it lends, so anything readable there means the lending is over); `tell_relay` sends a
    line to the relay."""

    def __init__(self, fd: int, link_fd: int, tell_relay: Callable[[bytes], None]) -> None:
        os.set_blocking(fd, False)
        self._fd = fd
        self._link = select.poll()
        self._link.register(link_fd, _ENDED)
        self._tell_relay = tell_relay
        self._loop = asyncio.get_running_loop()
        self.ended: asyncio.Future[None] = self._loop.create_future()  # reading stopped
        self._splitter: LineSplitter | None = None
        self._on_line: Callable[[Line], None] = lambda line: None
        self._at_line_start = True
        self._reading = False
        self._closed = False

    def read(
        self, splitter: LineSplitter, on_line: Callable[[Line], None], already_read: bytes
    ) -> None:
        """Read stdin into `splitter`, lines to `on_line`, after `already_read` (the relay's);
        nothing once reading was stopped."""
        if self.ended.done():
            return
        self._splitter, self._on_line = splitter, on_line
        self._feed(already_read)
        if not self.ended.done():
            self._loop.add_reader(self._fd, self._readable)
            self._reading = True

    def stop_reading(self) -> bytes:
        """Read no more; returns the input read past the last whole line."""
        if self._reading:
            self._loop.remove_reader(self._fd)
            self._reading = False
        if not self.ended.done():
            self.ended.set_result(None)
        return self._splitter.unfinished() if self._splitter is not None else b""

    def let_go(self) -> None:
        """Close our copy."""
        self.stop_reading()
        if not self._closed:
            self._closed = True
            with contextlib.suppress(OSError):
                os.close(self._fd)

    def _readable(self) -> None:
        if self._link.poll(0):  # the relay's connection ended: the stdin is not ours any more
            self.stop_reading()
            return
        try:
            data = os.read(self._fd, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            self._feed(data)
        else:  # the agent closed stdin
            self.stop_reading()

    def _feed(self, data: bytes) -> None:
        assert self._splitter is not None
        lines = self._splitter.feed(data)
        read = (classify(line.data) for line in lines)
        calls = [(call.id_json, call.method) for call in read if call.id_json]
        begun = self._begun(data)
        if begun is not None:
            calls.append(begun)
        if calls:
            self._tell_relay(wire.took(calls))  # before any of them can be answered
        for line in lines:
            self._on_line(line)

    def _begun(self, data: bytes) -> tuple[str, str] | None:
        """The call whose line this read began and did not end, once its head names it."""
        if not data:
            return None
        at_start, self._at_line_start = self._at_line_start, data.endswith(b"\n")
        if self._at_line_start:
            return None
        cut = data.rfind(b"\n")
        if cut < 0 and not at_start:
            return None  # the middle of a line already begun
        call = classify(data[cut + 1 :])
        return (call.id_json, call.method) if call.id_json else None
