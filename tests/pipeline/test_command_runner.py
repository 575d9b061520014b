"""One-shot command hooks: stdin, stdout, stderr, exit codes, timeouts that kill the tree."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path

from inspector.hooks.run_command import run_command
from tests.support.waiting import wait_for

PY = sys.executable


async def test_stdin_is_written_and_closed_and_output_kept(tmp_path: Path) -> None:
    script = (
        "import sys, json; data = json.load(sys.stdin); print(json.dumps({'got': data['x']}));"
        "print('log', file=sys.stderr); sys.exit(3)"
    )
    run = await run_command((PY, "-c", script), '{"x": 41}', timeout_s=5)
    assert (run.stdout.strip(), run.stderr.strip(), run.exit_code) == ('{"got": 41}', "log", 3)
    assert not run.timed_out and run.unread_stdin == 0 and not run.ignored_stdin


async def test_a_command_that_never_reads_stdin_is_noticed() -> None:
    run = await run_command((PY, "-c", "print('{}')"), '{"event": "stop"}', timeout_s=5)
    assert run.ok and run.ignored_stdin


async def test_env_is_added_and_cwd_used(tmp_path: Path) -> None:
    script = "import os; print(os.environ['HOOK_X'], os.getcwd(), 'PATH' in os.environ)"
    run = await run_command(
        (PY, "-c", script), "", timeout_s=5, cwd=str(tmp_path), env={"HOOK_X": "y"}
    )
    assert run.stdout.split() == ["y", str(tmp_path), "True"]


async def test_a_timeout_kills_the_whole_process_tree(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    shell = f"sleep 30 & echo $! > {pid_file}; echo partial; wait"
    run = await run_command(("sh", "-c", shell), "", timeout_s=0.5)
    assert run.timed_out and run.exit_code is None and run.signal is not None
    assert "partial" in run.stdout
    child = int(pid_file.read_text())
    await wait_for(lambda: is_dead(child), timeout=20)


def is_dead(pid: int) -> bool:
    """Gone, or a zombie: dead, only waiting for its parent to reap it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


async def test_a_missing_program_is_a_spawn_error_not_an_exception() -> None:
    run = await run_command(("/nonexistent/hook",), "{}", timeout_s=1)
    assert run.spawn_error and run.exit_code is None


async def test_a_large_context_is_written_in_full() -> None:
    payload = '{"messages": "' + "x" * 3_000_000 + '"}'
    run = await run_command(
        (PY, "-c", "import sys; print(len(sys.stdin.read()))"), payload, timeout_s=10
    )
    assert run.stdout.strip() == str(len(payload))


async def test_a_cancelled_run_kills_its_process_tree(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    running = asyncio.create_task(
        run_command(("sh", "-c", f"echo $$ > {pid_file}; sleep 30"), "", timeout_s=60)
    )
    await wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await running
    await wait_for(lambda: is_dead(int(pid_file.read_text())), timeout=20)


async def test_a_cancel_during_the_spawn_returns_at_once_and_kills_the_tree(
    tmp_path: Path,
) -> None:
    """The cancel lands before the child is fully started; the run must not wait for its life
    (60 s here), and whatever it started must still be killed."""
    pid_file = tmp_path / "pid"
    for passes in range(1, 6):  # land the cancel at each await of the start-up in turn
        pid_file.unlink(missing_ok=True)
        shell = f"sleep 60 & echo $! > {pid_file}; wait"
        running = asyncio.create_task(run_command(("sh", "-c", shell), "", timeout_s=120))
        for _ in range(passes):
            await asyncio.sleep(0)
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(running, timeout=20)  # a hang detector: the child lives 60 s
        assert running.done()
        if pid_file.exists() and pid_file.read_text().strip():
            await wait_for(lambda: is_dead(int(pid_file.read_text())), timeout=20)


async def test_output_and_unread_input_of_a_command_that_never_reads() -> None:
    payload = "y" * 300_000  # more than a pipe holds: the rest waits in our writer
    run = await run_command((PY, "-c", "print('done')"), payload, timeout_s=10)
    assert run.stdout.strip() == "done" and run.ignored_stdin


async def test_a_lone_surrogate_in_the_context_reaches_the_command_as_its_json_escape() -> None:
    script = "import sys, json; print(json.dumps({'got': json.load(sys.stdin)['x']}))"
    run = await run_command(
        (PY, "-c", script), json.dumps({"x": "a\ud800b"}, ensure_ascii=False), timeout_s=5
    )
    assert json.loads(run.stdout) == {"got": "a\ud800b"} and not run.ignored_stdin
