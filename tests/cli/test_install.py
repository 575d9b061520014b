"""`hook-inspector install` / `uninstall` for Claude Code and j-cli: the relay goes in beside the
user's own hooks, and comes out leaving the files exactly as they were."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.hosts.claude.config import read_claude
from inspector.hosts.jcli.config import read_jcli

# A settings file as people keep them: CRLF, odd spacing, their own hooks on the events install
# uses (one of them empty), keys install never reads.
USERS_SETTINGS = (
    b'{\r\n  "model" : "opus",\r\n  "permissions": {"allow": ["Bash(ls:*)"]},\r\n'
    b'  "hooks": {\r\n'
    b'    "PreToolUse": [ {"matcher": "Bash", "hooks": [{"type": "command",'
    b' "command": "sh guard.sh", "timeout": 5}]} ],\r\n'
    b'    "Stop": [],\r\n'
    b'    "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command",'
    b' "command": "npx prettier --write"}, {"type": "command", "command": "sh lint.sh"}]}]\r\n'
    b"  }\r\n}\r\n"
)
RELAY = " relay --host claude"


def settings_of(project: Path) -> Path:
    return project / ".claude" / "settings.json"


def relay_handlers(settings: dict[str, object]) -> dict[str, list[dict[str, object]]]:
    """Per event, the groups whose handlers are the relay."""
    hooks = settings["hooks"]
    assert isinstance(hooks, dict)
    return {
        event: [
            group
            for group in groups
            if any(RELAY in handler["command"] for handler in group["hooks"])
        ]
        for event, groups in hooks.items()
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".claude").mkdir(parents=True)
    return folder


def test_install_then_uninstall_gives_back_the_users_settings_byte_for_byte(
    project: Path,
) -> None:
    file = settings_of(project)
    file.write_bytes(USERS_SETTINGS)
    assert main(["install", "claude", "--project", str(project)]) == 0
    installed = file.read_bytes()
    assert main(["install", "claude", "--project", str(project)]) == 0
    assert file.read_bytes() == installed  # idempotent
    settings = json.loads(installed)
    pre_tool_use = settings["hooks"]["PreToolUse"]
    assert pre_tool_use[0] == {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "sh guard.sh", "timeout": 5}],
    }
    assert len(pre_tool_use) == 2 and len(settings["hooks"]["PostToolUse"]) == 2
    assert all(len(groups) == 1 for groups in relay_handlers(settings).values())
    assert settings["model"] == "opus"
    assert (project / ".claude" / "settings.json.hook-inspector.bak").read_bytes() == (
        USERS_SETTINGS
    )

    assert main(["uninstall", "claude", "--project", str(project)]) == 0
    assert file.read_bytes() == USERS_SETTINGS
    assert sorted(path.name for path in file.parent.iterdir()) == ["settings.json"]


def test_the_installed_relay_runs_on_the_default_events_with_the_timeout_it_answers_within(
    project: Path,
) -> None:
    assert main(["install", "claude", "--project", str(project), "--timeout", "90"]) == 0
    settings = json.loads(settings_of(project).read_text())
    groups = relay_handlers(settings)
    assert {"PreToolUse", "PermissionRequest", "PostToolUse", "Stop"} <= groups.keys()
    (group,) = groups["PreToolUse"]
    (handler,) = group["hooks"]  # type: ignore[index]
    assert "matcher" not in group and handler["timeout"] == 90
    words = shlex.split(handler["command"])
    # this installation's Python, without site, straight to the relay's file: the fastest start
    assert words[:3] == [sys.executable, "-I", "-S"]
    assert Path(words[3]).is_file() and Path(words[3]).parts[-3:] == (
        "inspector",
        "relay",
        "run.py",
    )
    assert words[4:] == ["relay", "--host", "claude", "--timeout", "90"]
    loaded = read_claude(project)
    assert {spec.event for spec in loaded.config.command_hooks} == groups.keys()


def test_a_matcher_applies_to_tool_events_only(project: Path) -> None:
    argv = ["install", "claude", "--project", str(project)]
    assert main([*argv, "--events", "PreToolUse,SessionStart", "--matcher", "Bash|Write"]) == 0
    groups = relay_handlers(json.loads(settings_of(project).read_text()))
    assert groups["PreToolUse"][0]["matcher"] == "Bash|Write"
    assert "matcher" not in groups["SessionStart"][0]
    assert groups.keys() == {"PreToolUse", "SessionStart"}


def test_a_settings_file_install_made_is_removed_again(project: Path) -> None:
    assert main(["install", "claude", "--project", str(project)]) == 0
    assert settings_of(project).exists()
    assert main(["uninstall", "claude", "--project", str(project)]) == 0
    assert list((project / ".claude").iterdir()) == []


def test_hooks_the_user_added_after_install_stay_when_the_relay_goes(project: Path) -> None:
    file = settings_of(project)
    file.write_bytes(USERS_SETTINGS)
    assert main(["install", "claude", "--project", str(project)]) == 0
    settings = json.loads(file.read_text())
    added = {"hooks": [{"type": "command", "command": "sh notify.sh"}]}
    settings["hooks"]["Notification"].append(added)
    file.write_text(json.dumps(settings))
    assert main(["uninstall", "claude", "--project", str(project)]) == 0
    left = json.loads(file.read_text())
    assert left["hooks"]["Notification"] == [added]
    assert all(not groups for groups in relay_handlers(left).values())
    assert left["hooks"]["Stop"] == [] and left["model"] == "opus"


def test_user_level_settings_are_in_home(home: Path, project: Path) -> None:
    assert main(["install", "claude", "--user", "--events", "PreToolUse"]) == 0
    assert relay_handlers(json.loads((home / ".claude" / "settings.json").read_text()))
    assert not settings_of(project).exists()


def test_settings_that_are_not_json_are_refused_and_left_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = settings_of(project)
    file.write_text('{\n  "hooks": {,\n}\n')
    assert main(["install", "claude", "--project", str(project)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"{file}:2" in error
    assert file.read_text() == '{\n  "hooks": {,\n}\n'
    assert list(file.parent.iterdir()) == [file]


def test_hooks_that_are_not_an_object_are_refused_naming_the_key(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings_of(project).write_text('{\n  "hooks": []\n}\n')
    assert main(["install", "claude", "--project", str(project)]) == 2
    assert f"{settings_of(project)}:2: hooks:" in capsys.readouterr().err


def test_an_unknown_event_is_refused_with_a_suggestion(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "claude", "--project", str(project), "--events", "PreTooluse"]) == 2
    assert 'did you mean "PreToolUse"' in capsys.readouterr().err
    assert not settings_of(project).exists()


def test_jcli_install_adds_a_hook_folder_of_its_own_and_uninstall_removes_just_that(
    tmp_path: Path,
) -> None:
    own = tmp_path / ".jcli" / "hooks" / "guard"
    own.mkdir(parents=True)
    (own / "HOOK.yaml").write_text("events: [pre_tool_execution]\ncommand: ./guard.sh\n")
    argv = ["--project", str(tmp_path), "--events", "pre_tool_execution,stop", "--timeout", "20"]
    assert main(["install", "jcli", *argv]) == 0
    assert main(["install", "jcli", *argv]) == 0
    loaded = read_jcli(tmp_path)
    relays = [
        spec
        for spec in loaded.config.command_hooks
        if RELAY.replace("claude", "jcli") in spec.command
    ]
    assert sorted(spec.event for spec in relays) == ["pre_tool_execution", "stop"]
    assert {spec.timeout_ms for spec in relays} == {20_000}

    assert main(["uninstall", "jcli", "--project", str(tmp_path)]) == 0
    assert sorted(path.name for path in (tmp_path / ".jcli" / "hooks").iterdir()) == ["guard"]
    assert (own / "HOOK.yaml").read_text() == "events: [pre_tool_execution]\ncommand: ./guard.sh\n"


def test_jcli_leaves_a_folder_of_that_name_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = tmp_path / ".jcli" / "hooks" / "hook-inspector"
    theirs.mkdir(parents=True)
    (theirs / "HOOK.yaml").write_text("events: [stop]\ncommand: ./mine.sh\n")
    assert main(["install", "jcli", "--project", str(tmp_path)]) == 2
    assert main(["uninstall", "jcli", "--project", str(tmp_path)]) == 2
    assert "not hook-inspector's" in capsys.readouterr().err
    assert (theirs / "HOOK.yaml").read_text() == "events: [stop]\ncommand: ./mine.sh\n"


@pytest.mark.parametrize(
    "mine", [b'{"hooks": {"SubagentStop": []}}\n', b'{"hooks": {}}\n', b'{"hooks": {"Stop": []}}\n']
)
def test_the_users_empty_event_lists_and_hooks_stay_through_install_and_uninstall(
    project: Path, mine: bytes
) -> None:
    file = settings_of(project)
    file.write_bytes(mine)
    assert main(["install", "claude", "--project", str(project), "--events", "Stop"]) == 0
    assert main(["install", "claude", "--project", str(project), "--events", "PreToolUse"]) == 0
    installed = json.loads(file.read_bytes())["hooks"]
    assert json.loads(mine)["hooks"].items() <= {**installed, "Stop": []}.items()
    assert main(["uninstall", "claude", "--project", str(project)]) == 0
    assert file.read_bytes() == mine


def test_an_empty_event_list_added_after_install_stays_when_the_relay_goes(
    project: Path,
) -> None:
    file = settings_of(project)
    file.write_bytes(USERS_SETTINGS)
    assert main(["install", "claude", "--project", str(project)]) == 0
    settings = json.loads(file.read_text())
    settings["hooks"]["SubagentStop"] = []
    file.write_text(json.dumps(settings))
    assert main(["uninstall", "claude", "--project", str(project)]) == 0
    assert json.loads(file.read_text())["hooks"]["SubagentStop"] == []


@pytest.mark.parametrize(
    ("host", "file", "event"),
    [
        ("claude", ".claude/settings.json", "Stop"),
        ("gemini", ".gemini/settings.json", "AfterAgent"),
        ("codex", ".codex/hooks.json", "Stop"),
    ],
)
def test_a_users_emptied_group_is_not_taken_for_the_relays_when_it_goes(
    project: Path, host: str, file: str, event: str
) -> None:
    # the user's own empty group equals the relay's once its handler is out: uninstall must take
    # out the relay's, or the user's hook moves (and a Codex trust entry, keyed by its place, no
    # longer names it)
    settings = project / file
    settings.parent.mkdir(exist_ok=True)
    groups = [{"hooks": []}, {"hooks": [{"type": "command", "command": "x"}]}]
    mine = json.dumps({"hooks": {event: groups}}).encode()
    settings.write_bytes(mine)
    assert main(["install", host, "--project", str(project), "--events", event]) == 0
    assert main(["uninstall", host, "--project", str(project)]) == 0
    assert settings.read_bytes() == mine
