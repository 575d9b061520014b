"""Fixtures for every test. Helpers live in tests/support/ and are imported from there."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.saved_sessions import Session, as_session

REAL_AGENTS = Path(__file__).parent / "real_agents"


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The suite runs on pytest-xdist's workers with --dist loadgroup (pyproject's addopts); each
    xdist_group runs whole on one worker. The real agents form one: their session fixtures
    install into one cache, and one Node process at a time is what these two cores can carry."""
    for item in items:
        if REAL_AGENTS in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("real_agents"))


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets an empty HOME of its own. The developer's ~/.claude and ~/.jdata are never
    read, and a hook's login shell (`bash -lc`) sources nothing of theirs: a shell startup that
    runs `pyenv rehash`, killed with a timed-out hook, would leave a lock that stalls every later
    login shell for a minute. The state folder follows HOME too, so the port and token of
    `install claude --http` (hosts/http_endpoint.py) are the test's own, never the developer's."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    return folder


@pytest.fixture(autouse=True)
def runtime_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets an XDG_RUNTIME_DIR of its own, so an inspector started with the default
    socket (the demo in tmux, `serve` with no --socket) never meets another test's: pytest-xdist
    runs tests side by side, and other checkouts may be testing on the same machine. Short and
    under /tmp, as a Unix socket's path must stay under about 100 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="xdg-", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def session(request: pytest.FixtureRequest, tmp_path: Path) -> Session:
    """The journal a view test looks at, live or saved and opened: see LIVE_AND_OPENED."""
    return as_session(getattr(request, "param", "live"), tmp_path)
