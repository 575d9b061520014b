"""`install HOST` / `uninstall HOST` take the host from the registry: a mistyped name gets a
suggestion, and PicoClaw, which has nothing to install, says how it is attached instead. Neither
changes a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.cli.main import main


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder, where install would write a project's settings."""
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return project


@pytest.mark.parametrize(("typed", "meant"), [("claud", "claude"), ("open-claw", "openclaw")])
def test_a_mistyped_host_is_refused_with_a_suggestion(
    typed: str, meant: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", typed]) == 2
    error = capsys.readouterr().err
    assert error == f'hook-inspector: host: no host is named "{typed}" (did you mean "{meant}"?)\n'
    assert list(folder.iterdir()) == []


def test_a_host_nothing_like_any_is_refused_with_the_hosts_install_knows(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["uninstall", "copilot"]) == 2
    expected = "; expected one of claude, codex, gemini, jcli, openclaw"
    said = capsys.readouterr().err
    assert said == f'hook-inspector: host: no host is named "copilot"{expected}\n'


@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_picoclaw_has_nothing_to_install_and_says_how_it_is_attached(
    command: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "picoclaw"]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"hook-inspector: picoclaw: nothing to {command}: ")
    assert error.count("\n") == 1
    # where the relay goes, as inspector/docs/picoclaw.md shows it
    assert "process hooks" in error and "hooks.processes" in error
    assert 'hook-inspector", "relay"]' in error and "inspector/docs/picoclaw.md" in error
    assert list(folder.iterdir()) == []
