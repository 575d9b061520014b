"""Shared helpers: real hook processes built from tests/hooks/scripted.py."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from saved_sessions import Session, as_session

from inspector.config.model import Config, Defaults, HookSpec

HOOKS = Path(__file__).parent / "hooks"
SCRIPTED = HOOKS / "scripted.py"
needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")


def open_fds() -> set[str]:
    """This process's open file descriptors (Linux)."""
    return set(os.listdir("/proc/self/fd"))


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets an empty HOME of its own. The developer's ~/.claude and ~/.jdata are never
    read, and a hook's login shell (`bash -lc`) sources nothing of theirs: a shell startup that
    runs `pyenv rehash`, killed with a timed-out hook, would leave a lock that stalls every later
    login shell for a minute."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def scripted(
    name: str,
    script: dict[str, Any] | None = None,
    *,
    intercept: tuple[str, ...] = (),
    observe: tuple[str, ...] = (),
    priority: int = 0,
    env: dict[str, str] | None = None,
) -> HookSpec:
    return HookSpec(
        name=name,
        command=(sys.executable, str(SCRIPTED), json.dumps(script or {})),
        intercept=intercept,
        observe=observe,
        priority=priority,
        env=tuple(sorted((env or {}).items())),
    )


def config_of(*specs: HookSpec, **timeouts: int) -> Config:
    return Config(hooks=specs, defaults=Defaults(**timeouts))


async def wait_for(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll until `predicate` holds, failing after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


async def wait_for_count(count: Callable[[], int], target: int, stall: float = 10.0) -> None:
    """Poll until `count()` reaches `target`, failing only when it stops growing for `stall`
    seconds: a loaded machine may be slow, but a stuck one makes no progress at all."""
    loop = asyncio.get_running_loop()
    last, since = count(), loop.time()
    while (now := count()) < target:
        if now != last:
            last, since = now, loop.time()
        elif loop.time() - since > stall:
            raise AssertionError(f"stuck at {now} of {target} for {stall} s")
        await asyncio.sleep(0.01)


def recorded_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture
def session(request: pytest.FixtureRequest, tmp_path: Path) -> Session:
    """The journal a view test looks at, live or saved and opened: see LIVE_AND_OPENED."""
    return as_session(getattr(request, "param", "live"), tmp_path)
