"""The journal on disk survives the inspector being killed mid-session: every record flushed
before the kill loads back, once, well-formed. (A torn last line on its own is covered in
tests/journal/test_journal.py.)"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from inspector.demo import DEMO_CONFIG, DEMO_FOLDER, DEMO_SCENARIO
from inspector.journal.jsonl import load_journal

TURNS = 500  # ~20,000 records in all: far more than are written before the kill
KILL_AFTER_LINES = 2000
IN_FLIGHT = 3  # calls may still be pending when the inspector dies: they are never written


def busy_session(tmp_path: Path) -> tuple[Path, Path]:
    """The demo's hooks, run from where they are, and its scenario played TURNS times over."""
    config = yaml.safe_load(DEMO_CONFIG.read_text())
    for hook in config["hooks"].values():
        hook["dir"] = str(DEMO_FOLDER)
    scenario = yaml.safe_load(DEMO_SCENARIO.read_text())
    scenario["turns"] *= TURNS
    config_path, scenario_path = tmp_path / "hooks.yaml", tmp_path / "long_scenario.yaml"
    config_path.write_text(yaml.safe_dump(config))
    scenario_path.write_text(yaml.safe_dump(scenario))
    return config_path, scenario_path


def wait_until(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def line_count(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_a_journal_killed_mid_session_loads_with_every_flushed_record(tmp_path: Path) -> None:
    config, scenario = busy_session(tmp_path)
    journal = tmp_path / "journal.jsonl"
    run = ["run", str(config), "--scenario", str(scenario), "--journal", str(journal), "--json"]
    inspector = subprocess.Popen(
        [sys.executable, "-m", "inspector", *run],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: line_count(journal) >= KILL_AFTER_LINES, timeout=30)
        assert inspector.poll() is None, "the session ended before the kill"
        inspector.send_signal(signal.SIGKILL)
    finally:
        inspector.kill()
        assert inspector.wait(timeout=10) == -signal.SIGKILL

    *whole, _torn_or_empty = journal.read_text(encoding="utf-8", errors="replace").split("\n")
    written: list[dict[str, Any]] = [json.loads(line) for line in whole]
    assert all({"type", "ts", "seq"} <= record.keys() for record in written)
    first_of: dict[int, dict[str, Any]] = {}
    for record in written:  # a record changed after it was written may be written again
        earlier = first_of.setdefault(record["seq"], record)
        assert (earlier["type"], earlier["ts"]) == (record["type"], record["ts"])

    loaded = load_journal(journal)
    seqs = [record.seq for record in loaded.records]
    assert seqs and seqs == sorted(first_of)  # every whole line, once, in order
    missing = set(range(1, seqs[-1])) - set(seqs)
    assert len(missing) <= IN_FLIGHT, f"records lost before the last flush: {sorted(missing)}"
