"""A real `claude -p` session whose hooks are the inspector itself: `install claude --http` writes
`http` handlers into .claude/settings.local.json, the real CLI POSTs each event to the inspector
on loopback with its token, and the Claude Code hooks of the inspector's config decide. No relay
process starts. What is checked is what the real CLI did (the files its Bash tool made or left
alone, what it told the model, what its stream said) and what the inspector journaled."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from claude_cli import ClaudeCli, ClaudeRun
from claude_fixtures import claude_cli, only, project  # noqa: F401 (fixtures used by name)
from test_claude_relay import GUARD_REASON, play, relayed

from inspector.bridge.http_hooks import WRONG_TOKEN
from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.cli.main import main
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.hosts.claude.versions import claude_version
from inspector.hosts.http_endpoint import read_endpoint
from inspector.journal.records import Exchange, Lifecycle
from tests.support.claude import decision, reply, script, spec

# What only the newest CLI says of an http hook that gave no answer (hook_no_verdict); block and
# allow run against every version in the matrix.
NO_VERDICT_VERSION = "2.1.332"
HOOK_INSPECTOR = Path(sys.executable).parent / "hook-inspector"
START_TIMEOUT_S = 60.0
HANDLER_TIMEOUT_S = 30


def install_http(project: Path) -> None:
    argv = ["install", "claude", "--http", "--project", str(project), "--events", "PreToolUse"]
    assert main([*argv, "--matcher", "Bash", "--timeout", str(HANDLER_TIMEOUT_S)]) == 0


def hook_messages(run: ClaudeRun) -> list[dict[str, Any]]:
    return [m for m in run.messages if m.get("subtype") in ("hook_response", "informational")]


@contextmanager
def serving(folder: Path, command: str) -> Iterator[Path]:
    """`hook-inspector serve` with one PreToolUse hook on Bash running `command`, until the block
    ends, once it answers on the HTTP port install chose; yields its journal's path."""
    hook = {"kind": "command", "host": "claude", "event": "PreToolUse", "matcher": "Bash"}
    config = folder / "inspector.yaml"
    config.write_text(json.dumps({"hooks": {"guard": {**hook, "command": command}}}))
    journal = folder / "journal.jsonl"
    argv = [str(HOOK_INSPECTOR), "serve", str(config), "--journal", str(journal)]
    with (folder / "serve.out").open("wb") as out:
        serve = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    try:
        endpoint = read_endpoint()
        assert endpoint is not None
        _wait_listening(serve, endpoint.port)
        yield journal
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=30)


def _wait_listening(serve: subprocess.Popen[bytes], port: int) -> None:
    give_up = time.monotonic() + START_TIMEOUT_S
    while True:
        assert serve.poll() is None, f"serve ended before listening (exit {serve.returncode})"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < give_up, "serve did not start listening for HTTP hooks"
            time.sleep(0.05)


def test_through_serve_an_exit_2_guard_blocks_rm_rf_and_the_model_is_told_its_reason(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    scratch = project / "scratch"
    scratch.mkdir()
    (scratch / "keep.txt").write_text("precious")
    install_http(project)
    with serving(project.parent, script("guard_rm.sh")) as journal:
        run, api = play(claude_cli, project, home, "rm -rf scratch")

    assert (scratch / "keep.txt").read_text() == "precious"
    [told] = api.tool_results()
    words = claude_version(claude_cli.version)  # as the emulation words it for this version
    lead = "PreToolUse:Bash hook error: " if words.deny_is_hook_error else ""
    assert (told["is_error"], told["content"]) == (True, f"{lead}{GUARD_REASON}")
    [response] = [m for m in hook_messages(run) if m["subtype"] == "hook_response"]
    assert (response["outcome"], response["exit_code"]) == ("success", 200)
    assert json.loads(response["stdout"])["hookSpecificOutput"]["permissionDecision"] == "deny"
    [exchange] = relayed(journal)
    assert (exchange["source"], exchange["method"], exchange["action"]) == (
        "relay:claude",
        "PreToolUse",
        "deny",
    )
    assert exchange["request"]["tool_input"]["command"] == "rm -rf scratch"
    assert exchange["cwd"] == str(project)


async def test_a_config_hook_allows_what_claude_code_would_refuse(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    install_http(project)
    allow = spec(reply(0, decision("allow", "touch is fine")), matcher="Bash")
    engine = Engine(Config(hooks=(allow,), host="claude", workdir=project))
    async with engine:
        listener = await listen_for_relays(engine, ListenOptions())
        try:
            assert listener.http is not None
            _, api = await asyncio.to_thread(
                play, claude_cli, project, home, "touch made.txt", allowed_tools=()
            )
        finally:
            await listener.close()

    assert (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is False
    [exchange] = [
        r for r in engine.journal.records if isinstance(r, Exchange) and r.hook == "claude"
    ]
    assert (exchange.method, exchange.action, exchange.status) == ("PreToolUse", "allow", "ok")


@only(NO_VERDICT_VERSION)
def test_with_no_inspector_the_call_goes_ahead_and_the_cli_says_the_hook_gave_no_verdict(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    install_http(project)
    run, api = play(claude_cli, project, home, "touch made.txt")

    assert (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is False
    [response, no_verdict] = hook_messages(run)
    assert response["outcome"] == "error" and "ECONNREFUSED" in response["output"]
    assert no_verdict["tag"] == "hook_no_verdict" and no_verdict["level"] == "warning"
    assert no_verdict["hook_no_verdict"]["hook_event"] == "PreToolUse"


@only(NO_VERDICT_VERSION)
async def test_a_request_with_another_token_is_refused_journaled_and_decides_nothing(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    install_http(project)
    local = project / ".claude" / "settings.local.json"
    settings = json.loads(local.read_text())
    [handler] = settings["hooks"]["PreToolUse"][0]["hooks"]
    handler["headers"]["Authorization"] = "Bearer guessed"
    local.write_text(json.dumps(settings))
    deny = spec(reply(0, decision("deny", "never")), matcher="Bash")
    engine = Engine(Config(hooks=(deny,), host="claude", workdir=project))
    async with engine:
        listener = await listen_for_relays(engine, ListenOptions())
        try:
            run, _ = await asyncio.to_thread(play, claude_cli, project, home, "touch made.txt")
        finally:
            await listener.close()

    assert (project / "made.txt").exists()  # the inspector's deny never came into it
    [response, no_verdict] = hook_messages(run)
    assert (response["outcome"], response["exit_code"]) == ("error", 401)
    assert no_verdict["tag"] == "hook_no_verdict"
    assert not [r for r in engine.journal.records if isinstance(r, Exchange) and r.hook == "claude"]
    [refused] = [
        r for r in engine.journal.records if isinstance(r, Lifecycle) and r.state == "refused"
    ]
    assert refused.detail.startswith(WRONG_TOKEN + " (from 127.0.0.1")
