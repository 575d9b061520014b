"""Fixtures for the tests against the real Claude Code CLI, imported by the test modules (a
conftest.py here would shadow tests/conftest.py, which the other test modules import by name).

`claude_cli` is one of claude_cli.VERSIONS, installed once per machine (see claude_cli.py): a
test that takes it runs once per version, with ids claude-2.1.197, claude-2.1.332, ... A test
about one version's behaviour takes `only(version)`. When a version cannot be installed (no node,
npm unreachable) its tests are skipped with the reason, except in CI (CI=true), where a skipped
real-agent test would hide a regression: there they fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from claude_cli import VERSIONS, ClaudeCli, Unavailable, cache_folder, install


def version_id(version: str) -> str:
    return f"claude-{version}"


@pytest.fixture(scope="session", params=VERSIONS, ids=version_id)
def claude_cli(request: pytest.FixtureRequest) -> ClaudeCli:
    version: str = request.param
    try:
        return install(cache_folder(version), version)
    except Unavailable as why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the real Claude Code CLI is needed in CI: {why}", pytrace=False)
        pytest.skip(f"the real Claude Code CLI {version} is not available: {why}")


def only(*versions: str) -> pytest.MarkDecorator:
    """A test's mark to run it against these versions of the CLI alone."""
    ids = [version_id(version) for version in versions]
    return pytest.mark.parametrize("claude_cli", versions, indirect=True, ids=ids)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project folder with a .claude folder for the test's settings.json."""
    folder = tmp_path / "project"
    (folder / ".claude").mkdir(parents=True)
    return folder
