"""`install HOST` / `uninstall HOST` take the host from the registry: a mistyped name gets a
suggestion, PicoClaw, which has nothing to install, says how it is attached instead, and an
option that is another host's own is refused, naming whose it is. None of them changes a file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.hosts.installer import NoInstaller
from inspector.hosts.registry import HOSTS


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


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["gemini", "--http"], "--http: Gemini CLI has no such option; Claude Code has"),
        (["codex", "--mod"], "--mod: Codex has no such option; Claude Code has"),
        (["jcli", "--no-inspector", "block"], "--no-inspector: j-cli has no such option;"),
        (["claude", "--print"], "--print: Claude Code has no such option; OpenClaw has"),
        (["claude", "--config", "x.json"], "--config: Claude Code is set with --project or"),
        (["openclaw", "--user"], "--user: OpenClaw has one config file: name it with --config"),
    ],
)
def test_an_option_that_is_another_hosts_is_refused_naming_whose_it_is(
    words: list[str], said: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", *words]) == 2
    assert capsys.readouterr().err.startswith(f"hook-inspector: {said}")
    assert list(folder.iterdir()) == []


def test_the_help_names_each_hosts_own_options_with_the_hosts_that_have_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["install", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for host in HOSTS:
        if isinstance(host.installer, NoInstaller):
            continue
        for flag in host.installer.flags:
            label, said = re.escape(host.label), re.escape(" ".join(flag.help.split()))
            owners = rf"(?:[^:]*, )?{label}(?:, [^:]*)?"
            assert re.search(rf"--{flag.name}(?: {{[^}}]*}})? {owners}: {said}", shown)
        assert f"{host.installer.default_timeout_s} for {host.label}" in shown
