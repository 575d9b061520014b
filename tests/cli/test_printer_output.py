"""The headless printers' output side, through real pipes: a reader that leaves, a reader that
never reads, and text UTF-8 cannot hold."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import re
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from inspector.cli import printer
from inspector.cli.output import BackgroundOutput
from inspector.journal.journal import Journal
from inspector.journal.records import Stderr
from tests.cli.test_cli import hook_inspector, poll, scripted_hook, write_config_with
from tests.support.recorded import recorded_lines
from tests.support.waiting import wait_for

RECORD_ROW = re.compile(r" *\d+\.\d{3}s ")  # a record's first line starts with its time
STALL_LINES = 600
STALL_LINE = "chatter " + "x" * 190


def start(*args: str, stderr: IO[bytes]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "inspector", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=stderr,
    )


def finish(inspector: subprocess.Popen[bytes]) -> int:
    """The exit status, within a generous deadline (a hang fails the test, not the suite)."""
    try:
        poll(lambda: inspector.poll() is not None)
    finally:
        inspector.kill()
    return inspector.wait()


def slow_hello_config(tmp_path: Path) -> Path:
    """Records keep coming after the reader's first lines: the handshake takes a second."""
    hook = scripted_hook({"hello": {"delay_ms": 1000}}, intercept=["before_tool", "after_tool"])
    return write_config_with(tmp_path, {"slow": hook})


def assert_complete(journal: Path) -> None:
    records = recorded_lines(journal)
    calls = [r for r in records if r["type"] == "exchange" and r["method"] == "hook.after_tool"]
    assert calls and all(call["status"] == "ok" for call in calls)
    assert [r["state"] for r in records if r["type"] == "lifecycle"][-1] == "stopped"


@pytest.mark.parametrize(("output", "read_lines"), [(["--json"], 1), ([], 5)])
def test_a_reader_that_closes_the_pipe_ends_the_printing_quietly(
    tmp_path: Path, output: list[str], read_lines: int
) -> None:
    journal = tmp_path / "journal.jsonl"
    errors = tmp_path / "stderr.txt"
    config = slow_hello_config(tmp_path)
    with errors.open("wb") as stderr:
        inspector = start("run", str(config), "--journal", str(journal), *output, stderr=stderr)
        assert inspector.stdout is not None
        for _ in range(read_lines):
            assert inspector.stdout.readline()
        inspector.stdout.close()
        status = finish(inspector)
    assert "Traceback" not in errors.read_text(), errors.read_text()
    assert status == 0
    assert_complete(journal)


def chatty_config(tmp_path: Path) -> Path:
    chatty = scripted_hook(
        {"hello": {"stderr": [STALL_LINE] * STALL_LINES}}, intercept=["before_tool", "after_tool"]
    )
    return write_config_with(tmp_path, {"chatty": chatty})


def test_hook_calls_finish_while_nobody_reads_the_output(tmp_path: Path) -> None:
    config = chatty_config(tmp_path)
    journal = tmp_path / "journal.jsonl"
    with (tmp_path / "stderr.txt").open("wb") as stderr:
        inspector = start("run", str(config), "--journal", str(journal), stderr=stderr)
        assert inspector.stdout is not None
        try:
            # the chatter alone is more than the pipe holds: printing it stalls until read
            assert fcntl.fcntl(inspector.stdout, fcntl.F_GETPIPE_SZ) < STALL_LINES * 190

            def calls_finished() -> bool:
                if not journal.exists():
                    return False
                records = recorded_lines(journal)
                after = [r for r in records if r.get("method") == "hook.after_tool"]
                return len(after) == 3 and all(r["status"] == "ok" for r in after)

            poll(calls_finished)
            printed = inspector.stdout.read().decode()
        finally:
            inspector.kill()
        assert inspector.wait() == 0
    assert printed.count("chatty stderr chatter xxx") == STALL_LINES
    assert printed.count("hook.after_tool") == 3


def test_sigterm_ends_a_run_left_waiting_for_a_stalled_reader(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    with (tmp_path / "stderr.txt").open("wb") as stderr:
        inspector = start(
            "run", str(chatty_config(tmp_path)), "--journal", str(journal), stderr=stderr
        )
        try:
            poll(lambda: journal.exists() and '"stopped"' in journal.read_text())
            inspector.send_signal(signal.SIGTERM)
            status = finish(inspector)
        finally:
            assert inspector.stdout is not None
            inspector.stdout.close()
    assert status == 128 + signal.SIGTERM
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


def lone_surrogate_config(tmp_path: Path) -> Path:
    """A hook whose first modify puts a lone surrogate into a tool call, and a gate that denies
    with a reason holding one."""
    rewrite = {"echo": "modify", "patch": {"arguments": {"command": "ls \ud800"}}}
    rewriter = scripted_hook({"before_tool": [rewrite, {}]}, intercept=["before_tool"])
    gate = scripted_hook(
        {"approve_tool": {"result": {"approved": False, "reason": "bad \ud800 input"}}},
        intercept=["before_tool", "approve_tool"],
        priority=10,
    )
    observer = scripted_hook({}, observe=["*"])
    return write_config_with(tmp_path, {"rewriter": rewriter, "gate": gate, "observer": observer})


@pytest.mark.parametrize("as_json", [True, False])
def test_a_lone_surrogate_is_printed_and_the_run_goes_on(tmp_path: Path, as_json: bool) -> None:
    journal = tmp_path / "journal.jsonl"
    args = ["run", str(lone_surrogate_config(tmp_path)), "--journal", str(journal)]
    result = hook_inspector(*args, *(["--json"] if as_json else []))
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0
    records = recorded_lines(journal)
    # The answers hold the lone surrogates as the hooks wrote them; PicoClaw's decoder reads each
    # as U+FFFD, so that is what the next hook is sent and the reason the run goes on with
    # (PicoClaw corpus: escapes/lone-surrogate-escape).
    answers = [r for r in records if r["type"] == "exchange" and r["response"]]
    assert any("\\ud800" in json.dumps(r["response"]) for r in answers)
    sent_on = [
        r["request"]["params"]["arguments"]["command"]
        for r in answers
        if r["hook"] == "gate" and r["method"] == "hook.before_tool"
    ]
    assert "ls \ufffd" in sent_on
    reasons = [r["reason"] for r in records if r["type"] == "decision" and r["by"] == "gate"]
    assert "bad \ufffd input" in reasons
    if as_json:
        printed = [json.loads(line) for line in result.stdout.splitlines()]
        assert sorted(r["seq"] for r in printed) == sorted({r["seq"] for r in records})
        assert any("\\ud800" in json.dumps(r) for r in printed)
    else:
        rows = [line for line in result.stdout.splitlines() if RECORD_ROW.match(line)]
        assert len(rows) == len({r["seq"] for r in records})
        assert "bad \ufffd input" in result.stdout


async def test_a_reader_too_far_behind_loses_later_records_and_is_told_how_many(
    capsys: pytest.CaptureFixture[str],
) -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb") as reader, os.fdopen(write_end, "w") as stream:
        output: BackgroundOutput[str] = BackgroundOutput(stream, str, max_backlog=5)
        big = "x" * (fcntl.fcntl(reader, fcntl.F_GETPIPE_SZ) * 2) + "\n"
        output.put(big)
        select.select([reader], [], [])  # the writer has taken it and is stuck on the pipe
        for number in range(8):
            output.put(f"record {number}\n")
        reading = asyncio.ensure_future(asyncio.to_thread(reader.read))  # to the end
        await output.aclose()
        stream.close()
        printed = await reading
    assert printed.decode().splitlines()[1:] == [f"record {number}" for number in range(5)]
    assert output.dropped == 3
    assert "3 record(s) not printed" in capsys.readouterr().err


async def test_the_printer_remembers_a_bounded_number_of_printed_records(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(printer, "PRINTED_KEPT", 10)
    journal = Journal()
    with (tmp_path / "out").open("w") as out:
        printing = printer.Printer(journal, as_json=True, out=out)
        records = [journal.append(Stderr(hook="h", line=f"line {n}")) for n in range(100)]
        await wait_for(lambda: records[-1].seq in printing._printed)  # PRINT_AFTER_S later
        journal.amend(records[-1], line="line 99, changed after it was printed")
        await printing.aclose()
    lines = (tmp_path / "out").read_text().splitlines()
    printed = [json.loads(line)["line"] for line in lines]
    assert printed == [f"line {n}" for n in range(100)]  # each once, the change not again
    assert len(printing._printed) <= 20
