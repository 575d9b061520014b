"""`install` and `uninstall` on a settings file that is a symbolic link into another folder (a
dotfiles repository): they change the file the link points to, say so, and leave the link."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.hosts.openclaw.install import PLUGIN_ID
from tests.cli.test_install import USERS_SETTINGS
from tests.cli.test_install_openclaw import USERS_CONFIG

BACKUP = ".hook-inspector.bak"
CHANGED = "changed the file it points to"


def linked(link: Path, target: Path, content: bytes | None) -> str:
    """`link` made a relative link to `target` (as a dotfiles manager makes them), with
    `content` in the target; what the link says."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if content is not None:
        target.write_bytes(content)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(target, link.parent))
    return os.readlink(link)


def run(capsys: pytest.CaptureFixture[str], command: list[str], link: Path, to: str) -> str:
    """What `command` printed; the link is still a link, pointing where it did."""
    assert main(command) == 0
    assert link.is_symlink() and os.readlink(link) == to
    return capsys.readouterr().out


def claude_install(tmp_path: Path) -> tuple[list[str], Path, Path]:
    """The words after install or uninstall, the project's settings.json (to
    become a link), and the file in the dotfiles repository it is to point to."""
    project = tmp_path / "project"
    file = project / ".claude" / "settings.json"
    return ["claude", "--project", str(project)], file, tmp_path / "dotfiles" / "settings.json"


def test_claude_settings_kept_in_dotfiles_change_through_the_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where, file, target = claude_install(tmp_path)
    points_to = linked(file, target, USERS_SETTINGS)

    out = run(capsys, ["install", *where], file, points_to)
    assert "PreToolUse" in json.loads(target.read_bytes())["hooks"]
    assert out.endswith(f"; {file} is a link: {CHANGED}, {target}, and kept the link\n")
    backup = file.with_name(file.name + BACKUP)  # beside the link, not in the dotfiles
    assert backup.read_bytes() == USERS_SETTINGS and not backup.is_symlink()
    assert sorted(path.name for path in target.parent.iterdir()) == ["settings.json"]

    out = run(capsys, ["uninstall", *where], file, points_to)
    assert target.read_bytes() == USERS_SETTINGS
    assert "as it was before install" in out and f"{CHANGED}, {target}," in out
    assert not backup.exists()


def test_a_link_to_settings_not_written_yet_gets_them_and_loses_them_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where, file, target = claude_install(tmp_path)
    points_to = linked(file, target, None)

    out = run(capsys, ["install", *where], file, points_to)
    assert "PreToolUse" in json.loads(target.read_bytes())["hooks"]
    assert f"{CHANGED}, {target}," in out

    out = run(capsys, ["uninstall", *where], file, points_to)
    assert not target.exists() and f"removed the file it points to, {target}," in out


def test_openclaw_json_kept_in_dotfiles_changes_through_the_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "state" / "openclaw.json"
    target = tmp_path / "dotfiles" / "openclaw" / "openclaw.json"
    points_to = linked(config, target, USERS_CONFIG)

    out = run(capsys, ["install", "openclaw", "--config", str(config)], config, points_to)
    assert PLUGIN_ID in json.loads(target.read_bytes())["plugins"]["entries"]
    assert f"; {config} is a link: {CHANGED}, {target}, and kept the link;" in out
    backup = config.with_name(config.name + BACKUP)
    assert backup.read_bytes() == USERS_CONFIG and not backup.is_symlink()

    out = run(capsys, ["uninstall", "openclaw", "--config", str(config)], config, points_to)
    assert target.read_bytes() == USERS_CONFIG
    assert "as it was before install" in out and f"{CHANGED}, {target}," in out
    assert not backup.exists()
