"""Refused TCP connections cost one record per run, not one per connection (issue 16)."""

from __future__ import annotations

import asyncio
import json

from inspector.bridge.listener import ListenOptions, listen_for_relays, parse_listen
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.journal.records import Lifecycle
from inspector.relay import wire

REFUSALS = 40


async def refused_welcome(port: int, name: str, token: str | None) -> dict[str, object]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(wire.greeting(name, token, dict(wire.DEFAULT_DEADLINES_MS)))
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
    assert all(w == {"hook_inspector": 1, "ok": False, "error": "wrong token"} for w in welcomes)
    assert [r.hook for r in refused] == ["intruder-0", "careless"]
    first, other = (r.detail for r in refused)
    assert first.startswith("wrong token (from 127.0.0.1:")
    assert f"; {REFUSALS} times in a row, the last from 127.0.0.1:" in first
    assert other.startswith("a token is required (from 127.0.0.1:") and "times" not in other
    assert total < 10
