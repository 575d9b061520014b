"""A real `claude -p` session watched and decided through hook-inspector: its settings.json runs
`hook-inspector relay --host claude` on PreToolUse, the relay reaches a real `hook-inspector
serve`, and the hooks in serve's own config decide. What is checked is what the real CLI did:
the files its Bash tool made or removed, and what it told the model."""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from claude_cli import ClaudeCli, ClaudeRun
from claude_fixtures import claude_cli, project  # noqa: F401 (fixtures used by name)
from fake_anthropic import FakeAnthropic, Reply, bash
from recorded_hooks import write_settings

from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.hooks.approvals import Verdict
from inspector.hosts.install_relay import relay_command
from inspector.journal.records import Exchange
from tests.support.claude import decision, reply, script, spec
from tests.support.waiting import wait_for

HOOK_INSPECTOR = Path(sys.executable).parent / "hook-inspector"
START_TIMEOUT_S = 60.0  # a loaded 2-core machine starts serve in well under this
RELAY_TIMEOUT_S = 30  # the handler's timeout in settings.json; the relay answers before it
GUARD_REASON = "rm -rf is not allowed: remove specific files instead"  # hooks/claude/guard_rm.sh


@pytest.fixture
def socket_path() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="claude-relay-", dir="/tmp"))  # AF_UNIX paths are short
    yield folder / "inspector" / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


def relay_settings(socket_path: Path) -> dict[str, Any]:
    """The relay's handler as `hook-inspector install claude` writes it."""
    relay = relay_command("claude", RELAY_TIMEOUT_S, socket_path)
    handler = {"type": "command", "command": relay, "timeout": RELAY_TIMEOUT_S}
    return {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}


def inspector_config(folder: Path, command: str) -> Path:
    """serve's config: one Claude Code PreToolUse hook on Bash that runs `command`."""
    hook = {"kind": "command", "host": "claude", "event": "PreToolUse", "matcher": "Bash"}
    config = folder / "inspector.yaml"
    config.write_text(json.dumps({"hooks": {"guard": {**hook, "command": command}}}))
    return config


@contextmanager
def serving(config: Path, socket_path: Path) -> Iterator[Path]:
    """`hook-inspector serve CONFIG` until the block ends; yields its journal's path."""
    journal = config.parent / "journal.jsonl"
    printed = config.parent / "serve.out"
    argv = [str(HOOK_INSPECTOR), "serve", str(config), "--socket", str(socket_path)]
    with printed.open("wb") as out:
        serve = subprocess.Popen(
            [*argv, "--journal", str(journal)], stdout=out, stderr=subprocess.STDOUT
        )
    try:
        _wait_listening(serve, socket_path)
        yield journal
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=30)


def _wait_listening(serve: subprocess.Popen[bytes], socket_path: Path) -> None:
    give_up = time.monotonic() + START_TIMEOUT_S
    while not socket_path.is_socket():
        assert serve.poll() is None, f"serve ended before listening (exit {serve.returncode})"
        assert time.monotonic() < give_up, "serve did not start listening"
        time.sleep(0.05)


def relayed(journal: Path) -> list[dict[str, Any]]:
    """The relay's own exchanges (the events, not the config hooks' runs), each as last saved."""
    latest: dict[int, dict[str, Any]] = {}
    for line in journal.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "exchange" and record["hook"] == "claude":
            latest[record["seq"]] = record
    return list(latest.values())


def play(
    cli: ClaudeCli, project: Path, home: Path, command: str, **options: Any
) -> tuple[ClaudeRun, FakeAnthropic]:
    model = [Reply(tool_calls=(bash(command, "toolu_0001"),)), Reply("Done.")]
    with FakeAnthropic(model) as api:
        run = cli.run(project, "Tidy up the project.", api_url=api.url, home=home, **options)
    assert (run.exit_code, run.result["subtype"]) == (0, "success"), run.stderr
    assert api.unscripted == 0
    return run, api


def test_a_config_hook_in_the_inspector_denies_rm_rf_and_it_never_runs(
    claude_cli: ClaudeCli, project: Path, home: Path, socket_path: Path
) -> None:
    scratch = project / "scratch"
    scratch.mkdir()
    (scratch / "keep.txt").write_text("precious")
    write_settings(project, relay_settings(socket_path))
    config = inspector_config(project.parent, script("guard_rm.sh"))
    with serving(config, socket_path) as journal:
        _, api = play(claude_cli, project, home, "rm -rf scratch")

    assert (scratch / "keep.txt").read_text() == "precious"
    [told] = api.tool_results()
    assert told["is_error"] and told["content"].endswith(GUARD_REASON)  # 2.1.332 says more first
    [exchange] = relayed(journal)
    assert (exchange["host"], exchange["method"], exchange["action"]) == (
        "claude",
        "PreToolUse",
        "deny",
    )
    assert exchange["request"]["tool_input"]["command"] == "rm -rf scratch"


def test_a_config_hook_in_the_inspector_allows_what_claude_code_would_refuse(
    claude_cli: ClaudeCli, project: Path, home: Path, socket_path: Path
) -> None:
    write_settings(project, relay_settings(socket_path))
    config = inspector_config(project.parent, reply(0, decision("allow", "touch is fine")))
    with serving(config, socket_path) as journal:
        _, api = play(claude_cli, project, home, "touch made.txt", allowed_tools=())

    assert (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is False
    assert [exchange["action"] for exchange in relayed(journal)] == ["allow"]


def test_an_updated_input_from_the_inspector_is_what_the_real_tool_runs(
    claude_cli: ClaudeCli, project: Path, home: Path, socket_path: Path
) -> None:
    rewrite = decision("allow", "made safer", updatedInput={"command": "touch edited.txt"})
    write_settings(project, relay_settings(socket_path))
    config = inspector_config(project.parent, reply(0, rewrite))
    with serving(config, socket_path):
        play(claude_cli, project, home, "touch made.txt")

    assert (project / "edited.txt").exists()
    assert not (project / "made.txt").exists()


def test_a_config_hooks_ask_in_serve_goes_on_to_claude_code_which_in_p_mode_refuses_it(
    claude_cli: ClaudeCli, project: Path, home: Path, socket_path: Path
) -> None:
    """Nobody at serve can answer: the hook's ask reaches the real CLI as ask (as if the hook ran
    there), and `claude -p` refuses the call with the hook's reason reaching the model."""
    write_settings(project, relay_settings(socket_path))
    config = inspector_config(project.parent, reply(0, decision("ask", "ask the user first")))
    with serving(config, socket_path) as journal:
        _, api = play(claude_cli, project, home, "touch made.txt")

    assert not (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is True and "ask the user first" in told["content"]
    assert [exchange["action"] for exchange in relayed(journal)] == ["ask"]


def test_with_no_inspector_listening_the_session_runs_as_if_the_hook_were_absent(
    claude_cli: ClaudeCli, project: Path, home: Path, socket_path: Path
) -> None:
    write_settings(project, relay_settings(socket_path))
    run, api = play(claude_cli, project, home, "touch made.txt")

    assert (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is False
    [response] = [m for m in run.messages if m.get("subtype") == "hook_response"]
    assert (response["exit_code"], response["stdout"], response["outcome"]) == (0, "", "success")
    assert "no hook-inspector" in response["stderr"] and response["stderr"].count("\n") == 1


async def test_a_person_leaves_the_call_to_claude_codes_dialog_which_in_p_mode_denies_it(
    claude_cli: ClaudeCli, project: Path, home: Path, socket_path: Path
) -> None:
    """The person's `u` in the prompt goes back as permissionDecision "ask": in `-p` the real
    CLI has no dialog to show, so the call is refused and the hook's reason reaches the model."""
    asker = spec(reply(0, decision("ask", "Bash goes through me")), matcher="Bash")
    write_settings(project, relay_settings(socket_path))
    engine = Engine(Config(hooks=(asker,), host="claude", workdir=project))
    async with engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        try:
            session = asyncio.create_task(
                asyncio.to_thread(play, claude_cli, project, home, "touch made.txt")
            )
            await wait_for(lambda: bool(engine.approvals.pending), timeout=RELAY_TIMEOUT_S)
            (prompt,) = engine.approvals.pending
            assert prompt.agent_asks == "Claude Code"
            assert engine.approvals.decide(prompt.id, Verdict("ask"))
            _, api = await session
        finally:
            await listener.close()

    assert not (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is True and "Bash goes through me" in told["content"]
    [exchange] = [
        record
        for record in engine.journal.records
        if isinstance(record, Exchange) and record.hook == "claude"
    ]
    assert exchange.action == "ask" and exchange.cwd == str(project)
