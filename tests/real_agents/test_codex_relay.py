"""A real `codex exec` watched and decided through hook-inspector, as a user sets it up:
`hook-inspector install codex --project DIR` puts the relay into .codex/hooks.json and trusts it
in ~/.codex/config.toml (so Codex runs it with no bypass flag), the relay reaches a real
`hook-inspector serve`, and the Codex hook in serve's own config decides. What is checked is
what the real CLI did: the files its shell made or removed, and what it told the model."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from codex_cli import CodexCli
from codex_fixtures import codex_cli, codex_project  # noqa: F401 (fixtures used by name)
from fake_responses import FakeResponses, Reply, ToolCall, exec_command
from test_claude_relay import HOOK_INSPECTOR, serving, socket_path  # noqa: F401 (fixture)

from inspector.hosts.codex.turn import blocked_words

PROMPT = "Tidy up the project."
GUARD_REASON = "the scratch folder stays"
# A PreToolUse guard as people write them: exit 2 with the reason on stderr.
GUARD = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
    "import json, sys; event = json.load(sys.stdin); "
    "command = event.get('tool_input', {}).get('command', ''); "
    f"sys.exit(print({GUARD_REASON!r}, file=sys.stderr) or 2 if 'scratch' in command else 0)"
)


def install(project: Path, socket: Path, events: str = "PreToolUse") -> str:
    argv = [str(HOOK_INSPECTOR), "install", "codex", "--project", str(project)]
    argv += ["--events", events, "--matcher", "Bash", "--socket", str(socket)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout


def inspector_config(folder: Path) -> Path:
    """serve's config: one Codex PreToolUse hook on Bash, the guard."""
    hook = {"kind": "command", "host": "codex", "event": "PreToolUse", "matcher": "Bash"}
    config = folder / "inspector.yaml"
    config.write_text(json.dumps({"hooks": {"guard": {**hook, "command": GUARD}}}))
    return config


def play(cli: CodexCli, project: Path, home: Path, command: str) -> FakeResponses:
    script = [Reply(tool_calls=(exec_command(command, "call_1"),)), Reply("Done.")]
    with FakeResponses(script) as api:
        run = cli.run(project, PROMPT, api_url=api.url, home=home)
    assert (run.exit_code, run.completed) == (0, True), run.stderr
    assert api.unscripted == 0
    return api


def test_the_inspector_blocks_a_command_and_it_never_runs(
    codex_cli: CodexCli, codex_project: Path, home: Path, socket_path: Path
) -> None:
    scratch = codex_project / "scratch"
    scratch.mkdir()
    (scratch / "keep.txt").write_text("precious")
    install(codex_project, socket_path)
    with serving(inspector_config(codex_project.parent), socket_path) as journal:
        api = play(codex_cli, codex_project, home, "rm -r scratch")

    assert (scratch / "keep.txt").read_text() == "precious"
    assert api.told("call_1") == blocked_words(GUARD_REASON, {"command": "rm -r scratch"})
    relayed = [json.loads(line) for line in journal.read_text().splitlines()]
    assert any(r.get("host") == "codex" and r.get("action") == "block" for r in relayed)
    # the relayed call and the guard's run for it are in the turn Codex names (issue 30)
    calls = [r for r in relayed if r.get("host") == "codex" and isinstance(r.get("request"), dict)]
    turns = {(r["hook"] == "guard", r["turn"], r["request"]["turn_id"]) for r in calls}
    assert {guard for guard, _turn, _id in turns} == {True, False}  # the call, the guard's run
    assert all(turn == turn_id for _guard, turn, turn_id in turns), turns


def test_the_inspector_allows_a_command_and_it_runs(
    codex_cli: CodexCli, codex_project: Path, home: Path, socket_path: Path
) -> None:
    install(codex_project, socket_path)
    with serving(inspector_config(codex_project.parent), socket_path):
        play(codex_cli, codex_project, home, "touch made.txt")

    assert (codex_project / "made.txt").exists()


def test_with_no_inspector_the_command_runs_as_if_the_hook_were_absent(
    codex_cli: CodexCli, codex_project: Path, home: Path, socket_path: Path
) -> None:
    install(codex_project, socket_path)
    api = play(codex_cli, codex_project, home, "touch made.txt && echo made")

    assert (codex_project / "made.txt").exists()
    assert api.told("call_1").endswith("Output:\nmade\n")


def test_the_inspector_denies_a_permission_request_in_words_codex_reads(
    codex_cli: CodexCli, codex_project: Path, home: Path, socket_path: Path
) -> None:
    install(codex_project, socket_path, events="PermissionRequest")
    deny = {"behavior": "deny", "message": "no leaving the sandbox"}
    answer = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": deny}}
    hook = {"kind": "command", "host": "codex", "event": "PermissionRequest"}
    command = f"cat > /dev/null; echo {shlex.quote(json.dumps(answer))}"
    config = codex_project.parent / "inspector.yaml"
    config.write_text(json.dumps({"hooks": {"reviewer": {**hook, "command": command}}}))
    escalated = {"cmd": "touch made.txt", "sandbox_permissions": "require_escalated"}
    script = [Reply(tool_calls=(ToolCall("exec_command", escalated, "call_1"),)), Reply("Done.")]
    with serving(config, socket_path), FakeResponses(script) as api:
        # --approve-for-me: approvals are asked for (of hooks first), not refused outright
        codex_cli.run(
            codex_project, PROMPT, api_url=api.url, home=home, options=["--approve-for-me"]
        )

    assert not (codex_project / "made.txt").exists()
    rejected = 'Rejected(\\"no leaving the sandbox\\")'
    assert api.told("call_1") == f'exec_command failed: CreateProcess {{ message: "{rejected}" }}'
