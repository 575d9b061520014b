"""Runtime events absorbed live: the journal alone, the journal with the UI up, and delivery to
a real observer. Each figure is microseconds per event (lower is better), events/s in its note.

- journal: `Pipeline.emit_event` with no observer, against appending one plain dict per event
  to a list. Both take turns in chunks (ABBA), so load falls on both alike.
- ui: the same `emit_event` from an async producer that yields to the loop every 50 events,
  while the headless UI (exchange list, event stream following its tail) runs. Baseline: the
  same producer into a second pipeline whose journal nobody watches, taking turns with the first
  in the same app. After each turn into the UI, the event stream must catch up (its index holds
  every event of the journal): the CPU time that takes is charged to the UI side (the wait for
  its next 50 ms refresh is not), and the slowest catch-up in wall time is in the note.
  Target: >= 20,000 events/s, that is <= 50 us per event.
- observer: `emit_event` with tests/bench/echo_hook.py observing "*", in batches the size of
  PicoClaw's observer queue (so none is dropped), until every event was written to the hook.
  Baseline: a bare asyncio client writing the same notification lines to its own copy of the hook.

The input events are frozen out of the garbage collector (`gc.freeze`) and a full collection
runs, untimed, before every turn, so each side pays for the collections its own garbage causes;
otherwise a collection of the whole heap lands on whichever side happens to trigger it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from inspector.config.model import Config, Defaults, HookSpec
from inspector.engine import Engine
from inspector.hosts.picoclaw.chain import OBSERVER_QUEUE, Pipeline
from inspector.journal.journal import Journal
from inspector.journal.records import Event
from inspector.jsonrpc.stages import RUNTIME_EVENT
from inspector.tui.app import InspectorApp, Session
from inspector.tui.widgets.event_stream import EventStream

from . import Row, row
from .filter_speed import make_event
from .roundtrip import HOOK_COMMAND, BareClient

JSONObject = dict[str, Any]
Producer = Callable[[Sequence[JSONObject]], Awaitable[None]]

SOURCE = "bench"
TARGET_RATE = 20_000  # events/s with the UI live
LIMIT_US = 1e6 / TARGET_RATE
YIELD_EVERY = 50  # a live source (a socket, a relay) hands the loop back this often at least
TURNS = 8  # per side, in ABBA order
SIZE = (160, 48)
CATCH_UP_TIMEOUT_S = 30.0


def envelopes(count: int) -> list[JSONObject]:
    """Realistic runtime event envelopes (tool and LLM events, about 400 B each as JSON)."""
    rng = random.Random(11)
    return [make_event(rng, seq).payload for seq in range(1, count + 1)]


def chunks(events: Sequence[JSONObject], turns: int) -> list[Sequence[JSONObject]]:
    size = -(-len(events) // turns)
    return [events[start : start + size] for start in range(0, len(events), size)]


async def take_turns(
    events: Sequence[JSONObject],
    baseline: Producer,
    measured: Producer,
    settle: Callable[[], Awaitable[float]] | None = None,
) -> tuple[float, float]:
    """Microseconds per event of each side; every event goes through each side once, in
    alternating chunks. After each measured chunk, `settle` runs and says how many more seconds
    to charge to it."""
    spent = [0.0, 0.0]
    sides = ((0, baseline), (1, measured))
    for turn, chunk in enumerate(chunks(events, TURNS)):
        for side, produce in sides if turn % 2 == 0 else sides[::-1]:
            gc.collect()  # each turn pays for the collections its own garbage causes
            started = time.perf_counter()
            await produce(chunk)
            spent[side] += time.perf_counter() - started
            if side == 1 and settle is not None:
                spent[side] += await settle()
    return spent[0] / len(events) * 1e6, spent[1] / len(events) * 1e6


def quiet_pipeline() -> Pipeline:
    """A pipeline with no hook, so no observer: emit_event only journals."""
    return Pipeline(Journal(), Defaults(), tuple)


def emitting(pipeline: Pipeline, yield_every: int = 0) -> Producer:
    async def produce(events: Sequence[JSONObject]) -> None:
        for index, event in enumerate(events, 1):
            await pipeline.emit_event(event, source=SOURCE)
            if yield_every and index % yield_every == 0:
                await asyncio.sleep(0)

    return produce


async def journal_alone(events: Sequence[JSONObject]) -> Row:
    sink: list[JSONObject] = []

    async def plain(chunk: Sequence[JSONObject]) -> None:
        for event in chunk:
            sink.append({"kind": event["kind"], "payload": event, "source": SOURCE})

    base, measured = await take_turns(events, plain, emitting(quiet_pipeline()))
    return row(
        "events: emit_event into the journal, no observer, us/event",
        base,
        measured,
        None,
        f"baseline = a plain dict per event appended to a list; {rate(measured)}",
    )


async def with_ui(events: Sequence[JSONObject], settings: Path) -> Row:
    engine = Engine(Config(hooks=()))
    app = InspectorApp(Session(engine, read_only=True, watch=False), settings_path=settings)
    slowest = 0.0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        stream = app.query_one(EventStream)

        async def catch_up() -> float:
            """Wait for the event stream to show every event; the CPU seconds that took."""
            nonlocal slowest
            started, cpu = time.perf_counter(), time.process_time()
            while len(stream.rows) < len(engine.journal):
                if time.perf_counter() - started > CATCH_UP_TIMEOUT_S:
                    raise RuntimeError(
                        f"the event stream shows {len(stream.rows):,} of "
                        f"{len(engine.journal):,} events after {CATCH_UP_TIMEOUT_S:.0f} s"
                    )
                await asyncio.sleep(0.002)
            slowest = max(slowest, time.perf_counter() - started)
            return time.process_time() - cpu

        base, measured = await take_turns(
            events,
            emitting(quiet_pipeline(), YIELD_EVERY),
            emitting(engine.runtime.pipeline, YIELD_EVERY),
            catch_up,
        )
        shown = len(stream.rows)
    verdict = "met" if measured <= LIMIT_US else "missed"
    return row(
        "events: emit_event with the UI live, us/event",
        base,
        measured,
        None,
        f"baseline = the same producer into a journal nobody watches, in the same app; "
        f"{rate(measured)} (target >= {TARGET_RATE:,}/s: {verdict}); the event stream showed "
        f"all {shown:,} at most {slowest * 1000:.0f} ms after each burst",
        LIMIT_US,
    )


class BareObserver(BareClient):
    """The least a host must do to feed an observer: one notification line per event."""

    async def deliver(self, events: Sequence[JSONObject]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        stdin = self._proc.stdin
        for event in events:
            message = {"jsonrpc": "2.0", "method": RUNTIME_EVENT, "params": event}
            stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            await stdin.drain()


async def with_observer(events: Sequence[JSONObject]) -> Row:
    spec = HookSpec(name="echo", command=HOOK_COMMAND, observe=("*",))
    bare = BareObserver()
    async with Engine(Config(hooks=(spec,))) as engine:
        await bare.start()
        pipeline = engine.runtime.pipeline

        async def emit(chunk: Sequence[JSONObject]) -> None:
            for start in range(0, len(chunk), OBSERVER_QUEUE):
                for event in chunk[start : start + OBSERVER_QUEUE]:
                    await pipeline.emit_event(event, source=SOURCE)
                await pipeline.drain_events()

        try:
            base, measured = await take_turns(events, bare.deliver, emit)
        finally:
            await bare.stop()
        delivered = sum("echo" in event.delivered for event in engine.journal.of_type(Event))
    return row(
        'events: delivered to an observer of "*", us/event',
        base,
        measured,
        None,
        f"baseline = a bare client writing the same lines to the same hook; {rate(measured)}; "
        f"{delivered:,} of {len(events):,} delivered",
    )


def rate(us_per_event: float) -> str:
    return f"{1e6 / us_per_event:,.0f} events/s"


async def run_async(quick: bool) -> list[Row]:
    events = envelopes(4_000 if quick else 100_000)
    gc.freeze()  # the input is neither side's garbage: keep it out of their collections
    try:
        with tempfile.TemporaryDirectory() as folder:
            return [
                await journal_alone(events),
                await with_ui(events[: len(events) // 2], Path(folder) / "settings"),
                await with_observer(events[: len(events) // 5]),
            ]
    finally:
        gc.unfreeze()


def run(quick: bool) -> list[Row]:
    return asyncio.run(run_async(quick))
