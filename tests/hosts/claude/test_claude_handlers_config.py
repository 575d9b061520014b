"""Every handler type of a Claude Code 2.1.332 settings file is read with its own fields: http
handlers with their request, the newer command fields, and the types host mode cannot run; a
bad value is an error at its file, line and key, with a suggestion when one is close."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import HttpTarget
from inspector.hosts.claude.config import read_claude
from tests.hosts.claude.test_claude_config import error_of, write


def handlers(event: str, *entries: dict[str, Any]) -> dict[str, Any]:
    return {"hooks": {event: [{"hooks": list(entries)}]}}


def test_an_http_handler_becomes_a_hook_with_its_request(tmp_path: Path) -> None:
    http = {
        "type": "http",
        "url": "http://127.0.0.1:9/hook",
        "headers": {"Authorization": "Bearer $TOKEN"},
        "allowedEnvVars": ["TOKEN"],
        "timeout": 5,
        "onFailure": "block",
        "statusMessage": "Asking the guard",
    }
    write(tmp_path, "settings.json", handlers("PreToolUse", http))
    settings = read_claude(tmp_path)
    [spec] = settings.config.command_hooks
    assert (spec.name, spec.handler, spec.timeout_ms, spec.on_failure, spec.cannot_run) == (
        "PreToolUse:http",
        "http",
        5000,
        "block",
        "",
    )
    assert spec.http == HttpTarget(
        "http://127.0.0.1:9/hook", (("Authorization", "Bearer $TOKEN"),), ("TOKEN",)
    )
    assert settings.warnings == ()


def test_the_settings_limit_narrows_every_http_handlers_variables(tmp_path: Path) -> None:
    http = {
        "type": "http",
        "url": "https://hooks.example.com/x",
        "headers": {"A": "$ONE", "B": "$TWO"},
        "allowedEnvVars": ["ONE", "TWO", "THREE"],
    }
    write(tmp_path, "settings.json", {**handlers("Stop", http), "httpHookAllowedEnvVars": ["ONE"]})
    write(tmp_path, "settings.local.json", {"httpHookAllowedEnvVars": ["THREE"]})
    [spec] = read_claude(tmp_path).config.hooks
    assert spec.http is not None
    assert spec.http.allowed_env_vars == ("ONE", "THREE")  # the lists of both files merge


def test_the_newer_command_fields_are_read(tmp_path: Path) -> None:
    command = {
        "type": "command",
        "command": "guard.sh",
        "shell": "bash",
        "onFailure": "block",
        "once": True,
        "async": False,
    }
    write(tmp_path, "settings.json", handlers("PreToolUse", command))
    settings = read_claude(tmp_path)
    [spec] = settings.config.hooks
    assert (spec.handler, spec.on_failure, spec.once) == ("command", "block", True)
    assert settings.warnings == ()


def test_an_mcp_tool_handler_is_listed_with_what_claude_code_would_do(tmp_path: Path) -> None:
    tool = {"type": "mcp_tool", "server": "guard", "tool": "vet", "onFailure": "refuse"}
    write(tmp_path, "settings.json", handlers("PreToolUse", tool))
    settings = read_claude(tmp_path)
    [spec] = settings.config.hooks
    assert (spec.name, spec.command, spec.on_failure) == (
        "PreToolUse:mcp_tool",
        "mcp_tool: guard/vet",
        "block",  # any value but "continue" reads as "block" for an mcp_tool handler
    )
    assert "MCP server" in spec.cannot_run
    codes = [(w.key, w.finding.code) for w in settings.warnings]
    assert codes == [
        ("hooks.PreToolUse[0].hooks[0].onFailure", "claude-unknown-setting"),
        ("hooks.PreToolUse[0].hooks[0].type", "claude-handler-not-run"),
    ]


def test_a_key_of_another_handler_type_is_warned_about(tmp_path: Path) -> None:
    http = {"type": "http", "url": "http://127.0.0.1:9/", "command": "x", "header": {}}
    write(tmp_path, "settings.json", handlers("Stop", http))
    messages = [(w.key, w.finding.message) for w in read_claude(tmp_path).warnings]
    assert messages == [
        ("hooks.Stop[0].hooks[0].command", "command: ignored"),
        ("hooks.Stop[0].hooks[0].header", 'header: ignored (did you mean "headers"?)'),
    ]


HANDLER = "hooks.Stop[0].hooks[0]"


@pytest.mark.parametrize(
    ("entry", "key", "message"),
    [
        ({"type": "htp", "url": "http://x/"}, "type", 'unknown handler type "htp" (did you mean'),
        ({"type": "http"}, "url", "is required"),
        ({"type": "http", "url": "localhost:8080"}, "url", "expected an http:// or https:// URL"),
        ({"type": "http", "url": "http://x/", "onFailure": "blok"}, "onFailure", '"blok" (did'),
        ({"type": "http", "url": "http://x/", "headers": {"A": 1}}, "headers.A", "expected a str"),
        ({"type": "http", "url": "http://x/", "allowedEnvVars": "A"}, "allowedEnvVars", "expec"),
        ({"type": "command", "command": "x", "shell": "zsh"}, "shell", '"zsh": expected "bash"'),
        ({"type": "command", "command": "x", "async": "yes"}, "async", "expected true or false"),
        ({"type": "mcp_tool", "server": "s"}, "tool", "is required"),
        ({"type": "prompt", "prompt": 3}, "prompt", "expected a string"),
        ({"type": "agent", "prompt": "p", "timeout": 0}, "timeout", "expected a positive number"),
        ({"type": "command", "command": "x", "timeout": 1e400}, "timeout", "expected a positive"),
        ({"type": "command", "command": "x", "timeout": float("nan")}, "timeout", "expected a"),
    ],
)
def test_bad_handler_values_name_file_line_and_key(
    tmp_path: Path, entry: dict[str, Any], key: str, message: str
) -> None:
    error = error_of(tmp_path, handlers("Stop", entry))
    assert (error.file, error.key) == (
        str(tmp_path / ".claude" / "settings.json"),
        f"{HANDLER}.{key}",
    )
    assert error.line > 1
    assert error.message.startswith(message), error.message


def test_an_http_handler_on_session_start_is_listed_as_never_sent(tmp_path: Path) -> None:
    http = {"type": "http", "url": "http://127.0.0.1:9/hook"}
    write(tmp_path, "settings.json", handlers("SessionStart", http))
    settings = read_claude(tmp_path)
    [spec] = settings.config.hooks
    assert "skips http handlers on SessionStart" in spec.cannot_run
    [warning] = settings.warnings
    assert warning.finding.code == "claude-handler-not-run"


def test_an_http_handler_outside_the_allowed_urls_is_listed_as_never_sent(
    tmp_path: Path,
) -> None:
    near = {"type": "http", "url": "http://127.0.0.1:8080/hook"}
    far = {"type": "http", "url": "https://hooks.example.com/x"}
    settings = {**handlers("Stop", near, far), "allowedHttpHookUrls": ["http://127.0.0.1:*"]}
    write(tmp_path, "settings.json", settings)
    specs = read_claude(tmp_path).config.hooks
    assert [bool(spec.cannot_run) for spec in specs] == [False, True]
    assert "allowedHttpHookUrls" in specs[1].cannot_run
    write(tmp_path, "settings.local.json", {"allowedHttpHookUrls": []})  # merged: adds none
    assert [bool(spec.cannot_run) for spec in read_claude(tmp_path).config.hooks] == [False, True]
    write(tmp_path, "settings.json", {**handlers("Stop", near), "allowedHttpHookUrls": []})
    [spec] = read_claude(tmp_path).config.hooks
    assert spec.cannot_run  # an empty list allows no http hook
