"""Journal files: private (0600) wherever they are written, and a journal that cannot be
written is one clear line, at start (exit 2) or later (the session goes on)."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Label

from inspector.cli.main import main
from inspector.engine import Engine
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, load_journal
from inspector.journal.records import Stderr
from inspector.tui.app import Session
from inspector.tui.screens.save_as import SaveAsScreen
from tests.support.scripted import config_of
from tests.support.tui import make_app, running, until

SAVED_IN_UI = "hook-inspector-session.jsonl"


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The common umask, under which a plain open() makes a file anyone can read."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def a_journal() -> Journal:
    journal = Journal()
    journal.append(Stderr(hook="gate", line="GITHUB_TOKEN=ghp_" + "a1B2" * 9))
    return journal


def hook_inspector(
    *args: str, limit_file_size: int | None = None
) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if limit_file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    return subprocess.run(
        [sys.executable, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        preexec_fn=limit,
    )


def test_the_journal_writer_creates_its_file_0600(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    JsonlWriter(path).attach(a_journal()).close()
    assert mode(path) == 0o600
    assert len(load_journal(path).records) == 1


def test_the_journal_writer_tightens_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text("an older session\n")
    path.chmod(0o644)
    JsonlWriter(path).attach(a_journal()).close()
    assert mode(path) == 0o600
    assert "older" not in path.read_text()


def test_export_writes_its_output_0600(tmp_path: Path) -> None:
    source = tmp_path / "session.jsonl"
    JsonlWriter(source).attach(a_journal()).close()
    out = tmp_path / "shared.jsonl"
    out.write_text("")
    out.chmod(0o644)
    assert main(["export", str(source), "-o", str(out)]) == 0
    assert mode(out) == 0o600


async def test_the_ui_save_writes_0600(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    saved = tmp_path / SAVED_IN_UI
    app = make_app(Session(Engine(config_of(), journal=a_journal()), watch=False), tmp_path)
    async with running(app) as pilot:
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, SaveAsScreen), what="save as")
        await pilot.press("enter")
        await until(pilot, saved.exists, what="the journal saved")
    assert mode(saved) == 0o600
    assert len(load_journal(saved).records) == 1


async def test_the_ui_save_to_a_folder_says_so_and_keeps_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / SAVED_IN_UI).mkdir()
    app = make_app(Session(Engine(config_of(), journal=a_journal()), watch=False), tmp_path)
    async with running(app) as pilot:
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, SaveAsScreen), what="save as")
        await pilot.press("enter")
        problem = app.screen.query_one("#problem", Label)
        await until(pilot, lambda: "is a folder" in str(problem.render()), what="the problem")
        assert app.is_running and isinstance(app.screen, SaveAsScreen)
    assert str(problem.render()) == f"{tmp_path / SAVED_IN_UI} is a folder."


@pytest.mark.parametrize("where", ["folder", "missing folder", "/dev/full"])
def test_a_journal_that_cannot_be_written_is_one_line_and_exit_2(
    tmp_path: Path, where: str
) -> None:
    if where == "/dev/full" and not Path(where).exists():
        pytest.skip("no /dev/full here")
    path = {"folder": str(tmp_path), "missing folder": str(tmp_path / "no" / "s.jsonl")}.get(
        where, where
    )
    result = hook_inspector("run", "--journal", path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith(f"hook-inspector: cannot write the journal {path}: ")
    assert result.stdout == ""  # nothing ran


def test_a_journal_that_fails_later_says_so_once_and_the_session_goes_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "session.jsonl"
    result = hook_inspector("run", "--journal", str(path), limit_file_size=2048)
    assert "Traceback" not in result.stderr
    complaints = [line for line in result.stderr.splitlines() if str(path) in line]
    assert complaints == [
        f"hook-inspector: cannot write the journal {path}: File too large; "
        "the session goes on, the journal stops here"
    ]
    assert "1 turn(s): completed" in result.stderr  # the scenario played to its end
    assert result.returncode == 0
    assert path.stat().st_size <= 2048
