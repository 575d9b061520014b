"""A test client's side of the proof (inspector/relay/proof.py), for stand-ins that greet an
inspector by hand."""

from __future__ import annotations

import asyncio
import json

from inspector.relay import proof


async def relay_proof(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: str
) -> str:
    """Send a challenge and return the proof a relay holding `token` greets with. It does not
    check the inspector's proof, so a stand-in with a wrong token still greets and is refused."""
    nonce = proof.new_nonce()
    writer.write(proof.challenge(nonce))
    reply = json.loads(await reader.readline())
    return proof.proof(token, proof.RELAY, nonce, reply[proof.CHALLENGE_KEY])


async def inspector_proof(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: str
) -> str:
    """The inspector's side: answer the relay's challenge (the first line) with a proof, and
    return the proof the relay's greeting must carry."""
    relay_nonce = json.loads(await reader.readline())[proof.CHALLENGE_KEY]
    ours = proof.new_nonce()
    writer.write(proof.answer(relay_nonce, ours, token))
    return proof.proof(token, proof.RELAY, relay_nonce, ours)
