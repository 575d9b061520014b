"""`hook-inspector install claude --mod`: the inspector's HTTP endpoint for the bridge mod made
(or reused), and the way to load the mod said; Claude Code loads a plugin folder from its command
line or environment only, so no settings file is touched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.hosts.claude.bridge_mod import BRIDGE_MOD_FOLDER
from inspector.hosts.http_endpoint import read_endpoint


def test_install_mod_makes_the_endpoint_and_says_how_to_load_the_mod(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    project.mkdir()

    assert main(["install", "claude", "--mod", "--project", str(project)]) == 0

    endpoint = read_endpoint()
    assert endpoint is not None
    said = capsys.readouterr().out
    assert f"127.0.0.1:{endpoint.port}" in said
    assert f"--plugin-dir {BRIDGE_MOD_FOLDER}" in said
    assert f"CLAUDE_CODE_PLUGIN_DIRS={BRIDGE_MOD_FOLDER}" in said
    assert list(project.iterdir()) == []  # no settings written


def test_install_mod_twice_keeps_the_endpoint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "claude", "--mod"]) == 0
    first = read_endpoint()
    assert main(["install", "claude", "--mod"]) == 0

    assert read_endpoint() == first


def test_the_shipped_mod_names_its_hooks_module() -> None:
    hooks = json.loads((BRIDGE_MOD_FOLDER / "hooks" / "hooks.json").read_text())
    [module] = hooks["modules"]
    assert (BRIDGE_MOD_FOLDER / "hooks" / module).is_file()
    plugin = json.loads((BRIDGE_MOD_FOLDER / ".claude-plugin" / "plugin.json").read_text())
    assert plugin["name"] == "hook-inspector"
