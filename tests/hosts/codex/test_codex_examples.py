"""The Codex example project works end to end from the command line: check passes, run plays its
scenario as codex exec would (the recursive rm refused, the history compacted once the first
reply's tokens pass the project's limit), and replay finds every answer the same."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.support.paths import PACKAGE

EXAMPLE = PACKAGE / "examples" / "codex"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the example, as a user would make one; its logger writes beside it."""
    copy = tmp_path / "codex-example"
    shutil.copytree(EXAMPLE, copy)
    monkeypatch.setenv("CODEX_TOOL_LOG", str(tmp_path / "tool-log.jsonl"))
    return copy


def test_check_run_and_replay_the_example(
    project: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(project)]) == 0
    assert "3 of 3 hook(s) pass" in capfd.readouterr().out

    journal = tmp_path / "journal.jsonl"
    assert main(["run", str(project), "--journal", str(journal)]) == 0
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    decisions = [r for r in records if r["type"] == "decision" and r["stage"] == "PreToolUse"]
    assert [d["verdict"] for d in decisions] == ["continue", "block"]
    assert "recursive rm is not allowed here ('rm -r build')" in decisions[1]["reason"]
    assert all(r["host"] == "codex" for r in records if r["type"] == "exchange")
    logged = [json.loads(line) for line in (tmp_path / "tool-log.jsonl").read_text().splitlines()]
    compactions = [entry["compaction"] for entry in logged if "compaction" in entry]
    assert compactions == ["auto", "auto"]  # check's probe, then the scenario's compaction
    capfd.readouterr()

    assert main(["replay", str(journal), str(project)]) == 0
    assert "0 different, 0 missing hook" in capfd.readouterr().out
