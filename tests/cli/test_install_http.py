"""`hook-inspector install claude --http`: Claude Code's own `http` handlers to the inspector, in
the project's settings.local.json, with the token in a header and nowhere a commit would take
it; taken out again leaving the files exactly as they were."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.hosts.http_endpoint import endpoint_file, read_endpoint

# A personal settings.local.json as people keep them: CRLF, their own hook and permissions.
USERS_LOCAL = (
    b'{\r\n  "permissions": {"allow": ["Bash(npm test:*)"]},\r\n  "hooks": {\r\n'
    b'    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",'
    b' "command": "sh mine.sh"}]}]\r\n  }\r\n}\r\n'
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".claude").mkdir(parents=True)
    return folder


def local_of(project: Path) -> Path:
    return project / ".claude" / "settings.local.json"


def http_handlers(settings: dict[str, object]) -> dict[str, list[dict[str, object]]]:
    """Per event, the http handlers in `settings`."""
    hooks = settings["hooks"]
    assert isinstance(hooks, dict)
    return {
        event: [
            handler for group in groups for handler in group["hooks"] if handler["type"] == "http"
        ]
        for event, groups in hooks.items()
    }


def install(project: Path, *more: str) -> int:
    return main(["install", "claude", "--http", "--project", str(project), *more])


def test_install_http_writes_http_handlers_with_the_token_into_settings_local_json(
    project: Path,
) -> None:
    assert install(project, "--timeout", "90") == 0
    endpoint = read_endpoint()
    assert endpoint is not None
    handlers = http_handlers(json.loads(local_of(project).read_text()))
    # every default event but SessionStart, on which Claude Code sends no HTTP hook
    assert {"PreToolUse", "PermissionRequest", "PostToolUse", "Stop"} <= handlers.keys()
    assert "SessionStart" not in handlers
    for (handler,) in handlers.values():
        assert handler == {
            "type": "http",
            "url": f"http://127.0.0.1:{endpoint.port}/hook-inspector/claude?timeout=90",
            "headers": {"Authorization": f"Bearer {endpoint.token}"},
            "timeout": 90,
        }
    assert not (project / ".claude" / "settings.json").exists()  # the committed file: untouched


def test_install_http_twice_changes_nothing_and_uninstall_gives_back_the_bytes(
    project: Path,
) -> None:
    local = local_of(project)
    local.write_bytes(USERS_LOCAL)
    assert install(project, "--matcher", "Bash") == 0
    installed = local.read_bytes()
    assert install(project, "--matcher", "Bash") == 0
    assert local.read_bytes() == installed  # the same port and token, the same groups
    settings = json.loads(installed)
    assert settings["hooks"]["PreToolUse"][0]["hooks"] == [
        {"type": "command", "command": "sh mine.sh"}
    ]
    assert settings["hooks"]["PreToolUse"][1]["matcher"] == "Bash"
    assert "matcher" not in settings["hooks"]["Stop"][0]

    assert main(["uninstall", "claude", "--project", str(project)]) == 0
    assert local.read_bytes() == USERS_LOCAL
    assert not (project / ".claude" / "settings.local.json.hook-inspector.bak").exists()


def test_uninstall_removes_a_settings_local_json_install_made(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert install(project) == 0
    assert main(["uninstall", "claude", "--project", str(project)]) == 0
    assert list((project / ".claude").iterdir()) == []
    assert "took the HTTP hooks out of" in capsys.readouterr().out


def test_the_token_file_is_this_users_alone(project: Path) -> None:
    assert install(project) == 0
    file = endpoint_file()
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert stat.S_IMODE(file.parent.stat().st_mode) == 0o700


def test_a_token_file_others_may_read_is_refused_and_nothing_is_written(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert install(project) == 0
    main(["uninstall", "claude", "--project", str(project)])
    os.chmod(endpoint_file(), 0o644)
    assert install(project) != 0
    assert "other users may use it" in capsys.readouterr().err
    assert not local_of(project).exists()


def test_session_start_is_refused_for_http_hooks(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert install(project, "--events", "PreToolUse,SessionStart") != 0
    assert "sends no HTTP hooks on SessionStart" in capsys.readouterr().err
    assert not local_of(project).exists()


def test_user_settings_that_are_a_link_are_refused_the_token(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dotfiles = tmp_path / "dotfiles" / "settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text("{}\n")
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").symlink_to(dotfiles)
    assert main(["install", "claude", "--http", "--user"]) != 0
    assert "is a link" in capsys.readouterr().err
    assert dotfiles.read_text() == "{}\n"


def test_install_without_http_takes_the_http_handlers_out_of_a_shared_user_file(
    home: Path,
) -> None:
    assert main(["install", "claude", "--http", "--user", "--events", "Stop"]) == 0
    assert main(["install", "claude", "--user", "--events", "Stop"]) == 0
    [group] = json.loads((home / ".claude" / "settings.json").read_text())["hooks"]["Stop"]
    assert [handler["type"] for handler in group["hooks"]] == ["command"]


def test_a_settings_local_json_git_would_commit_is_named_in_a_warning(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    assert install(project) == 0
    said = capsys.readouterr().out
    assert "git does not ignore" in said and "settings.local.json" in said
    (project / ".gitignore").write_text(".claude/settings.local.json\n")
    assert install(project) == 0
    assert "git does not ignore" not in capsys.readouterr().out
