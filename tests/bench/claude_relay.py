"""Claude Code live: what `hook-inspector relay --host claude` adds to one command-hook run.

Claude Code runs a hook as `/bin/sh -c COMMAND` with the event on stdin, once per event. Baseline:
a small PreToolUse hook run that way directly. Measured: the relay command exactly as `install
claude` writes it (this Python, `-I -S`, the relay's own file, `relay --host claude ...`), which
hands the event to a running `hook-inspector serve` whose config runs that same hook and answers
with its decision. A third series runs the relay with no inspector
listening: the relay's own start (Python and its imports), which is most of what it adds; a
fourth, `python -c pass`, is Python's own start-up, the floor under any Python hook. The
series take turns, so load falls on all alike. Like an installed package (pip compiles it), the
runs use bytecode: serve's is cached in the run's own folder (PYTHONPYCACHEPREFIX), whatever
PYTHONDONTWRITEBYTECODE says; the relay runs isolated (-I ignores PYTHON* variables) and caches
its few modules beside them, in the __pycache__ folders git ignores.
"""

from __future__ import annotations

import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from inspector.hosts.install_relay import relay_command

from . import Row, row

CONSOLE_SCRIPT = Path(sys.executable).parent / "hook-inspector"
TARGET_ADDED_MS = 40.0
RELAY_TIMEOUT_S = 600  # Claude Code's default handler timeout, which install also writes
RUNS, QUICK_RUNS = 200, 5
START_TIMEOUT_S = 60.0
HOOK = """\
cat > /dev/null
printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'
"""
EVENT = {
    "session_id": "0b6f0f7e-2a57-4a0e-9e47-52b0a4d44f7a",
    "transcript_path": "/tmp/transcript.jsonl",
    "cwd": "/tmp",
    "prompt_id": "5d0c3bb2-6f1e-4bb4-9d55-2f3c4a7e1a10",
    "permission_mode": "default",
    "effort": {"level": "medium"},
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "ls -la", "description": "List files"},
    "tool_use_id": "toolu_01",
}
STDIN = json.dumps(EVENT, separators=(",", ":")).encode() + b"\n"


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="bench-claude-", dir="/tmp") as name:
        folder = Path(name)
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        hook = folder / "hook.sh"
        hook.write_text(HOOK)
        direct = f"sh {shlex.quote(str(hook))}"
        socket = folder / "relay.sock"
        relay = relay_command("claude", RELAY_TIMEOUT_S, socket)  # as install writes it
        absent = relay_command("claude", RELAY_TIMEOUT_S, folder / "none")
        with serving(folder, direct, socket, env):
            answer = hook_run(relay, env)
            assert b'"permissionDecision":"allow"' in answer, answer  # the hook really decided
            hook_run(absent, env)  # compiles what only the relay imports
            python = f"{shlex.quote(sys.executable)} -c pass"
            series: dict[str, list[float]] = {direct: [], relay: [], absent: [], python: []}
            for _ in range(QUICK_RUNS if quick else RUNS):
                for command, times in series.items():
                    started = time.perf_counter()
                    hook_run(command, env)
                    times.append((time.perf_counter() - started) * 1000)
    before, after, alone, bare = (statistics.median(times) for times in series.values())
    added = after - before
    verdict = "met" if added < TARGET_ADDED_MS else "missed"
    return [
        row(
            "Claude Code hook run through relay + inspector, median ms",
            before,
            after,
            None,
            f"baseline = the same hook run directly by sh -c; adds {added:.1f} ms (target <"
            f" {TARGET_ADDED_MS:.0f} ms: {verdict}); the relay alone, with no inspector, adds"
            f" {alone - before:.1f} ms, of which {bare - before:.1f} ms is Python's own start-up",
            limit=before + TARGET_ADDED_MS,
        )
    ]


def hook_run(command: str, env: dict[str, str]) -> bytes:
    """One run as Claude Code makes it: sh -c COMMAND, the event on stdin; returns stdout."""
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=STDIN,
        capture_output=True,
        check=True,
        timeout=60,
        env=env,
    )
    return done.stdout


@contextmanager
def serving(
    folder: Path,
    hook_command: str,
    socket: Path,
    env: dict[str, str],
    *,
    host: str = "claude",
    event: str = "PreToolUse",
) -> Iterator[None]:
    """A headless inspector whose config runs `hook_command` as `host`'s hook on `event`."""
    config = folder / "inspector.yaml"
    hook = {"kind": "command", "host": host, "event": event, "command": hook_command}
    config.write_text(json.dumps({"hooks": {"hook": hook}}))
    argv = [str(CONSOLE_SCRIPT), "serve", str(config), "--socket", str(socket), "--json"]
    inspector = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    try:
        give_up = time.monotonic() + START_TIMEOUT_S
        while not socket.is_socket():
            if inspector.poll() is not None or time.monotonic() > give_up:
                raise RuntimeError("hook-inspector serve did not start listening")
            time.sleep(0.05)
        yield
    finally:
        inspector.terminate()
        inspector.wait(timeout=30)
