"""Gemini CLI's settings read into hooks: the user's and the project's files, matcher groups,
sequential, timeouts in milliseconds, hooksConfig's switches, and mistakes named at file:line
with the key Gemini CLI most likely meant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.gemini.config import read_gemini


def write(folder: Path, settings: object) -> Path:
    file = folder / ".gemini" / "settings.json"
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(settings, indent=2))
    return file


def group(*commands: str, **more: object) -> dict[str, object]:
    return {**more, "hooks": [{"type": "command", "command": command} for command in commands]}


def test_user_and_project_hooks_both_run_user_first(tmp_path: Path, home: Path) -> None:
    write(home, {"hooks": {"BeforeTool": [group("python3 user_guard.py")]}})
    project = tmp_path / "p"
    write(project, {"hooks": {"BeforeTool": [group("./guard.sh", matcher="run_shell_command")]}})
    read = read_gemini(project)
    specs = read.config.command_hooks
    assert [(s.name, s.level, s.matcher) for s in specs] == [
        ("BeforeTool:user_guard.py", "user", None),
        ("BeforeTool:guard.sh", "project", "run_shell_command"),
    ]
    assert read.project_dir == project and len(read.files) == 2
    assert specs[0].timeout_ms == 60_000 and specs[0].host == "gemini"


def test_a_handler_s_name_timeout_env_and_sequential_are_read(tmp_path: Path) -> None:
    handler = {"type": "command", "command": "g.sh", "name": "guard", "timeout": 1500}
    handler["env"] = {"MODE": "strict"}
    write(tmp_path, {"hooks": {"BeforeModel": [{"sequential": True, "hooks": [handler]}]}})
    [spec] = read_gemini(tmp_path).config.command_hooks
    assert (spec.name, spec.timeout_ms, spec.env, spec.sequential) == (
        "BeforeModel:guard",
        1500,
        (("MODE", "strict"),),
        True,
    )


def test_an_unknown_event_is_named_with_what_was_meant(tmp_path: Path) -> None:
    file = write(tmp_path, {"hooks": {"BeforeTools": [group("g.sh")]}})
    read = read_gemini(tmp_path)
    [spec] = read.config.hooks
    assert 'unknown hook event "BeforeTools" (did you mean "BeforeTool"?)' in spec.cannot_run
    [warning] = read.warnings
    assert str(warning).startswith(f"{file}:3: hooks.BeforeTools:")
    assert warning.finding.code == "gemini-unknown-event"


def test_an_unknown_key_is_a_warning_with_a_suggestion(tmp_path: Path) -> None:
    handler = {"type": "command", "command": "g.sh", "timeot": 10}
    write(tmp_path, {"hooks": {"BeforeTool": [{"matchers": "x", "hooks": [handler]}]}})
    said = [(w.key, w.finding.message) for w in read_gemini(tmp_path).warnings]
    assert said == [
        ("hooks.BeforeTool[0].matchers", 'matchers: ignored (did you mean "matcher"?)'),
        ("hooks.BeforeTool[0].hooks[0].timeot", 'timeot: ignored (did you mean "timeout"?)'),
    ]


def test_a_wrong_type_stops_with_file_line_and_key(tmp_path: Path) -> None:
    file = write(
        tmp_path, {"hooks": {"BeforeTool": [{"hooks": [{"command": "g", "timeout": "5s"}]}]}}
    )
    with pytest.raises(ConfigError) as error:
        read_gemini(tmp_path)
    assert str(error.value).startswith(f"{file}:")
    assert "timeout" in str(error.value) and "milliseconds" in str(error.value)


def test_a_hook_that_is_not_a_command_is_discarded_with_a_warning(tmp_path: Path) -> None:
    write(tmp_path, {"hooks": {"BeforeTool": [{"hooks": [{"type": "comand", "command": "g"}]}]}})
    read = read_gemini(tmp_path)
    assert read.config.hooks == ()
    [warning] = read.warnings
    assert warning.finding.code == "gemini-hook-discarded"
    assert 'did you mean "command"?' in warning.finding.message


def test_hooks_config_switches_hooks_off_all_or_by_name(tmp_path: Path) -> None:
    handler = {"type": "command", "command": "a.sh", "name": "audit"}
    hooks = {"BeforeTool": [{"hooks": [handler]}, group("b.sh")]}
    write(tmp_path, {"hooksConfig": {"disabled": ["audit"]}, "hooks": hooks})
    assert [s.enabled for s in read_gemini(tmp_path).config.hooks] == [False, True]
    write(tmp_path, {"hooksConfig": {"enabled": False}, "hooks": hooks})
    assert [s.enabled for s in read_gemini(tmp_path).config.hooks] == [False, False]


def test_a_matcher_on_an_event_without_one_is_a_warning(tmp_path: Path) -> None:
    write(tmp_path, {"hooks": {"BeforeModel": [group("g.sh", matcher="run_shell_command")]}})
    [warning] = read_gemini(tmp_path).warnings
    assert warning.finding.code == "gemini-matcher-ignored"


def test_a_folder_without_settings_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no \.gemini/settings\.json here"):
        read_gemini(tmp_path)


def test_settings_with_comments_are_read_as_gemini_cli_reads_them(tmp_path: Path) -> None:
    """Gemini CLI 0.61.0 reads settings.json through strip-json-comments (settings.ts)."""
    project = tmp_path / "project"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text(
        '{\n  // the guard\n  "hooks": {"BeforeTool": [{"matcher": "run_shell_command", /* x */\n'
        '    "hooks": [{"type": "command", "command": "true", "name": "guard"}]}]}\n}\n'
    )
    [spec] = read_gemini(project).config.command_hooks
    assert (spec.event, spec.matcher, spec.command) == ("BeforeTool", "run_shell_command", "true")


@pytest.mark.parametrize("timeout", ["1e400", "-1e400", "NaN", "Infinity"])
def test_a_timeout_that_is_not_a_finite_number_stops_with_file_line_and_key(
    tmp_path: Path, timeout: str
) -> None:
    file = write(tmp_path, {"hooks": {"BeforeTool": [group("g")]}})
    file.write_text(
        file.read_text().replace('"command": "g"', f'"command": "g", "timeout": {timeout}')
    )
    with pytest.raises(ConfigError) as error:
        read_gemini(tmp_path)
    assert str(error.value).startswith(f"{file}:")
    assert "timeout" in str(error.value) and "milliseconds" in str(error.value)
