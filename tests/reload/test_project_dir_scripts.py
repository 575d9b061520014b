"""A command host's script named through its project folder variable ($CLAUDE_PROJECT_DIR,
$GEMINI_PROJECT_DIR, ...) is watched, so saving it reloads the hook that runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.config.model import CommandHookSpec, Config
from inspector.reload.targets import watched_paths


@pytest.mark.parametrize(
    ("host", "variable"), [("claude", "CLAUDE_PROJECT_DIR"), ("gemini", "GEMINI_PROJECT_DIR")]
)
def test_a_script_under_the_project_folder_variable_is_watched(
    tmp_path: Path, host: str, variable: str
) -> None:
    script = tmp_path / "hooks" / "guard.py"
    script.parent.mkdir()
    script.write_text("")
    command = f'python3 "${variable}"/hooks/guard.py'
    spec = CommandHookSpec("guard", host, "BeforeTool", command, 1000)
    config = Config(hooks=(spec,), host=host, workdir=tmp_path)
    assert watched_paths(tmp_path / "settings.json", config)[script] == {"guard"}
