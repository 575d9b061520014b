"""Fixtures for the tests against the real Codex CLI, imported by the test modules (a conftest.py
here would shadow tests/conftest.py).

`codex_cli` is one of codex_cli.VERSIONS, installed once per machine (see codex_cli.py and
npm_cache.py): a test that takes it runs once per version, with ids codex-0.171.0, ... When a
version cannot be installed (no node, npm unreachable) its tests are skipped with the reason,
except in CI (CI=true), where a skipped real-agent test would hide a regression: there they fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from codex_cli import VERSIONS, CodexCli, install, trust_project
from npm_cache import Unavailable


def version_id(version: str) -> str:
    return f"codex-{version}"


@pytest.fixture(scope="session", params=VERSIONS, ids=version_id)
def codex_cli(request: pytest.FixtureRequest) -> CodexCli:
    version: str = request.param
    try:
        return install(version)
    except Unavailable as why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the real Codex CLI is needed in CI: {why}", pytrace=False)
        pytest.skip(f"the real Codex CLI {version} is not available: {why}")


@pytest.fixture
def codex_project(tmp_path: Path, home: Path) -> Path:
    """An empty project folder with a .codex folder for the test's hooks.json, trusted in the
    test's ~/.codex/config.toml (else Codex loads nothing of its .codex folder)."""
    folder = tmp_path / "project"
    (folder / ".codex").mkdir(parents=True)
    trust_project(home, folder)
    return folder
