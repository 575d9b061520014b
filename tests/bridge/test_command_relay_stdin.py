"""The command relay's stdin: a host that never closes it, or writes far more than an event,
gets the answer of an absent hook by the deadline, with one line saying why."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.relay.command_stdin import STDIN_LIMIT
from tests.support.command_relay import RELAY_ENV, host_environ

# A bound on waiting, not a speed claim: the relay answers within its --timeout of 1 s, and a
# relay that waits for stdin to close never answers at all while the test holds it open.
WAIT_BOUND_S = 8
MEMORY_BOUND = 64 * 1024 * 1024  # the relay's peak resident memory with an event refused
STREAMED = 20 * STDIN_LIMIT


@pytest.fixture
def socket_path() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="cmdstdin-", dir="/tmp"))
    yield folder / "inspector" / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


# Runs a command as its child and writes the child's peak resident memory (bytes) to a file.
# A child forked by the test process itself would report the test process's size as its own
# (the kernel keeps the high-water mark of the memory a process had before exec), and pytest
# grows to hundreds of MB over the suite; this small parent keeps the figure the relay's own.
PEAK_OF_CHILD = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(str(usage.ru_maxrss * 1024))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def start_relay(socket_path: Path, peak_file: Path | None = None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "inspector", "relay", "--host", "claude"]
    command += ["--socket", str(socket_path), "--timeout", "1"]
    if peak_file is not None:
        command = [sys.executable, "-c", PEAK_OF_CHILD, str(peak_file), *command]
    return subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**host_environ(), **RELAY_ENV},
    )


def wait_bounded(relay: subprocess.Popen[bytes]) -> int:
    """The relay's exit code, polled for up to WAIT_BOUND_S; a relay still running then is
    killed and the test fails."""
    deadline = time.monotonic() + WAIT_BOUND_S
    while time.monotonic() < deadline:
        code = relay.poll()
        if code is not None:
            return code
        time.sleep(0.05)  # polling a child that has no event to wait on
    relay.kill()
    relay.wait()
    pytest.fail(f"the relay was still running {WAIT_BOUND_S} s after it started")


def test_stdin_held_open_gets_the_absent_hooks_answer_by_the_deadline(socket_path: Path) -> None:
    relay = start_relay(socket_path)
    assert relay.stdin is not None and relay.stdout is not None and relay.stderr is not None
    relay.stdin.write(b'{"hook_event_name":"PreToolUse",')  # the host writes, then stalls
    relay.stdin.flush()
    try:
        code = wait_bounded(relay)
        stdout, stderr = relay.stdout.read(), relay.stderr.read().decode()
    finally:
        relay.stdin.close()
    assert (stdout, code) == (b"", 0)
    assert stderr.count("\n") == 1
    assert "stdin did not end" in stderr and "as if this hook were absent" in stderr


def test_stdin_over_the_limit_is_refused_before_it_is_all_read(
    socket_path: Path, tmp_path: Path
) -> None:
    peak_file = tmp_path / "peak"
    relay = start_relay(socket_path, peak_file)
    assert relay.stdin is not None and relay.stdout is not None and relay.stderr is not None
    head = b'{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"'
    written = threading.Event()

    def host_writes() -> None:
        stdin = relay.stdin
        assert stdin is not None
        try:
            stdin.write(head)
            chunk = b"x" * (1 << 20)
            for _ in range(STREAMED // len(chunk)):
                stdin.write(chunk)
            stdin.close()
            written.set()
        except BrokenPipeError:  # the relay stopped reading: what it should do
            pass

    writer = threading.Thread(target=host_writes, daemon=True)
    writer.start()
    code = wait_bounded(relay)
    writer.join(WAIT_BOUND_S)
    stdout, stderr = relay.stdout.read(), relay.stderr.read().decode()
    assert (stdout, code) == (b"", 0)
    assert not written.is_set()  # the relay exited long before the host was done
    assert int(peak_file.read_text()) < MEMORY_BOUND
    assert stderr.count("\n") == 1
    assert f"the event on stdin is over {STDIN_LIMIT >> 20} MiB" in stderr
    assert "as if this hook were absent" in stderr and "Broken pipe" not in stderr
