"""Waiting on a condition with a deadline, never a sleep standing in for an event."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def wait_for(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll until `predicate` holds, failing after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


async def wait_for_count(count: Callable[[], int], target: int, stall: float = 30.0) -> None:
    """Poll until `count()` reaches `target`, failing only when it stops growing for `stall`
    seconds: a loaded machine may be slow, but a stuck one makes no progress at all."""
    loop = asyncio.get_running_loop()
    last, since = count(), loop.time()
    while (now := count()) < target:
        if now != last:
            last, since = now, loop.time()
        elif loop.time() - since > stall:
            raise AssertionError(f"stuck at {now} of {target} for {stall} s")
        await asyncio.sleep(0.01)
