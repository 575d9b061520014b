"""Fixtures for the tests against the real Claude Code CLI, imported by the test modules (a
conftest.py here would shadow tests/conftest.py, which the other test modules import by name).

`claude_cli` installs the pinned CLI once per machine (see claude_cli.py). When that cannot be
done (no node, npm unreachable) the tests are skipped with the reason, except in CI
(CI=true), where a skipped real-agent test would hide a regression: there they fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from claude_cli import ClaudeCli, Unavailable, cache_folder, install


@pytest.fixture(scope="session")
def claude_cli() -> ClaudeCli:
    try:
        return install(cache_folder())
    except Unavailable as why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the real Claude Code CLI is needed in CI: {why}", pytrace=False)
        pytest.skip(f"the real Claude Code CLI is not available: {why}")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project folder with a .claude folder for the test's settings.json."""
    folder = tmp_path / "project"
    (folder / ".claude").mkdir(parents=True)
    return folder
