"""The inspector's side of the proof (relay/proof.py, wire.py): a relay with a token first sends
a challenge; an inspector with the token answers it with its own nonce and proof, then reads the
greeting, which must carry the relay's proof over both nonces. Descriptors (the agent's stdin)
come with the greeting, so both lines are read from the socket itself."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from inspector.bridge.greeting import wrong_version
from inspector.bridge.greeting_line import FirstLine
from inspector.relay import proof
from inspector.relay.wire import GREETING_KEY

# How the listener reads a line from the socket: the line, or why there is none.
ReadLine = Callable[[socket.socket], Awaitable[tuple[FirstLine, "str | None"]]]
HUNG_UP = "it hung up after the inspector's proof (a relay with another token, or a probe)"


async def greeting_line(
    conn: socket.socket, token: str | None, read_line: ReadLine
) -> tuple[FirstLine, str | None, str | None]:
    """The greeting line (with its descriptors), why there is none, and the proof it must carry
    (None when the inspector has no token; "" when the relay sent no challenge)."""
    first, problem = await read_line(conn)
    challenge = _challenge(first.line) if problem is None else None
    if challenge is None:
        return first, problem, None if token is None else ""
    first.close_fds()  # descriptors come with the greeting, not with the challenge
    why = _unanswerable(challenge, token, first.rest)
    if why is not None:
        return FirstLine(b""), why, None
    assert token is not None
    relay_nonce, ours = str(challenge[proof.CHALLENGE_KEY]), proof.new_nonce()
    await asyncio.get_running_loop().sock_sendall(conn, proof.answer(relay_nonce, ours, token))
    greeting, problem = await read_line(conn)
    if problem is None and not greeting.line:
        problem = HUNG_UP
    return greeting, problem, proof.proof(token, proof.RELAY, relay_nonce, ours)


def _challenge(line: bytes) -> dict[str, Any] | None:
    """The relay's challenge in `line`; None for any other line (a greeting)."""
    if proof.CHALLENGE_KEY.encode() not in line:
        return None  # a greeting: no need to read it twice
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or proof.CHALLENGE_KEY not in message:
        return None
    return message


def _unanswerable(challenge: dict[str, Any], token: str | None, rest: bytes) -> str | None:
    wrong = wrong_version(challenge.get(GREETING_KEY))
    if wrong is not None:
        return wrong
    if token is None:
        return "this inspector has no token to prove: connect without a token file"
    if not proof.is_nonce(challenge[proof.CHALLENGE_KEY]):
        return "the challenge is not a nonce (hex, 32 to 128 digits)"
    if rest:
        return "it sent more before the inspector's proof"
    return None
