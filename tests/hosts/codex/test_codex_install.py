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


def _config(home: Path, text: str = CONFIG) -> Path:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text(text)
    return config


def test_two_projects_keep_each_its_own_trust_and_uninstall_takes_out_only_its_own(
    tmp_path: Path, home: Path
) -> None:
    config = _config(home)
    first, second = tmp_path / "pa", tmp_path / "pb"
    INSTALLER.install(Place(project=first), Options(events="Stop"))
    INSTALLER.install(Place(project=second), Options(events="Stop"))
    first_key = f'[hooks.state."{first / ".codex" / "hooks.json"}:stop:0:0"]'
    second_key = f'[hooks.state."{second / ".codex" / "hooks.json"}:stop:0:0"]'
    assert first_key in config.read_text() and second_key in config.read_text()

    said = INSTALLER.uninstall(Place(project=first))

    assert first_key not in config.read_text() and second_key in config.read_text()
    assert "keeping install's trust for the relay in other hooks files" in said
    said = INSTALLER.uninstall(Place(project=second))
    assert config.read_text() == CONFIG
    assert "it is as it was before install" in said


def test_a_config_toml_that_cannot_take_the_trust_leaves_hooks_json_unchanged(
    tmp_path: Path, home: Path
) -> None:
    config = _config(home, "hooks = { state = {} }\n")
    project = tmp_path / "project"
    (project / ".codex").mkdir(parents=True)
    hooks = project / ".codex" / "hooks.json"
    hooks.write_text(OWN)

    with pytest.raises(ConfigError, match="cannot add the relay's trust"):
        INSTALLER.install(Place(project=project), Options())

    assert (hooks.read_text(), config.read_text()) == (OWN, "hooks = { state = {} }\n")
    assert sorted(path.name for path in hooks.parent.iterdir()) == ["hooks.json"]
    assert sorted(path.name for path in config.parent.iterdir()) == ["config.toml"]


def test_the_trust_key_names_the_project_by_its_real_path(tmp_path: Path, home: Path) -> None:
    config = _config(home)
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    (tmp_path / "other").mkdir()

    INSTALLER.install(Place(project=tmp_path / "other" / ".." / "link"), Options(events="Stop"))

    assert f'[hooks.state."{real / ".codex" / "hooks.json"}:stop:0:0"]' in config.read_text()
    assert (real / ".codex" / "hooks.json").exists()


@pytest.mark.parametrize(
    "own",
    [
        '{\n  "hooks": {}\n}\n',
        '{"hooks": {"PreCompact": [], "Stop": []}}\n',
    ],
)
def test_empty_hooks_the_user_had_are_kept_and_given_back_byte_for_byte(
    tmp_path: Path, home: Path, own: str
) -> None:
    _config(home)
    project = tmp_path / "project"
    (project / ".codex").mkdir(parents=True)
    hooks = project / ".codex" / "hooks.json"
    hooks.write_text(own)

    INSTALLER.install(Place(project=project), Options(events="Stop,PreToolUse"))
    assert '"PreCompact": []' in hooks.read_text() or "PreCompact" not in own
    INSTALLER.install(Place(project=project), Options(events="PreToolUse"))
    INSTALLER.uninstall(Place(project=project))

    assert hooks.read_text() == own
    assert sorted(path.name for path in hooks.parent.iterdir()) == ["hooks.json"]


def test_a_null_hooks_object_is_refused_as_codex_refuses_it_and_nothing_changes(
    tmp_path: Path, home: Path
) -> None:
    config = _config(home)
    project = tmp_path / "project"
    hooks = _hooks_json(project, '{"hooks": null}\n')

    with pytest.raises(ConfigError, match="expected an object of events, got null") as raised:
        INSTALLER.install(Place(project=project), Options())

    assert (raised.value.line, raised.value.key) == (1, "hooks")
    assert (hooks.read_text(), config.read_text()) == ('{"hooks": null}\n', CONFIG)
    assert sorted(path.name for path in hooks.parent.iterdir()) == ["hooks.json"]


def test_a_comment_is_invalid_json_in_a_hooks_json_as_codex_reads_it(
    tmp_path: Path, home: Path
) -> None:
    _config(home)
    project = tmp_path / "project"
    hooks = _hooks_json(project, '{\n  // mine\n  "hooks": {}\n}\n')

    with pytest.raises(ConfigError, match="invalid JSON") as raised:
        INSTALLER.install(Place(project=project), Options())

    assert raised.value.line == 2
    assert sorted(path.name for path in hooks.parent.iterdir()) == ["hooks.json"]


def _hooks_json(project: Path, text: str) -> Path:
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir(parents=True)
    hooks.write_text(text)
    return hooks
