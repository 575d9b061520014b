"""Which settings files the real `claude -p` skips, and the settings reader refuses the same: a
known key of the wrong type makes the CLI skip the whole file (its hooks never run), an unknown
key does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claude_cli import ClaudeCli
from claude_fixtures import claude_cli, project  # noqa: F401 (fixtures used by name)
from fake_anthropic import Reply, bash
from recorded_hooks import read_calls, recorder, recording_settings, write_settings
from test_claude_real import play

from inspector.config.errors import ConfigError
from inspector.hosts.claude.config import read_claude


@pytest.mark.parametrize(
    ("extra", "skipped"),
    [
        ({"permissions": {"allow": "Bash"}}, True),
        ({"permissions": {"defaultMode": "bogus"}}, True),
        ({"model": 5}, True),
        ({"permissions": {"allow": ["Bash(", 5], "bogus": 1}, "bogusTop": 1}, False),
    ],
)
def test_the_reader_refuses_the_settings_files_claude_code_skips(
    claude_cli: ClaudeCli, project: Path, home: Path, extra: dict[str, Any], skipped: bool
) -> None:
    log = project.parent / "hooks.jsonl"
    write_settings(project, recording_settings(recorder(log), ("PreToolUse",)) | extra)
    play(claude_cli, project, home, [Reply(tool_calls=(bash("ls", "toolu_0001"),)), Reply("Done.")])
    assert (not read_calls(log)) is skipped
    try:
        read_claude(project)
    except ConfigError:
        refused = True
    else:
        refused = False
    assert refused is skipped
