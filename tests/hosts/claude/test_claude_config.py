"""Claude Code settings files: the layouts (project, project + local, user + project), the specs
they become, warnings for what is not run, and errors that name file, line and key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.claude.config import load_claude, read_claude
from inspector.hosts.claude.events import (  # checked against the CLIs in real_agents
    EVENTS,
    EVENTS_BY_VERSION,
)


def hooks(event: str, *commands: str, matcher: str | None = None, **more: Any) -> dict:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": c, **more} for c in commands]}
    if matcher is not None:
        group["matcher"] = matcher
    return {"hooks": {event: [group]}}


def write(folder: Path, name: str, settings: dict | str) -> Path:
    path = folder / ".claude" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    text = settings if isinstance(settings, str) else json.dumps(settings, indent=2)
    path.write_text(text)
    return path


def error_of(path: Path, settings: dict | str) -> ConfigError:
    write(path, "settings.json", settings)
    with pytest.raises(ConfigError) as caught:
        load_claude(path)
    return caught.value


# ---- layouts -----------------------------------------------------------------------------------


def test_a_project_folder_with_settings_json(tmp_path: Path) -> None:
    project = tmp_path / "project"
    file = write(
        project,
        "settings.json",
        hooks("PreToolUse", 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py', matcher="Bash"),
    )
    settings = read_claude(project)
    [spec] = settings.config.hooks
    assert (spec.name, spec.host, spec.event, spec.matcher) == (
        "PreToolUse:guard.py",
        "claude",
        "PreToolUse",
        "Bash",
    )
    assert (spec.timeout_ms, spec.level, spec.source, spec.enabled) == (
        600_000,
        "project",
        str(file),
        True,
    )
    assert settings.config.host == "claude" and settings.config.path == file
    assert settings.project_dir == project and settings.files == (file,)
    assert settings.warnings == ()


def test_project_and_local_settings_are_merged(tmp_path: Path) -> None:
    shared = write(tmp_path, "settings.json", hooks("Stop", "./check.sh", timeout=5))
    local = write(tmp_path, "settings.local.json", hooks("Stop", "./check.sh", timeout=0.5))
    settings = read_claude(tmp_path)
    assert [(s.name, s.level, s.timeout_ms, s.priority) for s in settings.config.hooks] == [
        ("Stop:check.sh", "project", 5000, 0),
        ("Stop:check.sh#2", "local", 500, 1),
    ]
    assert settings.files == (shared, local)


def test_user_settings_come_first(tmp_path: Path, home: Path) -> None:
    user = write(home, "settings.json", hooks("PostToolUse", "log-tool"))
    project = write(tmp_path / "p", "settings.json", hooks("PostToolUse", "format.sh"))
    settings = read_claude(tmp_path / "p")
    assert [(s.name, s.level) for s in settings.config.hooks] == [
        ("PostToolUse:log-tool", "user"),
        ("PostToolUse:format.sh", "project"),
    ]
    assert settings.files == (user, project) and settings.config.path == project


def test_the_settings_file_or_the_claude_folder_stands_for_the_project(tmp_path: Path) -> None:
    write(tmp_path, "settings.json", hooks("Stop", "a.sh"))
    local = write(tmp_path, "settings.local.json", hooks("Stop", "b.sh"))
    for given in (local, tmp_path / ".claude"):
        settings = read_claude(given)
        assert [s.command for s in settings.config.hooks] == ["a.sh", "b.sh"]
        assert settings.project_dir == tmp_path


def test_any_other_json_file_is_read_alone(tmp_path: Path) -> None:
    file = tmp_path / "hooks.json"
    file.write_text(json.dumps(hooks("Stop", "x.sh")))
    settings = read_claude(file)
    assert [s.command for s in settings.config.hooks] == ["x.sh"]
    assert settings.project_dir == tmp_path


def test_the_user_file_is_not_read_twice_when_home_is_the_project(home: Path) -> None:
    write(home, "settings.json", hooks("Stop", "x.sh"))
    assert [s.level for s in load_claude(home).hooks] == ["project"]


def test_names_follow_the_script_or_the_first_word(tmp_path: Path) -> None:
    write(
        tmp_path,
        "settings.json",
        hooks("PreToolUse", "node hooks/guard.mjs --strict", "jq -r .tool_name", "jq -c ."),
    )
    assert [s.name for s in load_claude(tmp_path).hooks] == [
        "PreToolUse:guard.mjs",
        "PreToolUse:jq",
        "PreToolUse:jq#2",
    ]


# ---- warnings ----------------------------------------------------------------------------------


def test_handlers_host_mode_cannot_run_are_listed_with_why(tmp_path: Path) -> None:
    settings_json = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "prompt", "prompt": "Safe? $ARGUMENTS"},
                        {"type": "http", "url": "http://localhost:8080/hook"},
                        {"type": "command", "command": "guard.sh"},
                    ],
                }
            ]
        }
    }
    file = write(tmp_path, "settings.json", settings_json)
    settings = read_claude(tmp_path)
    assert [(s.name, s.handler, s.command) for s in settings.config.hooks] == [
        ("PreToolUse:prompt", "prompt", "prompt: Safe? $ARGUMENTS"),
        ("PreToolUse:http", "http", "http: http://localhost:8080/hook"),
        ("PreToolUse:guard.sh", "command", "guard.sh"),
    ]
    assert [bool(s.cannot_run) for s in settings.config.hooks] == [True, False, False]
    [warning] = settings.warnings
    assert (warning.file, warning.line, warning.key, warning.hook) == (
        str(file),
        8,
        "hooks.PreToolUse[0].hooks[0].type",
        "PreToolUse:prompt",
    )
    assert warning.finding.code == "claude-handler-not-run"
    assert "no model" in warning.finding.message


def test_keys_the_inspector_does_not_emulate_are_warned_about(tmp_path: Path) -> None:
    write(tmp_path, "settings.json", hooks("Stop", "x.sh", matcher="Bash", async_=True))
    text = (tmp_path / ".claude" / "settings.json").read_text().replace("async_", "async")
    (tmp_path / ".claude" / "settings.json").write_text(text)
    found = [(w.key, w.finding.code, w.hook) for w in read_claude(tmp_path).warnings]
    assert found == [
        ("hooks.Stop[0].hooks[0].async", "claude-not-emulated", "Stop:x.sh"),
        ("hooks.Stop[0].matcher", "claude-matcher-ignored", "Stop:x.sh"),
    ]


def test_unknown_keys_are_warned_about(tmp_path: Path) -> None:
    write(tmp_path, "settings.json", hooks("Stop", "x.sh", timout=5))
    [warning] = read_claude(tmp_path).warnings
    assert (warning.key, warning.hook) == ("hooks.Stop[0].hooks[0].timout", "Stop:x.sh")
    assert warning.finding.message == 'timout: ignored (did you mean "timeout"?)'


@pytest.mark.parametrize("version", EVENTS_BY_VERSION)
def test_every_event_name_of_each_known_claude_code_loads(tmp_path: Path, version: str) -> None:
    names = EVENTS_BY_VERSION[version]
    settings = {"hooks": {event: hooks(event, "x")["hooks"][event] for event in names}}
    write(tmp_path, "settings.json", settings)
    loaded = read_claude(tmp_path)
    assert [spec.event for spec in loaded.config.command_hooks] == list(names)
    assert all(spec.enabled for spec in loaded.config.command_hooks)
    assert loaded.warnings == ()


def test_the_reader_knows_the_newest_releases_events(tmp_path: Path) -> None:
    assert (len(EVENTS_BY_VERSION["2.1.197"]), len(EVENTS)) == (30, 34)
    newer = {"PreModelSwitch", "PostModelSwitch", "DirectoryAdded", "PreSkillShellCommand"}
    assert set(EVENTS) - set(EVENTS_BY_VERSION["2.1.197"]) == newer
    write(tmp_path, "settings.json", hooks("PreModelSwitch", "models.sh", matcher="opus"))
    loaded = read_claude(tmp_path)
    [spec] = loaded.config.hooks
    assert (spec.name, spec.enabled, loaded.warnings) == ("PreModelSwitch:models.sh", True, ())
    assert spec.matcher == "opus"


def test_an_unknown_event_name_loads_the_file_and_says_its_hooks_never_run(
    tmp_path: Path,
) -> None:
    settings = {
        "hooks": {**hooks("PreToolUser", "guard.sh")["hooks"], **hooks("Stop", "s")["hooks"]}
    }
    write(tmp_path, "settings.json", settings)
    loaded = read_claude(tmp_path)
    [guard, stop] = loaded.config.hooks
    assert (guard.name, stop.cannot_run) == ("PreToolUser:guard.sh", "")
    assert guard.cannot_run.startswith('unknown hook event "PreToolUser"')
    [warning] = loaded.warnings
    assert (warning.finding.code, warning.line, warning.key, warning.hook) == (
        "claude-unknown-event",
        3,
        "hooks.PreToolUser",
        "PreToolUser:guard.sh",
    )
    assert warning.finding.message == (
        'unknown hook event "PreToolUser" (did you mean "PreToolUse"?): Claude Code 2.1.332, '
        "the newest release known here, never runs its hooks"
    )


def test_an_event_newer_than_every_known_release_is_named_with_where_it_is(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, "settings.json", hooks("PostDeploy", "tell.sh"))
    loaded = read_claude(tmp_path)
    [spec] = loaded.config.hooks
    [warning] = loaded.warnings
    assert (spec.name, spec.cannot_run) == ("PostDeploy:tell.sh", warning.finding.message)
    assert (warning.file, warning.line, warning.key) == (str(path), 3, "hooks.PostDeploy")
    assert warning.finding.message == (
        'unknown hook event "PostDeploy": Claude Code 2.1.332, the newest release known here, '
        "never runs its hooks"
    )


def test_disable_all_hooks_disables_every_file(tmp_path: Path, home: Path) -> None:
    write(home, "settings.json", {"disableAllHooks": True})
    write(tmp_path, "settings.json", hooks("Stop", "x.sh"))
    settings = read_claude(tmp_path)
    assert [s.enabled for s in settings.config.hooks] == [False]
    assert settings.config.command_hooks == ()
    assert [(w.key, w.finding.code) for w in settings.warnings] == [
        ("disableAllHooks", "claude-hooks-disabled")
    ]


# ---- errors ------------------------------------------------------------------------------------


def test_a_json_syntax_error_names_the_line(tmp_path: Path) -> None:
    error = error_of(tmp_path, '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n')
    assert error.line == 3 and error.message.startswith("invalid JSON")


@pytest.mark.parametrize(
    ("settings", "key", "line", "message"),
    [
        ([], None, 1, "the top level must be a JSON object, got a list"),
        ({"hooks": []}, "hooks", 2, "expected an object, got a list"),
        ({"hooks": {"Stop": {}}}, "hooks.Stop", 3, "expected a list of matcher groups"),
        ({"hooks": {"Stop": ["x"]}}, "hooks.Stop[0]", 4, "expected an object"),
        ({"hooks": {"Stop": [{}]}}, "hooks.Stop[0].hooks", 4, "is required"),
        (
            hooks("PreToolUse", "x", matcher=3),
            "hooks.PreToolUse[0].matcher",
            11,
            "expected a string",
        ),
        (
            hooks("PreToolUse", "x", matcher="mcp__(.*"),
            "hooks.PreToolUse[0].matcher",
            11,
            "invalid regex",
        ),
        ({"hooks": {"Stop": [{"hooks": [{}]}]}}, "hooks.Stop[0].hooks[0].type", 6, "is required"),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "script"}]}]}},
            "hooks.Stop[0].hooks[0].type",
            7,
            'unknown handler type "script"',
        ),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}},
            "hooks.Stop[0].hooks[0].command",
            6,
            "is required",
        ),
        (hooks("Stop", " "), "hooks.Stop[0].hooks[0].command", 8, "must not be empty"),
        (
            hooks("Stop", "x", timeout=-1),
            "hooks.Stop[0].hooks[0].timeout",
            9,
            "expected a positive number of seconds, got an integer (-1)",
        ),
        (
            hooks("Stop", "x", timeout="30"),
            "hooks.Stop[0].hooks[0].timeout",
            9,
            "expected a positive number of seconds",
        ),
    ],
)
def test_errors_name_file_line_and_key(
    tmp_path: Path, settings: Any, key: str | None, line: int, message: str
) -> None:
    error = error_of(tmp_path, settings)
    assert (error.file, error.key, error.line) == (
        str(tmp_path / ".claude" / "settings.json"),
        key,
        line,
    )
    assert error.message.startswith(message)


def test_a_missing_path_or_an_empty_project_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file or folder"):
        load_claude(tmp_path / "nowhere")
    with pytest.raises(ConfigError, match=r"no \.claude/settings\.json"):
        load_claude(tmp_path)


def test_an_error_in_the_user_file_names_that_file(tmp_path: Path, home: Path) -> None:
    user = write(home, "settings.json", {"hooks": {"Stop": {}}})
    write(tmp_path, "settings.json", hooks("Stop", "x.sh"))
    with pytest.raises(ConfigError) as caught:
        load_claude(tmp_path)
    assert caught.value.file == str(user) and caught.value.key == "hooks.Stop"
