"""The real Codex CLI (pinned in codex_cli.py) run offline against a fake Responses API, with
hooks that record what they get: what the real host does with a hook's answer."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from codex_cli import CodexCli, CodexRun, codex_home
from codex_fixtures import codex_cli, codex_project  # noqa: F401 (fixtures used by name)
from fake_responses import FakeResponses, Reply, exec_command
from recorded_hooks import read_calls, recorder

from inspector.hosts.codex.config import read_codex
from inspector.hosts.codex.trust import hook_hash, hook_key
from inspector.hosts.codex.trust_file import trust, trusted_text

JSONObject = dict[str, Any]

REASON = "rm -rf is not allowed in this project"  # what hooks/record.py says when it refuses
RISKY = "touch made.txt && rm -rf scratch"
PROMPT = "Tidy up the project."


def write_hooks(project: Path, hooks: JSONObject) -> None:
    (project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}, indent=2))


def on(event: str, command: str, matcher: str | None = None) -> JSONObject:
    group: JSONObject = {"hooks": [{"type": "command", "command": command}]}
    return {event: [group if matcher is None else {"matcher": matcher, **group}]}


def play(
    cli: CodexCli, project: Path, home: Path, script: list[Reply], **options: Any
) -> tuple[CodexRun, FakeResponses]:
    with FakeResponses(script) as api:
        run = cli.run(project, PROMPT, api_url=api.url, home=home, **options)
    assert (run.exit_code, run.completed) == (0, True), run.stderr
    assert api.unscripted == 0
    return run, api


@pytest.mark.parametrize("answer", ["exit-2", "deny"])
def test_a_pre_tool_use_hook_refuses_a_destructive_command_and_the_model_is_told_why(
    codex_cli: CodexCli, codex_project: Path, home: Path, answer: str
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    command = recorder(log, answer)
    write_hooks(codex_project, {**on("PreToolUse", command, "Bash"), **on("PostToolUse", command)})
    script = [Reply(tool_calls=(exec_command(RISKY, "call_1"),)), Reply("Understood.")]
    run, api = play(codex_cli, codex_project, home, script, bypass_hook_trust=True)

    assert not (codex_project / "made.txt").exists()
    assert run.commands() == []
    assert [call.event for call in read_calls(log)] == ["PreToolUse"]  # it never ran
    assert api.told("call_1") == f"Command blocked by PreToolUse hook: {REASON}. Command: {RISKY}"


def test_a_command_no_hook_refuses_runs_and_post_tool_use_gets_its_output(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    command = recorder(log, "deny")  # it refuses rm -rf only
    write_hooks(codex_project, {**on("PreToolUse", command), **on("PostToolUse", command)})
    script = [
        Reply(tool_calls=(exec_command("touch made.txt && echo made", "call_1"),)),
        Reply("Done."),
    ]
    _, api = play(codex_cli, codex_project, home, script, bypass_hook_trust=True)

    assert (codex_project / "made.txt").exists()
    pre, post = read_calls(log)
    assert pre.payload["tool_input"] == {"command": "touch made.txt && echo made"}
    assert (post.event, post.payload["tool_response"]) == ("PostToolUse", "made\n")
    assert "Output:\nmade\n" in api.told("call_1")


def test_a_json_allow_with_updated_input_runs_the_rewritten_command(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    rewrite = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "updatedInput": {"command": "touch rewritten.txt"},
    }
    answer = json.dumps({"hookSpecificOutput": rewrite})
    write_hooks(codex_project, on("PreToolUse", f"cat > /dev/null; echo {shlex.quote(answer)}"))
    script = [Reply(tool_calls=(exec_command("touch asked.txt", "call_1"),)), Reply("Done.")]
    play(codex_cli, codex_project, home, script, bypass_hook_trust=True)

    assert (codex_project / "rewritten.txt").exists()
    assert not (codex_project / "asked.txt").exists()


def test_hooks_nobody_trusted_do_not_run(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    write_hooks(codex_project, on("PreToolUse", recorder(log, "exit-2")))
    script = [Reply(tool_calls=(exec_command("touch made.txt", "call_1"),)), Reply("Done.")]
    play(codex_cli, codex_project, home, script)

    assert read_calls(log) == []
    assert (codex_project / "made.txt").exists()


def test_a_hook_trusted_by_install_s_hash_runs_without_the_bypass_flag(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    handler = {"type": "command", "command": recorder(log, "exit-2"), "timeout": 30}
    file = codex_project / ".codex" / "hooks.json"
    file.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}})
    )
    key = hook_key(file, "PreToolUse", 0, 0)
    _trust(home, file, {key: hook_hash("PreToolUse", "Bash", handler)})
    script = [Reply(tool_calls=(exec_command(RISKY, "call_1"),)), Reply("Understood.")]
    _, api = play(codex_cli, codex_project, home, script)

    assert [call.event for call in read_calls(log)] == ["PreToolUse"]
    assert api.told("call_1").startswith(f"Command blocked by PreToolUse hook: {REASON}.")


def test_a_user_s_hook_is_trusted_by_the_hash_the_reader_gives_it(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    handler = {
        "type": "command",
        "command": recorder(log),
        "timeout": 30,
        "statusMessage": "Logging",
    }
    file = codex_project / ".codex" / "hooks.json"
    file.write_text(json.dumps({"hooks": {"Stop": [{"matcher": "ignored", "hooks": [handler]}]}}))
    key = hook_key(file, "Stop", 0, 0)  # Stop has no matcher: Codex hashes it without one
    _trust(home, file, {key: hook_hash("Stop", None, handler)})
    assert [w.finding.code for w in read_codex(codex_project).warnings] == ["codex-matcher-ignored"]
    play(codex_cli, codex_project, home, [Reply("Done.")])

    assert [call.event for call in read_calls(log)] == ["Stop"]


def _trust(home: Path, file: Path, entries: dict[str, str]) -> None:
    """Trust `entries` of `file` in config.toml as install does."""
    config = codex_home(home) / "config.toml"
    trust(config, trusted_text(config, file, entries), len(entries))
