"""A connection's first line, its greeting (greeting.py reads what it says), taken off the
socket itself: descriptors a relay sends with its greeting (the agent's stdin, see wire.py) arrive
only with a recvmsg; a stream's transport would read the bytes and let the kernel close the
descriptors.

Descriptors cost the inspector what a hook needs to be started again, so they are bounded: at
most MAX_FDS per connection and `Allowance.limit` held at once across every greeting being read.
Past either, a read takes no descriptors, and the kernel closes those sent with the bytes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from dataclasses import dataclass, field

MAX_FDS = 1  # the agent's stdin (see wire.py)
HELD_LIMIT = 64  # received descriptors held at once, across connections
_CHUNK = 1 << 16


@dataclass
class Allowance:
    """Received descriptors held at once across connections, for the total cap."""

    limit: int = HELD_LIMIT
    held: int = 0

    @property
    def room(self) -> int:
        return max(self.limit - self.held, 0)


class TooLong(Exception):
    """No newline within the limit."""


@dataclass
class FirstLine:
    line: bytes  # with its newline; b"" when the peer left without a word
    rest: bytes = b""  # what came after it in the same reads
    fds: list[int] = field(default_factory=list)  # ours to close
    allowance: Allowance = field(default_factory=Allowance)  # what fds count against

    def take_fds(self) -> list[int]:
        """The descriptors, the caller's to close from now on (no longer held by a greeting)."""
        fds, self.fds = self.fds, []
        self.allowance.held -= len(fds)
        return fds

    def close_fds(self) -> None:
        for fd in self.take_fds():
            with contextlib.suppress(OSError):
                os.close(fd)


async def read_first_line(sock: socket.socket, limit: int, allowance: Allowance) -> FirstLine:
    """Raises TooLong past `limit` bytes, OSError when the connection fails; the caller bounds
    the wait. Descriptors received are closed on any failure."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    read = FirstLine(b"", allowance=allowance)
    data = bytearray()
    done: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if done.done():
            return
        room = min(MAX_FDS - len(read.fds), allowance.room)
        try:
            if room > 0:
                chunk, fds, _flags, _address = socket.recv_fds(
                    sock, _CHUNK, room, socket.MSG_CMSG_CLOEXEC
                )
            else:  # any descriptors sent with these bytes are closed by the kernel
                chunk, fds = sock.recv(_CHUNK), []
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            done.set_exception(error)
            return
        read.fds.extend(fds)
        allowance.held += len(fds)
        data.extend(chunk)
        if not chunk or b"\n" in data:
            done.set_result(None)
        elif len(data) > limit:
            done.set_exception(TooLong())

    loop.add_reader(sock.fileno(), readable)
    try:
        await done
    except BaseException:
        read.close_fds()
        raise
    finally:
        loop.remove_reader(sock.fileno())
    end = data.find(b"\n")
    if end + 1 > limit:
        read.close_fds()
        raise TooLong
    if end < 0:
        read.line = bytes(data)  # the peer closed after a line without a newline
    else:
        read.line, read.rest = bytes(data[: end + 1]), bytes(data[end + 1 :])
    return read
