"""Claude Code refuses a settings file whose known keys have the wrong type: the whole file is
skipped, its hooks never run, and `claude -p` says nothing (seen in 2.1.197 and 2.1.332 with
`permissions.allow: "Bash"`, `defaultMode: "bogus"`, `model: 5`, a handler's `timeout: "ten"`).
Unknown keys, a malformed rule or a number among the rules are let through. The settings reader
refuses the same files, at file:line:key, and lets the same ones through."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.claude.config import read_claude

HOOK = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}


def settings_file(tmp_path: Path, extra: dict[str, Any]) -> Path:
    folder = tmp_path / "project" / ".claude"
    folder.mkdir(parents=True)
    file = folder / "settings.json"
    file.write_text(json.dumps({**HOOK, **extra}, indent=2))
    return file


@pytest.mark.parametrize(
    ("extra", "key", "words"),
    [
        ({"permissions": {"allow": "Bash"}}, "permissions.allow", "expected a list"),
        ({"permissions": {"defaultMode": "bogus"}}, "permissions.defaultMode", "acceptEdits"),
        ({"permissions": "all"}, "permissions", "expected an object"),
        ({"model": 5}, "model", "expected a string"),
    ],
)
def test_a_file_claude_code_skips_for_a_wrong_type_is_refused_at_its_key(
    tmp_path: Path, extra: dict[str, Any], key: str, words: str
) -> None:
    file = settings_file(tmp_path, extra)
    with pytest.raises(ConfigError) as refused:
        read_claude(file)
    error = refused.value
    assert error.key == key and error.line is not None and error.line > 1
    assert words in error.message and "skips this whole file" in error.message


@pytest.mark.parametrize(
    "extra",
    [
        {"permissions": {"allow": ["Bash(", 5], "bogus": 1}},
        {"permissions": {"defaultMode": "dontAsk", "deny": ["Write"]}},
        {"bogusTop": 1},
    ],
)
def test_what_claude_code_lets_through_loads(tmp_path: Path, extra: dict[str, Any]) -> None:
    read = read_claude(settings_file(tmp_path, extra))
    assert [spec.event for spec in read.config.command_hooks] == ["PreToolUse"]
