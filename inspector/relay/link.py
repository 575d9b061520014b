"""Reaching hook-inspector: connect (Unix socket or TCP), make sure a Unix socket is this user's
inspector's (see trust), greet, and read the welcome."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from inspector.relay.trust import check_listener, check_socket_file
from inspector.relay.wire import read_token, refusal

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


class Refused(Exception):
    """The inspector answered, but not with a welcome; or the token could not be read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def open_link(
    endpoint: Endpoint, greeting: Callable[[str | None], bytes], line_limit: int
) -> Link:
    """Raises OSError or asyncio.TimeoutError when nobody listens, Refused when refused,
    trust.Untrusted (before a byte is sent) when the socket is not this user's."""
    token = _token(endpoint.token_file) if endpoint.token_file else None
    if endpoint.path:
        check_socket_file(endpoint.path)
        opening = asyncio.open_unix_connection(endpoint.path, limit=line_limit)
    else:
        opening = asyncio.open_connection(endpoint.host, endpoint.port, limit=line_limit)
    reader, writer = await asyncio.wait_for(opening, CONNECT_TIMEOUT_S)
    try:
        if endpoint.path:
            check_listener(writer.get_extra_info("socket"))
        writer.write(greeting(token))
        try:
            line = await asyncio.wait_for(reader.readline(), WELCOME_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise Refused(f"no welcome within {WELCOME_TIMEOUT_S:g} s") from None
        _check_welcome(line)
    except BaseException:
        writer.close()
        raise
    return Link(reader, writer)


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
