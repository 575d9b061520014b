"""A real hook child over real pipes: handshake, ids, timeouts, crashes, garbage."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import Defaults, HookSpec
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.journal.hook_rows import HookRows
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Lifecycle, Noise, Stderr
from tests.support.fds import needs_proc, open_fds
from tests.support.paths import HOOKS
from tests.support.recorded import recorded_lines
from tests.support.scripted import scripted
from tests.support.waiting import wait_for


def codes(record: Any) -> list[str]:
    return [finding.code for finding in record.findings_list]


def states(journal: Journal, hook: str) -> list[str]:
    return [r.state for r in journal.of_type(Lifecycle) if r.hook == hook]


def restarts(hook: ProcessHook) -> int:
    """How often the hooks panel, folded from the journal, says the hook was restarted."""
    (row,) = HookRows(hook.journal).hooks()
    return row.restarts


async def started(spec: HookSpec, *, restart: bool = False, **timeouts: int) -> ProcessHook:
    hook = ProcessHook(spec, Journal(), Defaults(**timeouts), restart=restart)
    await hook.start()
    return hook


async def test_hello_carries_name_version_and_modes_in_picoclaws_order(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    spec = scripted(
        "gate",
        intercept=("approve_tool", "after_tool", "before_llm"),
        observe=("agent.turn.end",),
        env={"HOOK_RECORD": str(record)},
    )
    hook = await started(spec)
    try:
        assert hook.running
        await hook.call("hook.before_tool", {"tool": "x"}, timeout_ms=2000, source="test")
    finally:
        await hook.stop()
    hello, call = recorded_lines(record)
    assert hello == {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "hook.hello",
        "params": {"name": "gate", "version": 1, "modes": ["observe", "llm", "tool", "approve"]},
    }
    assert call["id"] == 2
    assert states(hook.journal, "gate") == ["starting", "ready", "stopping", "stopped"]


async def test_env_is_added_to_the_inherited_environment_and_dir_is_the_cwd(
    tmp_path: Path,
) -> None:
    spec = HookSpec(
        name="env",
        command=("python3", str(HOOKS / "echo_env.py")),
        dir=str(tmp_path),
        env=(("HOOK_GREETING", "hola"),),
        intercept=("before_tool",),
    )
    hook = await started(spec)
    try:
        exchange = await hook.call(
            "hook.before_tool", {"tool": "t", "arguments": {}}, timeout_ms=2000, source="t"
        )
    finally:
        await hook.stop()
    arguments = exchange.response["result"]["call"]["arguments"]  # type: ignore[index]
    assert arguments["cwd"] == str(tmp_path)
    assert arguments["env"]["HOOK_GREETING"] == "hola"
    assert "PATH" in arguments["env"]


async def test_concurrent_calls_are_matched_by_id_in_any_order() -> None:
    spec = scripted(
        "slow-first",
        {
            "before_tool": [
                {"delay_ms": 400, "result": {"reason": "first"}},
                {"result": {"reason": "second"}},
            ]
        },
        intercept=("before_tool",),
    )
    hook = await started(spec)
    try:
        order: list[str] = []

        async def call(label: str) -> Exchange:
            exchange = await hook.call(
                "hook.before_tool", {"n": label}, timeout_ms=3000, source="t"
            )
            order.append(label)
            return exchange

        first, second = await asyncio.gather(call("a"), call("b"))
    finally:
        await hook.stop()
    assert order == ["b", "a"]
    assert first.response["result"]["reason"] == "first"  # type: ignore[index]
    assert second.response["result"]["reason"] == "second"  # type: ignore[index]
    assert (first.rpc_id, second.rpc_id) == (2, 3)


async def test_a_call_times_out_and_its_late_answer_is_a_finding() -> None:
    spec = scripted("late", {"before_tool": {"delay_ms": 300}}, intercept=("before_tool",))
    hook = await started(spec)
    try:
        exchange = await hook.call("hook.before_tool", {}, timeout_ms=50, source="t")
        assert exchange.status == "timeout"
        assert "50 ms" in (exchange.error or "")
        await wait_for(lambda: any(isinstance(r, Noise) for r in hook.journal.records))
    finally:
        await hook.stop()
    noise = next(hook.journal.of_type(Noise))
    assert codes(noise) == ["late-answer"]
    assert noise.exchange == exchange.seq


@pytest.mark.parametrize(
    ("behaviour", "noise_code"),
    [
        ({"id": "wrong"}, "unknown-id"),
        ({"id": "string"}, "bad-id"),
        ({"id": "zero"}, "no-id"),
        ({"id": "missing"}, "no-id"),
    ],
)
async def test_answers_picoclaw_cannot_match_leave_the_call_to_time_out(
    behaviour: dict[str, Any], noise_code: str
) -> None:
    hook = await started(scripted("ids", {"before_tool": behaviour}, intercept=("before_tool",)))
    try:
        exchange = await hook.call("hook.before_tool", {}, timeout_ms=300, source="t")
    finally:
        await hook.stop()
    assert exchange.status == "timeout"
    assert [codes(noise) for noise in hook.journal.of_type(Noise)] == [[noise_code]]


async def test_a_duplicate_answer_is_a_finding_and_the_first_one_counts() -> None:
    hook = await started(
        scripted("dup", {"before_tool": {"duplicate": True}}, intercept=("before_tool",))
    )
    try:
        exchange = await hook.call("hook.before_tool", {}, timeout_ms=2000, source="t")
        await wait_for(lambda: any(isinstance(r, Noise) for r in hook.journal.records))
    finally:
        await hook.stop()
    assert exchange.status == "ok"
    assert [codes(noise) for noise in hook.journal.of_type(Noise)] == [["duplicate-id"]]


async def test_garbage_and_an_oversized_line_on_stdout_are_findings_not_crashes() -> None:
    script = {"before_tool": {"print_before": "hello from print()", "oversize_before": 1_200_000}}
    hook = await started(scripted("noisy", script, intercept=("before_tool",)))
    try:
        exchange = await hook.call("hook.before_tool", {}, timeout_ms=5000, source="t")
    finally:
        await hook.stop()
    assert exchange.status == "ok"
    noise = list(hook.journal.of_type(Noise))
    assert [codes(n)[0] for n in noise] == ["stdout-not-json", "oversized-line"]
    assert noise[0].line == "hello from print()"
    assert noise[1].size > 1024 * 1024
    assert "stop" in noise[1].findings[0].host_does.lower()


async def test_stderr_is_captured_line_by_line() -> None:
    script = {"before_tool": {"stderr": ["first line", "second line"]}}
    hook = await started(scripted("talky", script, intercept=("before_tool",)))
    try:
        await hook.call("hook.before_tool", {}, timeout_ms=2000, source="t")
        await wait_for(lambda: len(list(hook.journal.of_type(Stderr))) == 2)
    finally:
        await hook.stop()
    assert [r.line for r in hook.journal.of_type(Stderr)] == ["first line", "second line"]


async def test_a_crash_mid_call_fails_the_call_at_once_and_the_hook_restarts() -> None:
    script = {"before_tool": [{"exit": 3}, {"result": {"reason": "back"}}]}
    spec = scripted("crashy", script, intercept=("before_tool",))
    hook = ProcessHook(spec, Journal(), Defaults(), restart=True)
    await hook.start()
    first_pid = hook.pid
    try:
        crashed = await hook.call("hook.before_tool", {}, timeout_ms=5000, source="t")
        assert (crashed.status, crashed.error) == ("exited", "exit status 3")
        assert crashed.duration_ms is not None and crashed.duration_ms < 5000
        await wait_for(lambda: hook.running and hook.pid != first_pid)
    finally:
        await hook.stop()
    assert states(hook.journal, "crashy")[2:5] == ["exited", "restarting", "starting"]
    exited = next(r for r in hook.journal.of_type(Lifecycle) if r.state == "exited")
    assert exited.exit_code == 3 and "never restarts" in exited.picoclaw
    assert restarts(hook) == 1


@needs_proc
async def test_crashes_restarts_and_stop_leave_no_pipe_open() -> None:
    before = open_fds()
    script = {"before_tool": {"exit": 3}}  # every new process crashes on its first call
    hook = ProcessHook(scripted("crashy", script), Journal(), Defaults(), restart=True)
    await hook.start()
    try:
        for _ in range(2):
            pid = hook.pid
            await hook.call("hook.before_tool", {}, timeout_ms=5000, source="t")
            await wait_for(lambda: hook.running and hook.pid != pid)  # noqa: B023
    finally:
        await hook.stop()
    assert restarts(hook) == 2
    await wait_for(lambda: open_fds() <= before)


async def test_a_call_to_a_dead_hook_is_not_sent() -> None:
    hook = await started(scripted("dies", {"before_tool": {"exit": 1}}, intercept=("before_tool",)))
    await hook.call("hook.before_tool", {}, timeout_ms=5000, source="t")
    await wait_for(lambda: not hook.running)
    exchange = await hook.call("hook.before_tool", {}, timeout_ms=5000, source="t")
    await hook.stop()
    assert exchange.status == "not_sent"


@pytest.mark.parametrize(
    ("script", "timeout_ms", "expected"),
    [
        (
            {"hello": {"error": {"code": -1, "message": "nope"}}},
            60_000,  # a hook that answers is never cut short, however slow its start
            "hook.hello error: hook.hello failed: nope",
        ),
        ({"hello": {"result": True}}, 60_000, "hook.hello invalid"),
        ({"hello": {"never": True}}, 200, "no answer to hook.hello within 200 ms"),
    ],
)
async def test_a_failed_handshake_is_a_clear_failure(
    script: dict[str, Any], timeout_ms: int, expected: str
) -> None:
    hook = await started(
        scripted("bad-hello", script, intercept=("before_tool",)), handshake_timeout_ms=timeout_ms
    )
    assert not hook.running
    failed = [r for r in hook.journal.of_type(Lifecycle) if r.state == "failed"]
    assert len(failed) == 1 and expected in failed[0].detail
    assert hook.journal.records[-1].state == "failed"  # type: ignore[attr-defined]


async def test_a_hook_that_crashes_at_start_says_why() -> None:
    spec = HookSpec(
        name="boom",
        command=("python3", str(HOOKS / "crash_at_start.py")),
        intercept=("before_tool",),
    )
    hook = await started(spec)
    await wait_for(lambda: hook.state == "exited")
    exited = next(r for r in hook.journal.of_type(Lifecycle) if r.state == "exited")
    assert exited.exit_code == 3
    assert any(isinstance(r, Stderr) for r in hook.journal.records)


async def test_a_missing_program_is_a_lifecycle_failure_not_a_traceback() -> None:
    spec = HookSpec(name="ghost", command=("/nonexistent/hook",), intercept=("before_tool",))
    hook = await started(spec)
    assert hook.state == "failed"
    assert "cannot start" in hook.journal.records[-1].detail  # type: ignore[attr-defined]


async def test_stop_kills_a_hook_that_ignores_eof() -> None:
    spec = scripted("stubborn", {"on_eof": {"delay_ms": 60_000}}, intercept=("before_tool",))
    hook = await started(spec)
    proc = hook._proc
    await hook.stop()
    assert proc is not None and proc.returncode is not None
    assert hook.state == "stopped"
