"""The inspector's accept loop, in place of asyncio's Server, for two things that one cannot do:

- a cap on connections not yet past their greeting: at the cap the loop stops accepting, and
  the next ones wait in the kernel's backlog holding no descriptor of ours, so a crowd of idle
  connections cannot use up the descriptors a hook needs to be started again;
- an accept that fails for want of resources (EMFILE, ENFILE, ENOBUFS, ENOMEM) waits, each time
  twice as long, and tries again; it is reported through `on_trouble`, never as a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable

BACKLOG = 100  # asyncio's default
RETRY_START_S = 0.05
RETRY_MAX_S = 1.0


class AcceptLoop:
    """Accepts on each of `sockets` (listening, ours to close) and hands every connection to
    `on_connection`, which must call `leave()` once that connection is past its greeting."""

    def __init__(
        self,
        sockets: list[socket.socket],
        on_connection: Callable[[socket.socket], None],
        *,
        room: int,
        on_trouble: Callable[[OSError], None],
    ) -> None:
        self.sockets = sockets
        self._on_connection = on_connection
        self._on_trouble = on_trouble
        self._room = asyncio.Semaphore(room)
        self._loops: list[asyncio.Task[None]] = []

    def start(self) -> None:
        for sock in self.sockets:
            sock.setblocking(False)
            self._loops.append(asyncio.create_task(self._accept_forever(sock)))

    def leave(self) -> None:
        """A connection is past its greeting (or gone): one more may come in."""
        self._room.release()

    async def close(self) -> None:
        for task in self._loops:
            task.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        for sock in self.sockets:
            sock.close()

    async def _accept_forever(self, sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        pause = RETRY_START_S
        while True:
            await self._room.acquire()
            try:
                conn, _ = await loop.sock_accept(sock)
            except OSError as exc:  # the connection stays queued and is accepted later
                self._room.release()
                self._on_trouble(exc)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MAX_S)
                continue
            except BaseException:
                self._room.release()
                raise
            pause = RETRY_START_S
            self._on_connection(conn)


async def bind_tcp(host: str, port: int) -> list[socket.socket]:
    """Listening sockets for every address `host` names, as asyncio.start_server binds them."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # "::" is IPv6 only; 0.0.0.0 is its own address
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(BACKLOG)
    except BaseException:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()
        raise
    return sockets
