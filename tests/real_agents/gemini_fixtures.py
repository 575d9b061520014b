"""Fixtures for the tests against the real Gemini CLI, imported by the test modules (a
conftest.py here would shadow tests/conftest.py).

`gemini_cli` is one of gemini_cli.VERSIONS, installed once per machine (see gemini_cli.py): a test
that takes it runs once per version, with ids gemini-0.61.0, ... When a version cannot be
installed (npm unreachable) its tests are skipped with the reason, except in CI (CI=true), where
a skipped real-agent test would hide a regression: there they fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gemini_cli import VERSIONS, GeminiCli, Unavailable, cache_folder, install


def version_id(version: str) -> str:
    return f"gemini-{version}"


@pytest.fixture(scope="session", params=VERSIONS, ids=version_id)
def gemini_cli(request: pytest.FixtureRequest) -> GeminiCli:
    version: str = request.param
    try:
        return install(cache_folder(version), version)
    except Unavailable as why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the real Gemini CLI is needed in CI: {why}", pytrace=False)
        pytest.skip(f"the real Gemini CLI {version} is not available: {why}")


@pytest.fixture
def gemini_project(tmp_path: Path) -> Path:
    """An empty project folder with a .gemini folder for the test's settings.json."""
    folder = tmp_path / "project"
    (folder / ".gemini").mkdir(parents=True)
    return folder
