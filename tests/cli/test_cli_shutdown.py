"""SIGTERM ends `run` and `check` the way Ctrl-C does: hooks stopped, the journal complete."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_cli import poll, scripted_hook, write_config_with
from tests.support.fds import needs_proc
from tests.support.recorded import recorded_lines

EXIT_TERMINATED = 128 + signal.SIGTERM


def children_of(pid: int) -> list[int]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        # the fields after the command name, which is in parentheses and may hold spaces
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def stubborn_config(tmp_path: Path, received: Path) -> Path:
    """A hook that never answers before_tool and lives on for ten minutes after its stdin
    closes; the interceptor timeout is longer than the test."""
    hook = scripted_hook(
        {"before_tool": {"never": True}, "on_eof": {"delay_ms": 600_000}},
        intercept=["before_tool"],
        env={"HOOK_RECORD": str(received)},
    )
    return write_config_with(tmp_path, {"stubborn": hook}, interceptor_timeout_ms=600_000)


@needs_proc
@pytest.mark.parametrize("command", ["run", "check"])
def test_sigterm_stops_the_hooks_and_completes_the_journal(tmp_path: Path, command: str) -> None:
    received = tmp_path / "received.jsonl"
    journal = tmp_path / "journal.jsonl"
    config = stubborn_config(tmp_path, received)
    args = [str(config)] + (["--journal", str(journal)] if command == "run" else [])
    inspector = subprocess.Popen(
        [sys.executable, "-m", "inspector", command, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    hooks: list[int] = []
    try:
        poll(lambda: received.exists() and "hook.before_tool" in received.read_text())
        hooks = children_of(inspector.pid)
        assert len(hooks) == 1
        inspector.send_signal(signal.SIGTERM)
        _, stderr = inspector.communicate(timeout=60)
        assert inspector.returncode == EXIT_TERMINATED, stderr
        assert "Traceback" not in stderr
        poll(lambda: not alive(hooks[0]))
    finally:
        inspector.kill()
        for pid in hooks:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    if command == "run":
        records = recorded_lines(journal)
        calls = [r for r in records if r.get("method") == "hook.before_tool"]
        assert [call["status"] for call in calls] == ["cancelled"]
        states = [r["state"] for r in records if r["type"] == "lifecycle"]
        assert states[-2:] == ["stopping", "stopped"]
