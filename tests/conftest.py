"""Fixtures for every test. Helpers live in tests/support/ and are imported from there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.saved_sessions import Session, as_session


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


@pytest.fixture
def session(request: pytest.FixtureRequest, tmp_path: Path) -> Session:
    """The journal a view test looks at, live or saved and opened: see LIVE_AND_OPENED."""
    return as_session(getattr(request, "param", "live"), tmp_path)
