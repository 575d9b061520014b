"""Hooks that fail in every way we could think of, beside a healthy one: the inspector must keep
running, keep the healthy hook working, say what happened, keep every line, and stop in time."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import Defaults, HookSpec
from inspector.engine import Engine
from inspector.hosts.picoclaw import process
from inspector.hosts.picoclaw.process import CLOSE_GRACE_S, ProcessHook
from inspector.journal.journal import Journal
from inspector.journal.jsonl import load_journal
from inspector.journal.records import Exchange, Lifecycle, Noise, Record, Stderr
from tests.support.fds import needs_proc, open_fds
from tests.support.paths import HOOKS
from tests.support.scripted import config_of, scripted
from tests.support.waiting import wait_for, wait_for_count

FAULTY = HOOKS / "faulty.py"
INTERCEPTS = ("before_tool", "approve_tool")
CALL = {"tool": "exec", "arguments": {"command": "ls"}}
START_BOUND_S = 10.0
STOP_BOUND_S = 4.0  # PicoClaw's 2 s close grace before the kill, and some room
# A hook that floods before it answers: what it sends is checked, not how fast; the default 5 s
# ran out on a loaded machine with the suite running on every core.
FLOOD_TIMEOUT = {"interceptor_timeout_ms": 60_000}


def faulty(*argv: str) -> HookSpec:
    return HookSpec(
        name="faulty", command=(sys.executable, str(FAULTY), *argv), intercept=INTERCEPTS
    )


def misbehaving(script: dict[str, Any]) -> HookSpec:
    return scripted("faulty", script, intercept=INTERCEPTS)


class Bench:
    """An engine running the faulty hook beside a healthy one, its journal streamed to a file,
    and a probe calling the healthy hook over and over for as long as the bench runs."""

    def __init__(self, engine: Engine, path: Path) -> None:
        self.engine = engine
        self.path = path
        self.probes: list[Exchange] = []
        self.stopped = False
        self._probe: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await asyncio.wait_for(self.engine.start(), START_BOUND_S)
        self._probe = asyncio.create_task(self._probe_healthy())

    async def call(self, method: str = "hook.before_tool", params: Any = CALL) -> Exchange:
        return await self.engine.send_to_hook("faulty", method, params)

    @property
    def timeout_ms(self) -> int:
        """A call's timeout: one that ran into it waited for something, not just on a busy
        machine (timings themselves are for tests/bench)."""
        return self.engine.config.defaults.interceptor_timeout_ms

    def of_faulty(self, cls: type[Record]) -> list[Any]:
        return [r for r in self.engine.journal.of_type(cls) if getattr(r, "hook", "") == "faulty"]

    def states(self) -> list[str]:
        return [lifecycle.state for lifecycle in self.of_faulty(Lifecycle)]

    async def finish(self) -> Journal:
        """Stop everything in bounded time; the journal file must hold every record."""
        seen = len(self.probes)
        await wait_for(lambda: len(self.probes) > seen)  # the healthy hook answers after the fault
        await self.stop()
        assert all(probe.status == "ok" for probe in self.probes)
        # a healthy call that took a call's timeout was stuck behind the faulty hook
        slowest = max(probe.duration_ms or 0.0 for probe in self.probes)
        assert slowest < self.timeout_ms, f"a healthy call waited {slowest:.0f} ms"
        loaded = load_journal(self.path)
        assert [r.to_json() for r in loaded.records] == [
            r.to_json() for r in self.engine.journal.records
        ]
        return loaded

    async def stop(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe
        if not self.stopped:
            self.stopped = True
            await asyncio.wait_for(self.engine.stop(), STOP_BOUND_S)

    async def _probe_healthy(self) -> None:
        while True:
            self.probes.append(
                await self.engine.send_to_hook("healthy", "hook.before_tool", CALL, source="probe")
            )
            await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def bench(tmp_path: Path, spec: HookSpec, **timeouts: int) -> AsyncIterator[Bench]:
    healthy = scripted("healthy", {"before_tool": {"echo": "continue"}}, intercept=INTERCEPTS)
    path = tmp_path / "journal.jsonl"
    engine = Engine(config_of(spec, healthy, **timeouts), journal_path=path)
    run = Bench(engine, path)
    try:
        await run.start()
        yield run
    finally:
        await run.stop()


def codes(record: Any) -> list[str]:
    return [finding.code for finding in record.findings]


def running(pid: int) -> bool:
    """A zombie counts as gone: the process is dead, only nobody has reaped it yet."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# ---- crashes -----------------------------------------------------------------------------


async def test_a_crash_at_hello_fails_the_handshake_and_restarts_keep_failing(
    tmp_path: Path,
) -> None:
    async with bench(tmp_path, misbehaving({"hello": {"exit": 3}})) as run:
        hello = next(e for e in run.of_faulty(Exchange) if e.method == "hook.hello")
        assert (hello.status, hello.error) == ("exited", "exit status 3")
        await wait_for(lambda: run.states().count("starting") >= 2)
        refused = await run.call()
        assert refused.status == "not_sent"
        assert "'faulty' is" in (refused.error or "")
        journal = await run.finish()
    exited = [r for r in journal.of_type(Lifecycle) if r.hook == "faulty" and r.state == "exited"]
    assert exited and exited[0].exit_code == 3 and "never restarts" in exited[0].picoclaw


async def test_a_crash_mid_call_fails_the_call_at_once(tmp_path: Path) -> None:
    async with bench(tmp_path, misbehaving({"before_tool": {"exit": 3}})) as run:
        crashed = await run.call()
        assert (crashed.status, crashed.error) == ("exited", "exit status 3")
        assert crashed.duration_ms is not None and crashed.duration_ms < run.timeout_ms
        await wait_for(lambda: run.states()[-1:] == ["ready"] and "exited" in run.states())
        await run.finish()


async def test_a_crash_between_calls_is_seen_and_the_next_process_answers(tmp_path: Path) -> None:
    async with bench(tmp_path, misbehaving({"before_tool": {"then_exit": 4}})) as run:
        assert (await run.call()).status == "ok"
        await wait_for(lambda: "exited" in run.states() and run.states()[-1] == "ready")
        assert (await run.call()).status == "ok"
        journal = await run.finish()
    exited = next(r for r in journal.of_type(Lifecycle) if r.state == "exited")
    assert (exited.hook, exited.exit_code, exited.detail) == ("faulty", 4, "exit status 4")


async def test_a_forked_child_holding_the_pipes_hides_neither_the_exit_nor_stops_shutdown(
    tmp_path: Path,
) -> None:
    async with bench(tmp_path, faulty("fork-holder")) as run:
        crashed = await run.call()
        assert (crashed.status, crashed.error) == ("exited", "exit status 5")
        assert crashed.duration_ms is not None and crashed.duration_ms < run.timeout_ms
        await wait_for(lambda: run.states()[-1:] == ["ready"])
        assert (await run.call()).status == "exited"  # the restarted process forks again
        await run.finish()
    children = [int(r.line.removeprefix("child ")) for r in run.of_faulty(Stderr)]
    assert len(children) == 2
    await wait_for(lambda: not any(running(child) for child in children), timeout=STOP_BOUND_S)


@needs_proc
async def test_a_grandchild_that_left_the_group_cannot_hold_the_pipes_past_a_stop() -> None:
    """Killing the group misses it, so the inspector stops reading instead, after the grace."""
    before = open_fds()
    hook = ProcessHook(faulty("escape-holder"), Journal(), Defaults(), restart=False)
    assert await hook.start()
    children: list[int] = []
    try:
        crashed = await hook.call("hook.before_tool", CALL, timeout_ms=5000, source="t")
        assert crashed.status == "exited"
        await hook.stop()  # right after the crash: the exit watcher is still draining
        await wait_for(lambda: any(hook.journal.of_type(Stderr)))
        children = [int(r.line.removeprefix("child ")) for r in hook.journal.of_type(Stderr)]
        assert len(children) == 1 and running(children[0])  # it really outlived the group
        await wait_for(lambda: open_fds() <= before, timeout=CLOSE_GRACE_S + STOP_BOUND_S)
    finally:
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)


async def test_a_straggler_from_the_crashed_process_is_not_taken_for_the_new_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ids begin at 1 again after a restart: an old answer must not match a new call."""
    monkeypatch.setattr(process, "CLOSE_GRACE_S", 30.0)  # the old pipes stay read meanwhile
    trigger = tmp_path / "now"
    hook = ProcessHook(faulty("straggler", str(trigger)), Journal(), Defaults(), restart=True)
    assert await hook.start()
    try:
        old_pid = hook.pid
        assert (await hook.call("hook.before_tool", CALL, timeout_ms=5000, source="t")).status == (
            "exited"
        )
        await wait_for(lambda: hook.running and hook.pid != old_pid)
        trigger.touch()  # now that the new process has answered its hello, with id 1 too
        journal = hook.journal
        await wait_for(lambda: any(journal.of_type(Noise)) and any(journal.of_type(Stderr)))
    finally:
        await hook.stop()
    [straggler] = hook.journal.of_type(Noise)
    assert straggler.pid == old_pid and straggler.exchange is None
    assert "from an earlier process" in straggler.findings[0].message  # not "already answered"
    assert [(r.line, r.pid) for r in hook.journal.of_type(Stderr)] == [("straggler", old_pid)]


# ---- silence -----------------------------------------------------------------------------


async def test_a_hook_that_never_answers_times_out_and_shutdown_ends_its_open_calls(
    tmp_path: Path,
) -> None:
    script = {"before_tool": {"never": True}, "approve_tool": {"never": True}}
    async with bench(tmp_path, misbehaving(script), interceptor_timeout_ms=300) as run:
        timed_out = await asyncio.gather(*(run.call() for _ in range(3)))
        assert {(e.status, e.error) for e in timed_out} == {("timeout", "no answer within 300 ms")}
        approval = asyncio.create_task(run.call("hook.approve_tool", CALL))  # 60 s to answer
        await wait_for(lambda: len(run.of_faulty(Exchange)) == 5)
        await run.finish()
        left_open = await asyncio.wait_for(approval, STOP_BOUND_S)
    assert left_open.status in {"exited", "cancelled"}


async def test_a_hook_that_closes_stdout_but_runs_on_says_so_in_its_timeouts(
    tmp_path: Path,
) -> None:
    async with bench(tmp_path, faulty("close-stdout"), interceptor_timeout_ms=300) as run:
        first, second = [await run.call() for _ in range(2)]
        assert run.states()[-1] == "ready"  # still running: PicoClaw would not notice either
        await run.finish()
    for exchange in (first, second):
        assert exchange.status == "timeout"
        assert "closed its stdout" in (exchange.error or "")


# ---- noise -------------------------------------------------------------------------------


async def test_a_stderr_flood_is_kept_line_by_line(tmp_path: Path) -> None:
    lines = 50_000
    async with bench(tmp_path, faulty("flood-stderr", str(lines)), **FLOOD_TIMEOUT) as run:
        assert (await run.call()).status == "ok"
        await wait_for_count(lambda: len(run.of_faulty(Stderr)), lines)
        journal = await run.finish()
    flood = [r.line for r in journal.of_type(Stderr) if r.hook == "faulty"]
    assert flood == [f"flood {n}" for n in range(1, lines + 1)]


def garbage(seed: int) -> bytes:
    """Random bytes (much of it not UTF-8): 3 MiB without a newline, then 300 short lines."""
    rng = random.Random(seed)

    def junk(size: int) -> bytes:
        return rng.randbytes(size).replace(b"\n", b"?")

    return b"".join(
        [junk(3 << 20), b"\n", *(junk(rng.randrange(2000)) + b"\n" for _ in range(300))]
    )


async def test_megabytes_of_garbage_on_stdout_are_noise_line_by_line(tmp_path: Path) -> None:
    printed = garbage(seed=7)
    (tmp_path / "garbage").write_bytes(printed)
    garbage_file = faulty("print-file", str(tmp_path / "garbage"))
    async with bench(tmp_path, garbage_file, **FLOOD_TIMEOUT) as run:
        answered = await run.call()
        assert answered.status == "ok"  # the reader found the answer after all of it
        journal = await run.finish()
    noise = [r for r in journal.of_type(Noise) if r.hook == "faulty"]
    expected = printed.split(b"\n")[:-1]
    assert [(n.line, n.size) for n in noise] == [
        (line.decode("utf-8", errors="replace"), len(line)) for line in expected
    ]
    assert codes(noise[0]) == ["oversized-line", "stdout-not-json"]
    assert all(codes(n) for n in noise)


async def test_a_deeply_nested_json_line_is_noise_not_a_dead_reader(tmp_path: Path) -> None:
    deep = "[" * 50_000
    async with bench(tmp_path, misbehaving({"before_tool": {"print_before": deep}})) as run:
        assert (await run.call()).status == "ok"
        journal = await run.finish()
    (noise,) = [r for r in journal.of_type(Noise) if r.hook == "faulty"]
    assert noise.size == len(deep)
    assert codes(noise) == ["stdout-not-json"]


async def test_a_5_mb_answer_is_read_and_flagged(tmp_path: Path) -> None:
    size = 5_000_000
    async with bench(tmp_path, faulty("huge-answer", str(size))) as run:
        answer = await run.call()
        journal = await run.finish()
    assert answer.status == "ok"
    assert len((answer.raw_response or "").encode()) == size
    assert "oversized-line" in codes(answer)
    assert journal.get(answer.seq).to_json() == answer.to_json()  # type: ignore[union-attr]


# ---- answers PicoClaw cannot use ---------------------------------------------------------


@pytest.mark.parametrize(
    ("behaviour", "status", "noise_code"),
    [
        ({"id": "wrong"}, "timeout", "unknown-id"),
        ({"duplicate": True}, "ok", "duplicate-id"),
        ({"id": "string"}, "timeout", "bad-id"),
        ({"id": 2**64 + 5}, "timeout", "bad-id"),  # Go cannot decode it into a uint64
    ],
)
async def test_answers_with_odd_ids_are_findings(
    tmp_path: Path, behaviour: dict[str, Any], status: str, noise_code: str
) -> None:
    fault = misbehaving({"before_tool": behaviour})
    async with bench(tmp_path, fault, interceptor_timeout_ms=300) as run:
        exchange = await run.call()
        await wait_for(lambda: bool(run.of_faulty(Noise)))
        journal = await run.finish()
    assert exchange.status == status
    (noise,) = [r for r in journal.of_type(Noise) if r.hook == "faulty"]
    assert codes(noise) == [noise_code]


async def test_answers_out_of_order_each_reach_their_own_call(tmp_path: Path) -> None:
    async with bench(tmp_path, faulty("reverse", "3")) as run:
        calls = [asyncio.create_task(run.call()) for _ in range(3)]
        answers = [await call for call in calls]
        await run.finish()
    assert [a.response["result"]["reason"] for a in answers] == ["1", "2", "3"]  # type: ignore[index]


async def test_an_answer_with_a_lone_surrogate_is_journalled_as_sent(tmp_path: Path) -> None:
    fault = misbehaving({"before_tool": {"result": {"action": "continue", "reason": "\ud800!"}}})
    async with bench(tmp_path, fault) as run:
        exchange = await run.call()
        journal = await run.finish()
    assert exchange.status == "ok"
    saved = journal.get(exchange.seq)
    assert isinstance(saved, Exchange) and saved.response is not None
    assert saved.response["result"]["reason"] == "\ud800!"
