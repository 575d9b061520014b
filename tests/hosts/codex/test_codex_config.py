"""Codex's hook files read as Codex 0.171.0 reads them: both hooks.json files and [hooks] in
config.toml, user first; problems named file:line:key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.codex.config import read_codex
from inspector.hosts.codex.trust import hook_hash


def _project(tmp_path: Path, hooks: object) -> Path:
    folder = tmp_path / "project" / ".codex"
    folder.mkdir(parents=True)
    (folder / "hooks.json").write_text(json.dumps({"hooks": hooks}, indent=2))
    return folder.parent


def test_user_and_project_files_load_user_first_and_toml_state_is_not_an_event(
    tmp_path: Path, home: Path
) -> None:
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "user-stop"\n'
        '[hooks.state."/x/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:0"\n'
    )
    handler = {"type": "command", "command": "python3 guard.py", "timeout": 5}
    project = _project(tmp_path, {"PreToolUse": [{"matcher": "^Bash$", "hooks": [handler]}]})

    read = read_codex(project)

    specs = read.config.command_hooks
    assert [(s.name, s.level, s.timeout_ms) for s in specs] == [
        ("Stop:user-stop", "user", 600_000),
        ("PreToolUse:guard.py", "project", 5_000),
    ]
    assert [w.finding.code for w in read.warnings] == ["codex-untrusted"] * 2


def test_a_bad_group_in_config_toml_is_named_by_file_line_and_key(tmp_path: Path) -> None:
    folder = tmp_path / "project" / ".codex"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(
        'model = "x"\n\n[[hooks.PreToolUse]]\nmatcher = "["\n[[hooks.PreToolUse.hooks]]\n'
        'type = "command"\ncommand = "guard"\n'
    )
    with pytest.raises(ConfigError) as raised:
        read_codex(folder.parent)
    assert (raised.value.line, raised.value.key) == (4, "hooks.PreToolUse[0].matcher")


def test_unknown_keys_and_events_load_with_codexs_words_and_a_did_you_mean(
    tmp_path: Path,
) -> None:
    handler = {"type": "command", "command": "guard", "timeot": 5}
    project = _project(tmp_path, {"PreToolUse": [{"hooks": [handler]}], "PreTooluse": []})

    read = read_codex(project)

    said = [
        (w.key, w.finding.code, w.finding.message)
        for w in read.warnings
        if w.finding.code != "codex-untrusted"
    ]
    assert said == [
        (
            "hooks.PreToolUse[0].hooks[0].timeot",
            "codex-unknown-setting",
            'timeot: ignored (did you mean "timeout"?)',
        ),
        (
            "hooks.PreTooluse",
            "codex-unknown-event",
            'unknown hook event "PreTooluse" (did you mean "PreToolUse"?):'
            " Codex never runs its hooks",
        ),
    ]
    assert read.warnings[0].line == 9  # the key's own line in the JSON


def test_an_mcp_tool_hook_is_listed_as_not_run_and_an_unknown_type_refused_in_codexs_words(
    tmp_path: Path,
) -> None:
    mcp = {"type": "mcp_tool", "server": "audit", "tool": "record"}
    project = _project(tmp_path, {"PostToolUse": [{"hooks": [mcp]}]})
    [spec] = read_codex(project).config.command_hooks
    assert (spec.name, spec.handler) == ("PostToolUse:mcp:record", "mcp_tool")
    assert spec.cannot_run == "calls audit/record: the inspector has no MCP server to call"

    project = _project(tmp_path / "other", {"PostToolUse": [{"hooks": [{"type": "http"}]}]})
    with pytest.raises(ConfigError) as raised:
        read_codex(project)
    assert raised.value.key == "hooks.PostToolUse[0].hooks[0].type"
    assert (
        "unknown variant `http`, expected one of `command`, `mcp_tool`, `prompt`, `agent`"
        in str(raised.value)
    )


def _state(home: Path, text: str) -> None:
    (home / ".codex").mkdir(exist_ok=True)
    (home / ".codex" / "config.toml").write_text(text)


def test_codex_s_switches_turn_hooks_off_and_say_which_are_not_trusted(
    tmp_path: Path, home: Path
) -> None:
    guard = {"type": "command", "command": "guard", "timeout": 5, "statusMessage": "checking"}
    other = {"type": "command", "command": "other"}
    project = _project(tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [guard, other]}]})
    hooks_json = project / ".codex" / "hooks.json"
    trusted = hook_hash("PreToolUse", "Bash", {**guard, "async": False})
    _state(
        home,
        f'[hooks.state."{hooks_json}:pre_tool_use:0:0"]\ntrusted_hash = "{trusted}"\n'
        f'[hooks.state."{hooks_json}:pre_tool_use:0:1"]\nenabled = false\n',
    )
    read = read_codex(project)
    assert [(s.name, s.enabled) for s in read.config.hooks] == [
        ("PreToolUse:guard", True),
        ("PreToolUse:other", False),
    ]
    assert [(w.hook, w.finding.code) for w in read.warnings] == [
        ("PreToolUse:other", "codex-hook-off")
    ]

    _state(home, "[features]\nhooks = false\n")
    read = read_codex(project)
    assert not any(spec.enabled for spec in read.config.hooks)
    [off] = [w for w in read.warnings if w.finding.code == "codex-hooks-off"]
    assert (off.line, off.key) == (2, "features.hooks")


def test_a_project_with_hooks_only_in_its_config_toml_is_recognised(tmp_path: Path) -> None:
    from inspector.hosts.codex.host import CodexHost

    project = tmp_path / "project"
    (project / ".codex").mkdir(parents=True)
    (project / ".codex" / "config.toml").write_text(
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\n'
    )
    other = tmp_path / "other"
    (other / ".codex").mkdir(parents=True)
    (other / ".codex" / "config.toml").write_text('model = "gpt-5.5"\n')

    assert CodexHost().recognises(project)
    assert not CodexHost().recognises(other)


@pytest.mark.parametrize(
    ("toml", "line", "key"),
    [
        ('model = "m"\n[features]\nhooks = "no"\n', 3, "features.hooks"),
        ('[hooks.state]\n"x" = 3\n', 2, "hooks.state.x"),
    ],
)
def test_a_switch_codex_refuses_is_named_by_file_line_and_key(
    tmp_path: Path, home: Path, toml: str, line: int, key: str
) -> None:
    project = _project(tmp_path, {})
    (project / ".codex" / "config.toml").write_text(toml)

    with pytest.raises(ConfigError, match="Codex refuses to load this file") as raised:
        read_codex(project)

    assert (raised.value.line, raised.value.key) == (line, key)
