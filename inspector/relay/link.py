"""Reaching hook-inspector: connect (Unix socket or TCP), make sure a Unix socket is this user's
inspector's (see trust) and that whoever listens knows the token (see proof), greet, and read
the welcome."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from inspector.relay import proof
from inspector.relay.trust import check_listener, check_socket_file
from inspector.relay.wire import read_token, refusal, takes_pipes

CONNECT_TIMEOUT_S = 1.0
WELCOME_TIMEOUT_S = 1.0
REPLY_LIMIT = 4096  # the inspector's answer to a challenge is about 200 bytes


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
    took_pipes: bool = False  # the inspector took the agent's stdin offered with the greeting


# The greeting for the relay's proof (None without a token), and the descriptors to send with
# it (Unix only).
Greet = Callable[[str | None, bool], tuple[bytes, list[int]]]


class Refused(Exception):
    """The inspector answered, but not with a welcome; or the token could not be read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def open_link(endpoint: Endpoint, greet: Greet, line_limit: int) -> Link:
    """Raises OSError or asyncio.TimeoutError when nobody listens, Refused when refused,
    trust.Untrusted (before a byte of the relay's own is sent) when the socket is not this
    user's or whoever listens does not prove it knows the token (proof.Unproven). `greet` is
    asked for the greeting only once the other side is trusted; over a Unix socket it may send
    the agent's stdin with it."""
    token = _token(endpoint.token_file) if endpoint.token_file else None
    sock = await asyncio.wait_for(_connect(endpoint), CONNECT_TIMEOUT_S)
    try:
        relay_proof = await _prove(sock, token) if token is not None else None
        loop = asyncio.get_running_loop()
        line, fds = greet(relay_proof, endpoint.path is not None)
        sent = socket.send_fds(sock, [line], fds) if fds else 0
        await loop.sock_sendall(sock, line[sent:])
        reader, writer = await asyncio.open_connection(sock=sock, limit=line_limit)
    except BaseException:
        sock.close()
        raise
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


async def _connect(endpoint: Endpoint) -> socket.socket:
    """A connected socket of our own, so descriptors can go with the greeting (a stream's
    transport has no way to send them) and the proof comes before any stream is made. A Unix
    socket is checked before connecting and its listener after."""
    loop = asyncio.get_running_loop()
    if endpoint.path is None:
        return await _connect_tcp(endpoint.host, endpoint.port)
    check_socket_file(endpoint.path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.setblocking(False)
        await loop.sock_connect(sock, str(endpoint.path))
        check_listener(sock)
    except BaseException:
        sock.close()
        raise
    return sock


async def _connect_tcp(host: str, port: int) -> socket.socket:
    loop = asyncio.get_running_loop()
    addresses = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    failure: OSError = OSError(f"{host} has no address")
    for family, kind, protocol, _name, address in addresses:
        sock = socket.socket(family, kind, protocol)
        try:
            sock.setblocking(False)
            await loop.sock_connect(sock, address)
        except OSError as error:
            sock.close()
            failure = error
            continue
        except BaseException:
            sock.close()
            raise
        return sock
    raise failure


async def _prove(sock: socket.socket, token: str) -> str:
    """The relay's proof for its greeting, once the inspector proved it knows the token."""
    nonce = proof.new_nonce()
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(sock, proof.challenge(nonce))
    try:
        reply = await asyncio.wait_for(_reply(sock), WELCOME_TIMEOUT_S)
    except TimeoutError:
        raise Refused(f"no answer to its challenge within {WELCOME_TIMEOUT_S:g} s") from None
    try:
        return proof.relay_proof(reply, token, nonce)
    except proof.ChallengeRefused as refusal:
        raise Refused(refusal.reason) from None


async def _reply(sock: socket.socket) -> bytes:
    """The inspector's one line in answer to the challenge; it sends nothing more before the
    greeting, so reading past it loses nothing."""
    loop = asyncio.get_running_loop()
    data = b""
    while b"\n" not in data and len(data) <= REPLY_LIMIT:
        chunk = await loop.sock_recv(sock, REPLY_LIMIT)
        if not chunk:
            break
        data += chunk
    return data


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
