"""The Gemini CLI example project plays its scenario as `gemini -p` would: `ls build` runs,
`rm -rf build` is refused, and the AfterModel hook that hides API keys sees the last answer one
streamed chunk at a time, so the key the stream cuts in two gets past it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.hooks.approvals import Approvals
from inspector.hosts.gemini.chain import GeminiHooks
from inspector.hosts.gemini.config import read_gemini
from inspector.journal.journal import Journal
from inspector.scenario import load_scenario
from tests.support.paths import PACKAGE

EXAMPLE = PACKAGE / "examples" / "gemini"


async def test_the_example_hides_a_whole_key_and_misses_one_cut_in_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "gemini-example"
    shutil.copytree(EXAMPLE, project)
    monkeypatch.setenv("GEMINI_TOOL_LOG", str(tmp_path / "tool-log.jsonl"))
    read = read_gemini(project)
    hooks = GeminiHooks(read.config.command_hooks, Journal(), Approvals(), project_dir=project)
    [outcome] = await hooks.turn_runner().run(load_scenario(project / "scenario.yaml"))

    assert [use.ran for use in outcome.tool_uses] == [True, False]
    assert outcome.final_content == (
        "The build folder stays: rm -rf was refused. "
        "Deploy key [key hidden] is in .env; the old one, sk-old77b1e0, is revoked."
    )
