"""A connection's first line, read from the socket itself: descriptors a relay sends with its
greeting (the agent's pipes, see wire.py) arrive only with a recvmsg; a stream's transport would
read the bytes and let the kernel close the descriptors."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from dataclasses import dataclass, field

MAX_FDS = 2  # the agent's stdin and stdout
_CHUNK = 1 << 16


class TooLong(Exception):
    """No newline within the limit."""


@dataclass
class FirstLine:
    line: bytes  # with its newline; b"" when the peer left without a word
    rest: bytes = b""  # what came after it in the same reads
    fds: list[int] = field(default_factory=list)  # ours to close

    def close_fds(self) -> None:
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds.clear()


async def read_first_line(sock: socket.socket, limit: int) -> FirstLine:
    """Raises TooLong past `limit` bytes, OSError when the connection fails; the caller bounds
    the wait. Descriptors received are closed on any failure."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    read = FirstLine(b"")
    data = bytearray()
    done: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if done.done():
            return
        try:
            chunk, fds, _flags, _address = socket.recv_fds(
                sock, _CHUNK, MAX_FDS, socket.MSG_CMSG_CLOEXEC
            )
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            done.set_exception(error)
            return
        read.fds.extend(fds)
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
