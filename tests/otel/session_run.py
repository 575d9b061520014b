"""A real `hook-inspector run` of tests/otel/session (the demo's hooks, one that refuses every
call, a scenario with a planted secret), its journal saved, its spans sent where it is told."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from inspector.journal.jsonl import load_journal
from inspector.journal.records import Record
from tests.support.paths import ROOT

SESSION = Path(__file__).resolve().parent / "session"
CONFIG = SESSION / "hooks.yaml"
SCENARIO = SESSION / "scenario.yaml"
PLANTED = "sk-live-PLANTEDotel9f8e7d6c5b4a3210"


def hook_inspector(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "inspector", *map(str, args)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def run_session(journal: Path, *otlp: str) -> subprocess.CompletedProcess[str]:
    return hook_inspector(
        "run", CONFIG, "--scenario", SCENARIO, "--json", "--journal", journal, *otlp
    )


def saved_records(journal: Path) -> list[Record]:
    """The journal's records, each as last written (a record changed after it was first
    written, an event's delivery, is written again)."""
    return list(load_journal(journal).records)
