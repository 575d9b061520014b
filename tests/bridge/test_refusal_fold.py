"""Refused TCP connections cost one record per run, not one per connection (issue 16)."""

from __future__ import annotations

import asyncio
import json

from inspector.bridge.listener import ListenOptions, listen_for_relays, parse_listen
from inspector.bridge.refusals import MAX_REASONS
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.journal.records import Lifecycle
from inspector.relay import wire
from tests.support.relay_proof import relay_proof

REFUSALS = 40
FUTURE = wire.WIRE_VERSION + 1


async def refused_welcome(port: int, name: str, token: str | None) -> dict[str, object]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        proof = await relay_proof(reader, writer, token) if token is not None else None
        writer.write(wire.greeting(name, proof, dict(wire.DEFAULT_DEADLINES_MS)))
        return json.loads(await reader.readline())
    finally:
        writer.close()


def refusals(engine: Engine) -> list[Lifecycle]:
    return [r for r in engine.journal.of_type(Lifecycle) if r.state == "refused"]


async def test_a_flood_of_wrong_tokens_is_one_record_that_counts_them() -> None:
    async def flood() -> tuple[list[dict[str, object]], list[Lifecycle], int]:
        async with Engine(Config(hooks=())) as engine:
            options = ListenOptions(tcp=parse_listen("127.0.0.1:0"), token="s3cret")
            listener = await listen_for_relays(engine, options)
            try:
                port = int(listener.address.rsplit(":", 1)[1])
                welcomes = [
                    await refused_welcome(port, f"intruder-{n}", "guess") for n in range(REFUSALS)
                ]
                await refused_welcome(port, "careless", None)
            finally:
                await listener.close()
            return welcomes, refusals(engine), len(engine.journal)

    welcomes, refused, total = await asyncio.wait_for(flood(), 60)
    wrong = {"hook_inspector": wire.WIRE_VERSION, "ok": False, "error": "wrong token"}
    assert all(w == wrong for w in welcomes)
    assert [r.hook for r in refused] == ["intruder-0", "careless"]
    first, other = (r.detail for r in refused)
    assert first.startswith("wrong token (from 127.0.0.1:")
    assert f"; {REFUSALS} times, the last from 127.0.0.1:" in first
    assert other.startswith("a token is required: the relay must prove it knows it")
    assert "(from 127.0.0.1:" in other and "times" not in other
    assert total < 10


async def test_refusals_that_vary_their_reason_still_cost_a_bounded_number_of_records() -> None:
    async def flood() -> list[Lifecycle]:
        async with Engine(Config(hooks=())) as engine:
            options = ListenOptions(tcp=parse_listen("127.0.0.1:0"), token="s3cret")
            listener = await listen_for_relays(engine, options)
            try:
                port = int(listener.address.rsplit(":", 1)[1])
                for n in range(REFUSALS):
                    await refused_welcome(port, "intruder", None if n % 2 else "guess")
                for version in range(FUTURE, FUTURE + REFUSALS):
                    greeting = {wire.GREETING_KEY: version, "name": "intruder"}
                    await raw_welcome(port, json.dumps(greeting).encode() + b"\n")
            finally:
                await listener.close()
            return refusals(engine)

    refused = await asyncio.wait_for(flood(), 60)
    assert len(refused) == MAX_REASONS + 1
    wrong, missing, *versions, other = (r.detail for r in refused)
    assert f"; {REFUSALS // 2} times, the last from" in wrong
    assert wrong.startswith("wrong token") and missing.startswith("a token is required")
    assert [v.split(";")[0] for v in versions] == [
        f"wire version {n}" for n in range(FUTURE, FUTURE + MAX_REASONS - 2)
    ]
    later = REFUSALS - (MAX_REASONS - 2)
    assert other.startswith(f"{later} refusals for other reasons, the first: wire version ")
    assert f"the last: wire version {FUTURE - 1 + REFUSALS};" in other


async def raw_welcome(port: int, line: bytes) -> dict[str, object]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(line)
        return json.loads(await reader.readline())
    finally:
        writer.close()
