"""A real `gemini -p` session decided through hook-inspector: its settings.json runs the relay as
`hook-inspector install gemini` writes it, the relay reaches a real `hook-inspector serve`, and
the Gemini CLI hook in serve's own config decides. What is checked is what the real CLI did: the
files its shell tool made or left, and what it told the model."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_gemini import Reply, shell
from gemini_cli import GeminiCli
from gemini_fixtures import gemini_cli, gemini_project  # noqa: F401 (fixtures used by name)
from test_claude_relay import serving
from test_gemini_real import play

from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.config.model import CommandHookSpec, Config
from inspector.engine import Engine
from inspector.hooks.approvals import Verdict
from inspector.hosts.gemini.install import INSTALLER
from inspector.hosts.installer import Options, Place
from tests.support.claude import reply
from tests.support.waiting import wait_for

REASON = "rm -rf is not allowed: remove specific files instead"


@pytest.fixture
def socket_path() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="gemini-relay-", dir="/tmp"))  # AF_UNIX paths are short
    yield folder / "inspector" / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


def install_relay(project: Path, socket_path: Path) -> None:
    options = Options(events="BeforeTool", matcher="run_shell_command", socket=socket_path)
    INSTALLER.install(Place(project=project), options)


def inspector_config(folder: Path, command: str) -> Path:
    """serve's config: one Gemini CLI BeforeTool hook on the shell tool that runs `command`."""
    hook = {"kind": "command", "host": "gemini", "event": "BeforeTool"}
    hook |= {"matcher": "run_shell_command", "command": command}
    config = folder / "inspector.yaml"
    config.write_text(json.dumps({"hooks": {"guard": hook}}))
    return config


def relayed(journal: Path) -> list[dict[str, Any]]:
    """The relay's own exchanges (not the config hook's runs), each as last saved."""
    latest: dict[int, dict[str, Any]] = {}
    for line in journal.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "exchange" and record["hook"] == "gemini":
            latest[record["seq"]] = record
    return list(latest.values())


def test_a_config_hook_in_the_inspector_blocks_rm_rf_and_it_never_runs(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, socket_path: Path
) -> None:
    scratch = gemini_project / "scratch"
    scratch.mkdir()
    (scratch / "keep.txt").write_text("precious")
    install_relay(gemini_project, socket_path)
    config = inspector_config(gemini_project.parent, reply(2, "", REASON))
    script = [Reply(calls=(shell("rm -rf scratch"),)), Reply("Ok.")]
    with serving(config, socket_path) as journal:
        _, api = play(gemini_cli, gemini_project, home, script)

    assert (scratch / "keep.txt").read_text() == "precious"
    [told] = api.function_responses()
    assert told["response"] == {"error": f"Tool execution blocked: {REASON}"}
    [exchange] = relayed(journal)
    assert (exchange["host"], exchange["method"], exchange["action"]) == (
        "gemini",
        "BeforeTool",
        "deny",
    )
    assert exchange["request"]["tool_input"]["command"] == "rm -rf scratch"


def test_a_config_hook_in_the_inspector_that_allows_lets_the_command_run(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, socket_path: Path
) -> None:
    install_relay(gemini_project, socket_path)
    config = inspector_config(gemini_project.parent, reply(0, {"decision": "allow"}))
    with serving(config, socket_path) as journal:
        play(
            gemini_cli,
            gemini_project,
            home,
            [Reply(calls=(shell("touch made.txt"),)), Reply("Ok.")],
        )

    assert (gemini_project / "made.txt").exists()
    assert [exchange["action"] for exchange in relayed(journal)] == ["allow"]


def test_with_no_inspector_listening_the_session_runs_as_if_the_hook_were_absent(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, socket_path: Path
) -> None:
    install_relay(gemini_project, socket_path)
    run, api = play(
        gemini_cli, gemini_project, home, [Reply(calls=(shell("touch made.txt"),)), Reply("Ok.")]
    )

    assert (gemini_project / "made.txt").exists()
    [told] = api.function_responses()
    assert "error" not in told["response"]
    assert "failed for event BeforeTool" not in run.stderr  # the relay exited 0
    # Gemini CLI reads a hook's stderr as its answer when stdout is empty: the relay says nothing
    assert "Hook system message" not in run.stdout + run.stderr


@pytest.mark.parametrize("verdict", ["allow_once", "deny"])
async def test_a_person_at_the_inspector_answers_a_before_tool_ask(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, socket_path: Path, verdict: str
) -> None:
    """A config hook asks; the person's allow lets the real command run, their deny keeps it
    from running and their reason reaches the model."""
    asker = CommandHookSpec(
        "asker", "gemini", "BeforeTool", reply(0, {"decision": "ask"}), 5000, level="project"
    )
    install_relay(gemini_project, socket_path)
    engine = Engine(Config(hooks=(asker,), host="gemini", workdir=gemini_project))
    script = [Reply(calls=(shell("touch made.txt"),)), Reply("Ok.")]
    async with engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        try:
            session = asyncio.create_task(
                asyncio.to_thread(play, gemini_cli, gemini_project, home, script)
            )
            await wait_for(lambda: bool(engine.approvals.pending), timeout=60)
            (prompt,) = engine.approvals.pending
            assert (prompt.agent_asks, prompt.arguments["command"]) == (
                "Gemini CLI",
                "touch made.txt",
            )
            engine.approvals.decide(prompt.id, Verdict(verdict, reason="not now"))  # type: ignore[arg-type]
            _, api = await session
        finally:
            await listener.close()

    assert (gemini_project / "made.txt").exists() is (verdict == "allow_once")
    [told] = api.function_responses()
    if verdict == "deny":
        assert told["response"] == {"error": "Tool execution blocked: not now"}
