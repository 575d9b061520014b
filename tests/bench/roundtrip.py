"""One request, one answer: the engine's `ProcessHook.call` against a bare asyncio client.

Both sides talk to their own copy of the same echo hook, started side by side. They take turns
in batches (ABBA order), so the noise of a busy machine falls on both alike. The baseline is the
least any host must do: write a JSON line, read a line, parse it. The engine adds its framing,
journal records, stats and conformance findings; the ratio of medians is what they cost.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from inspector.config.model import Defaults, HookSpec
from inspector.hosts.picoclaw import templates
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_OK

from . import Row, row

ECHO_HOOK = Path(__file__).with_name("echo_hook.py")
HOOK_COMMAND = (sys.executable, str(ECHO_HOOK))
STREAM_LIMIT = 2 * 1024 * 1024  # the bare client's StreamReader limit: room for a 1 MB line
MEDIAN_TARGET = 1.2  # engine median / bare median (issue 7)
CALL_TIMEOUT_MS = 30_000  # generous: a timeout here means a broken run, not a slow one
LARGE_CONTENT_BYTES = 1_000_000  # under PicoClaw's 1 MiB line limit with the envelope
LARGE_MESSAGES = 40
MIN_TURNS = 8  # each side takes at least this many turns, even in a quick run
PROSE = (
    "The checkout tests started failing after the discount rules moved into their own module; "
    "the assistant reads the diff, runs the suite again and explains what it found. "
)

JSONObject = dict[str, Any]


class Side(Protocol):
    async def start(self) -> None: ...
    async def roundtrip(self, method: str, params: JSONObject) -> float: ...
    async def stop(self) -> None: ...


class BareClient:
    """A host with no features: one subprocess, one line out, one line in."""

    def __init__(self, command: tuple[str, ...] = HOOK_COMMAND) -> None:
        self.command = command
        self._proc: asyncio.subprocess.Process | None = None
        self._next_id = 0
        self.request_bytes = 0
        self.answer_bytes = 0

    async def start(self) -> None:
        self._proc = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,  # a relay says what it connected to; not here
            limit=STREAM_LIMIT,
        )
        await self.roundtrip("hook.hello", templates.hello_params("bare", ["llm", "tool"]))

    async def roundtrip(self, method: str, params: JSONObject) -> float:
        """Milliseconds from building the line to holding the parsed answer."""
        assert self._proc is not None and self._proc.stdin and self._proc.stdout
        self._next_id += 1
        started = time.perf_counter()
        request = {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params}
        wire = json.dumps(request, separators=(",", ":")).encode() + b"\n"
        self._proc.stdin.write(wire)
        await self._proc.stdin.drain()
        line = await self._proc.stdout.readline()
        answer = json.loads(line)
        elapsed_ms = (time.perf_counter() - started) * 1000
        if answer.get("id") != self._next_id:
            raise RuntimeError(f"bare client: expected id {self._next_id}, got {line[:200]!r}")
        self.request_bytes, self.answer_bytes = len(wire), len(line)
        return elapsed_ms

    async def stop(self) -> None:
        if self._proc is not None and self._proc.stdin is not None:
            self._proc.stdin.close()
            await self._proc.wait()


class EngineClient:
    """The inspector's own hook host, with everything it records and checks."""

    def __init__(self) -> None:
        spec = HookSpec(name="echo", command=HOOK_COMMAND, intercept=("before_tool", "before_llm"))
        self.hook = ProcessHook(spec, Journal(), Defaults(), restart=False)
        self.findings: Counter[str] = Counter()

    async def start(self) -> None:
        if not await self.hook.start():
            raise RuntimeError(f"engine: the echo hook did not start ({self.hook.state})")

    async def roundtrip(self, method: str, params: JSONObject) -> float:
        started = time.perf_counter()
        exchange = await self.hook.call(method, params, timeout_ms=CALL_TIMEOUT_MS, source="bench")
        elapsed_ms = (time.perf_counter() - started) * 1000
        if exchange.status != STATUS_OK:
            raise RuntimeError(f"engine: {method} ended {exchange.status}: {exchange.error}")
        self.findings.update(finding.code for finding in exchange.findings)
        return elapsed_ms

    async def stop(self) -> None:
        await self.hook.stop()


@dataclass(frozen=True, slots=True)
class Payload:
    label: str
    method: str
    params: Callable[[], JSONObject]
    count: int  # measured round trips per side
    quick_count: int
    batch: int  # round trips per side before the other side takes its turn (at most)
    warmup: int


def small_params() -> JSONObject:
    """A before_tool request exactly as PicoClaw sends it (about 670 bytes on the wire)."""
    return templates.template("hook.before_tool")


def large_params() -> JSONObject:
    """A before_llm request whose message contents add up to LARGE_CONTENT_BYTES."""
    params = templates.template("hook.before_llm")
    messages: list[JSONObject] = params["messages"]
    room = LARGE_CONTENT_BYTES - sum(len(m["content"].encode()) for m in messages)
    prose = PROSE * (room // len(PROSE) + 1)
    size, extra = divmod(room, LARGE_MESSAGES)
    for index in range(LARGE_MESSAGES):
        role = "assistant" if index % 2 else "user"
        length = size + (1 if index < extra else 0)
        messages.append(templates.message(role, prose[index : index + length]))
    return params


PAYLOADS = (
    Payload("before_tool", "hook.before_tool", small_params, 2000, 40, 50, 200),
    Payload("before_llm 1 MB", "hook.before_llm", large_params, 60, 8, 3, 6),
)


@dataclass(slots=True)
class Samples:
    """One side's round trips in ms, and the CPU time its process spent on them."""

    ms: list[float] = field(default_factory=list)
    cpu_s: float = 0.0

    async def take(self, side: Side, method: str, params: JSONObject, n: int) -> None:
        cpu = time.process_time()
        self.ms.extend([await side.roundtrip(method, params) for _ in range(n)])
        self.cpu_s += time.process_time() - cpu

    @property
    def cpu_us(self) -> float:
        return self.cpu_s / len(self.ms) * 1e6


async def measure(
    bare: Side, engine: Side, payload: Payload, quick: bool
) -> tuple[Samples, Samples]:
    params = payload.params()
    for _ in range(1 if quick else payload.warmup):
        await bare.roundtrip(payload.method, params)
        await engine.roundtrip(payload.method, params)
    count = payload.quick_count if quick else payload.count
    batch = max(1, min(payload.batch, count // MIN_TURNS))
    order = ((bare, Samples()), (engine, Samples()))
    for turn, done in enumerate(range(0, count, batch)):
        for side, samples in order if turn % 2 == 0 else order[::-1]:
            await samples.take(side, payload.method, params, min(batch, count - done))
    return order[0][1], order[1][1]


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def payload_rows(
    payload: Payload, bare: Samples, engine: Samples, sizes: str, findings: str
) -> list[Row]:
    note = f"{len(engine.ms)} round trips per side; {sizes}{findings}"
    name = f"roundtrip {payload.label}"
    median = statistics.median
    return [
        row(f"{name} median ms", median(bare.ms), median(engine.ms), MEDIAN_TARGET, note),
        row(f"{name} p90 ms", p90(bare.ms), p90(engine.ms), None),
        row(f"{name} host CPU us", bare.cpu_us, engine.cpu_us, None),
    ]


async def run_async(quick: bool) -> list[Row]:
    bare, engine = BareClient(), EngineClient()
    await asyncio.gather(bare.start(), engine.start())
    rows: list[Row] = []
    try:
        for payload in PAYLOADS:
            engine.findings.clear()
            samples = await measure(bare, engine, payload, quick)
            sizes = f"request {bare.request_bytes:,} B, answer {bare.answer_bytes:,} B"
            found = ", ".join(f"{code} x{n}" for code, n in engine.findings.most_common())
            rows += payload_rows(payload, *samples, sizes, f"; findings: {found}" if found else "")
    finally:
        await asyncio.gather(bare.stop(), engine.stop())
    return rows


def run(quick: bool) -> list[Row]:
    return asyncio.run(run_async(quick))
