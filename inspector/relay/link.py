"""Reaching hook-inspector: connect (Unix socket or TCP), make sure a Unix socket is this user's
inspector's (see trust), greet, and read the welcome."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from inspector.relay.trust import check_listener, check_socket_file
from inspector.relay.wire import read_token, refusal, takes_pipes

CONNECT_TIMEOUT_S = 1.0
WELCOME_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class Endpoint:
    """Where the inspector listens: a Unix socket `path`, or `host`:`port` with a token file."""

    path: Path | None = None
    host: str = ""
    port: int = 0
    token_file: Path | None = None

    def __str__(self) -> str:
        return str(self.path) if self.path else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class Link:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    took_pipes: bool = False  # the inspector took the agent's pipes offered with the greeting


# The greeting for a token (None without one), and the descriptors to send with it (Unix only).
Greet = Callable[[str | None, bool], tuple[bytes, list[int]]]


class Refused(Exception):
    """The inspector answered, but not with a welcome; or the token could not be read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def open_link(endpoint: Endpoint, greet: Greet, line_limit: int) -> Link:
    """Raises OSError or asyncio.TimeoutError when nobody listens, Refused when refused,
    trust.Untrusted (before a byte is sent) when the socket is not this user's. `greet` is asked
    for the greeting only once the other side is trusted; over a Unix socket it may send the
    agent's pipes with it."""
    token = _token(endpoint.token_file) if endpoint.token_file else None
    if endpoint.path:
        reader, writer = await asyncio.wait_for(
            _greet_unix(endpoint.path, token, greet, line_limit), CONNECT_TIMEOUT_S
        )
    else:
        opening = asyncio.open_connection(endpoint.host, endpoint.port, limit=line_limit)
        reader, writer = await asyncio.wait_for(opening, CONNECT_TIMEOUT_S)
        writer.write(greet(token, False)[0])
    try:
        try:
            line = await asyncio.wait_for(reader.readline(), WELCOME_TIMEOUT_S)
        except TimeoutError:
            raise Refused(f"no welcome within {WELCOME_TIMEOUT_S:g} s") from None
        _check_welcome(line)
    except BaseException:
        writer.close()
        raise
    return Link(reader, writer, took_pipes=takes_pipes(line))


async def _greet_unix(
    path: Path, token: str | None, greet: Greet, line_limit: int
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect and greet on a socket of our own, so descriptors can go with the greeting (a
    stream's transport has no way to send them)."""
    check_socket_file(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        await loop.sock_connect(sock, str(path))
        check_listener(sock)
        line, fds = greet(token, True)
        sent = socket.send_fds(sock, [line], fds) if fds else 0
        await loop.sock_sendall(sock, line[sent:])
        return await asyncio.open_unix_connection(sock=sock, limit=line_limit)
    except BaseException:
        sock.close()
        raise


def _token(path: Path) -> str:
    # Read at every attempt, so an inspector restarted with a new token is found again.
    try:
        return read_token(path)
    except (OSError, ValueError) as exc:
        raise Refused(f"cannot read the token file: {exc}") from None


def _check_welcome(line: bytes) -> None:
    why = refusal(line)
    if why is not None:
        raise Refused(why)
