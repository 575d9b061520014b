"""`install gemini` / `uninstall gemini`: the relay merged into a Gemini CLI settings file beside
the user's own hooks, idempotent, backed up first, and taken out leaving the file byte for
byte as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.gemini.config import read_gemini
from inspector.hosts.gemini.install import INSTALLER
from inspector.hosts.installer import Options, Place

MINE = (
    '{\n  "theme": "dark",\n  "hooks": {"BeforeTool": [{"hooks": [\n'
    '    {"type": "command", "command": "guard.sh"}]}]}\n}\n'
)


def settings(project: Path) -> Path:
    return project / ".gemini" / "settings.json"


def test_install_keeps_the_user_s_hooks_and_uninstall_gives_the_file_back(tmp_path: Path) -> None:
    file = settings(tmp_path)
    file.parent.mkdir()
    file.write_text(MINE)
    said = INSTALLER.install(Place(project=tmp_path), Options(events="BeforeTool,BeforeModel"))
    assert "BeforeTool, BeforeModel" in said and "settings.json.hook-inspector.bak" in said
    written = json.loads(file.read_text())
    assert written["theme"] == "dark"
    [mine, relay] = written["hooks"]["BeforeTool"]
    assert mine["hooks"][0]["command"] == "guard.sh"
    [hook] = relay["hooks"]
    assert hook["name"] == "hook-inspector" and hook["timeout"] == 60_000
    assert " relay --host gemini --timeout 60" in hook["command"]
    specs = read_gemini(tmp_path).config.command_hooks
    assert [spec.event for spec in specs] == ["BeforeTool", "BeforeTool", "BeforeModel"]

    INSTALLER.install(Place(project=tmp_path), Options(events="BeforeTool,BeforeModel"))
    assert len(json.loads(file.read_text())["hooks"]["BeforeTool"]) == 2  # idempotent

    assert "as it was before install" in INSTALLER.uninstall(Place(project=tmp_path))
    assert file.read_text() == MINE
    assert not file.with_name("settings.json.hook-inspector.bak").exists()


def test_install_makes_the_file_and_uninstall_removes_it_again(tmp_path: Path) -> None:
    INSTALLER.install(Place(project=tmp_path), Options(matcher="run_shell_command", timeout_s=5))
    groups = json.loads(settings(tmp_path).read_text())["hooks"]
    assert list(groups) == [
        "SessionStart",
        "BeforeAgent",
        "BeforeTool",
        "AfterTool",
        "AfterAgent",
        "Notification",
        "SessionEnd",
    ]
    assert groups["BeforeTool"][0]["matcher"] == "run_shell_command"
    assert "matcher" not in groups["SessionStart"][0]
    assert groups["AfterTool"][0]["hooks"][0]["timeout"] == 5000
    INSTALLER.uninstall(Place(project=tmp_path))
    assert not settings(tmp_path).exists()


def test_user_install_goes_to_the_home_settings(home: Path) -> None:
    INSTALLER.install(Place(user=True), Options(events="BeforeTool"))
    assert "BeforeTool" in json.loads(settings(home).read_text())["hooks"]


def test_an_unknown_event_is_refused_with_what_was_meant(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match='did you mean "BeforeTool"'):
        INSTALLER.install(Place(project=tmp_path), Options(events="BeforeTools"))
    assert not settings(tmp_path).exists()


def test_uninstall_without_the_relay_changes_nothing(tmp_path: Path) -> None:
    file = settings(tmp_path)
    file.parent.mkdir()
    file.write_text(MINE)
    assert "nothing taken out" in INSTALLER.uninstall(Place(project=tmp_path))
    assert file.read_text() == MINE


@pytest.mark.parametrize(
    "mine",
    ['{"hooks": {"AfterModel": []}}\n', '{"hooks": {}}\n', '{"hooks": {"BeforeTool": []}}\n'],
)
def test_the_user_s_empty_event_lists_and_hooks_stay_through_install_and_uninstall(
    tmp_path: Path, mine: str
) -> None:
    file = settings(tmp_path)
    file.parent.mkdir()
    file.write_text(mine)
    INSTALLER.install(Place(project=tmp_path), Options(events="BeforeTool"))
    INSTALLER.install(Place(project=tmp_path), Options(events="SessionStart"))
    installed = json.loads(file.read_text())["hooks"]
    assert json.loads(mine)["hooks"].items() <= {**installed, "BeforeTool": []}.items()
    assert "as it was before install" in INSTALLER.uninstall(Place(project=tmp_path))
    assert file.read_text() == mine


def test_a_settings_file_with_comments_is_left_as_it_is_and_the_message_says_why(
    tmp_path: Path,
) -> None:
    """Gemini CLI allows comments in settings.json; install writes JSON back, which would drop
    them, so it refuses and changes nothing."""
    file = settings(tmp_path)
    file.parent.mkdir()
    text = '{\n  // my theme\n  "ui": {"theme": "Dracula"}\n}\n'
    file.write_text(text)
    with pytest.raises(ConfigError, match="has comments, which install would lose"):
        INSTALLER.install(Place(project=tmp_path), Options(events="BeforeTool"))
    assert file.read_text() == text
    assert [path.name for path in file.parent.iterdir()] == ["settings.json"]
