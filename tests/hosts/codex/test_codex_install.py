"""install codex / uninstall codex: the relay beside the user's own hooks, trusted by Codex's own
hash, and everything given back byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.codex.install import INSTALLER
from inspector.hosts.installer import Options, Place

OWN = '{\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine"}]}]}\n}\n'
CONFIG = 'model = "gpt-5.5"\n'


def test_install_twice_then_uninstall_gives_both_files_back_byte_for_byte(
    tmp_path: Path, home: Path
) -> None:
    project = tmp_path / "project"
    (project / ".codex").mkdir(parents=True)
    hooks = project / ".codex" / "hooks.json"
    hooks.write_text(OWN)
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CONFIG)
    place, options = Place(project=project), Options(events="PreToolUse,Stop")

    said = INSTALLER.install(place, options)
    first = (hooks.read_text(), config.read_text())
    INSTALLER.install(place, options)

    assert (hooks.read_text(), config.read_text()) == first  # idempotent
    assert "relay --host codex" in first[0] and '"command": "mine"' in first[0]
    assert f'[hooks.state."{hooks}:pre_tool_use:0:0"]' in first[1]
    assert f'[hooks.state."{hooks}:stop:1:0"]' in first[1]  # after the user's own Stop group
    assert "trusted the 2 relay hook(s) install wrote, and nothing else" in said

    INSTALLER.uninstall(place)
    assert (hooks.read_text(), config.read_text()) == (OWN, CONFIG)
    assert sorted(path.name for path in hooks.parent.iterdir()) == ["hooks.json"]


def test_user_install_into_no_files_is_undone_by_removing_them(home: Path) -> None:
    place = Place(user=True)
    INSTALLER.install(place, Options())
    assert (home / ".codex" / "hooks.json").exists()
    INSTALLER.uninstall(place)
    assert list((home / ".codex").iterdir()) == []


def test_a_file_install_cannot_read_is_named_and_nothing_changes(
    tmp_path: Path, home: Path
) -> None:
    project = tmp_path / "project"
    (project / ".codex").mkdir(parents=True)
    hooks = project / ".codex" / "hooks.json"
    hooks.write_text('{"hooks": {"Stop": "not a list"}}\n')
    with pytest.raises(ConfigError) as raised:
        INSTALLER.install(Place(project=project), Options())
    assert (raised.value.line, raised.value.key) == (1, "hooks.Stop")

    hooks.write_text(OWN)
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text("model = \n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        INSTALLER.install(Place(project=project), Options())
    assert (hooks.read_text(), config.read_text()) == (OWN, "model = \n")
    assert sorted(path.name for path in hooks.parent.iterdir()) == ["hooks.json"]
