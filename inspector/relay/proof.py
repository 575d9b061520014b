"""Proving knowledge of the token without sending it, both ways (wire.py shows the exchange).

Each side picks a random nonce; a proof is HMAC-SHA256, keyed with the token, over the role of
the side proving ("inspector" or "relay") and both nonces. The inspector proves first, so a relay
tells a squatter on the port from its inspector before it sends anything of its own: a squatter
learns a nonce and nothing else. The roles differ so neither proof can be replayed as the other,
and the nonces are fresh each time so no proof can be replayed on another connection.

hmac (with OpenSSL behind hashlib) is imported only when a proof is made: a relay with no token,
the default on a Unix socket, does not pay for it at each start."""

from __future__ import annotations

import json
import os

from inspector.relay.trust import Untrusted
from inspector.relay.wire import GREETING_KEY, WELCOME_KEY, WIRE_VERSION

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at every start
if TYPE_CHECKING:
    from typing import TypeGuard

CHALLENGE_KEY = "challenge"
PROOF_KEY = "proof"
NONCE_BYTES = 32
INSPECTOR, RELAY = "inspector", "relay"


class Unproven(Untrusted):
    """Whoever answered did not prove it knows the token: a squatter, or another token."""


class ChallengeRefused(Exception):
    """The inspector refused the challenge (an older one, or one with no token); `reason`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def new_nonce() -> str:
    return os.urandom(NONCE_BYTES).hex()


def proof(token: str, role: str, relay_nonce: str, inspector_nonce: str) -> str:
    import hmac

    message = f"hook-inspector {WIRE_VERSION} {role} {relay_nonce} {inspector_nonce}"
    return hmac.new(token.encode(), message.encode(), "sha256").hexdigest()


def matches(given: object, expected: str) -> bool:
    import hmac

    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())


def is_nonce(value: object) -> TypeGuard[str]:
    """A nonce as the other side may send it: hex, long enough to be fresh, short enough."""
    if not isinstance(value, str) or not 32 <= len(value) <= 128:
        return False
    return all(c in "0123456789abcdef" for c in value)


def challenge(nonce: str) -> bytes:
    """The relay's first line when it has a token: its nonce, and nothing of its own."""
    return json.dumps({GREETING_KEY: WIRE_VERSION, CHALLENGE_KEY: nonce}).encode() + b"\n"


def answer(relay_nonce: str, inspector_nonce: str, token: str) -> bytes:
    """The inspector's reply to a challenge: its nonce and its proof."""
    message = {
        WELCOME_KEY: WIRE_VERSION,
        CHALLENGE_KEY: inspector_nonce,
        PROOF_KEY: proof(token, INSPECTOR, relay_nonce, inspector_nonce),
    }
    return json.dumps(message).encode() + b"\n"


def relay_proof(reply: bytes, token: str, relay_nonce: str) -> str:
    """The relay's proof for its greeting, from the inspector's reply to its challenge, once that
    reply proves the inspector knows the token (ChallengeRefused, Unproven: see inspector_nonce)."""
    return proof(token, RELAY, relay_nonce, inspector_nonce(reply, token, relay_nonce))


def inspector_nonce(reply: bytes, token: str, relay_nonce: str) -> str:
    """The inspector's nonce from its reply to our challenge, once the reply proves it knows
    the token. Raises ChallengeRefused for a refusal, Unproven for anything else."""
    try:
        message = json.loads(reply)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict) or WELCOME_KEY not in message:
        raise Unproven(f"whoever listens there is not a hook-inspector: {reply[:120]!r}")
    if message.get("ok") is False:
        raise ChallengeRefused(str(message.get("error") or "refused without a reason"))
    nonce = message.get(CHALLENGE_KEY)
    if is_nonce(nonce) and matches(
        message.get(PROOF_KEY), proof(token, INSPECTOR, relay_nonce, nonce)
    ):
        return nonce
    raise Unproven(
        "whoever listens there did not prove it knows the token"
        " (a squatter on the port, or an inspector with another token)"
    )
