"""The bridge mod through the real Claude Code 2.1.332: hook-inspector's plugin folder
(inspector/hosts/claude/mod), loaded with `--plugin-dir`, whose hooks module Claude Code runs in
its hooks worker. Each `tool.call` the mods see goes to the inspector's HTTP door (the endpoint
`install claude --http` makes) as a PreToolUse event, and the inspector's answer decides. Checked:
what the real CLI did (the file its Bash tool made or not, what it told the model) and what the
inspector journaled. Mods came in 2.1.287, so 2.1.197 is not run here."""

from __future__ import annotations

import asyncio
import shlex
from dataclasses import replace
from pathlib import Path

from claude_cli import ClaudeCli
from claude_fixtures import claude_cli, only, project  # noqa: F401 (fixtures used by name)
from fake_anthropic import FakeAnthropic
from test_claude_relay import play

from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.hosts.claude.bridge_mod import BRIDGE_MOD_FOLDER, install_mod
from inspector.journal.records import Exchange
from tests.support.claude import decision, reply, spec

MOD_VERSION = "2.1.332"  # the newest CLI; mods came in 2.1.287

pytestmark = only(MOD_VERSION)


def with_mod(cli: ClaudeCli, folder: Path) -> ClaudeCli:
    """`cli` started with the bridge mod loaded: a script in `folder` that adds --plugin-dir."""
    script = folder / "claude-with-mod"
    script.write_text(
        f"#!/bin/sh\nexec {shlex.quote(str(cli.executable))}"
        f' --plugin-dir {shlex.quote(str(BRIDGE_MOD_FOLDER))} "$@"\n'
    )
    script.chmod(0o755)
    return replace(cli, executable=script)


def play_with_mod(cli: ClaudeCli, project: Path, home: Path, command: str) -> FakeAnthropic:
    """One `claude -p` turn, the bridge mod loaded, in which the model runs `command` with Bash;
    the fake API, which kept what the model was told."""
    _, api = play(with_mod(cli, project.parent), project, home, command)
    return api


async def inspected(
    hook: str, cli: ClaudeCli, project: Path, home: Path, command: str
) -> tuple[FakeAnthropic, list[Exchange]]:
    """The turn with an inspector whose one PreToolUse hook on Bash runs `hook`, listening on
    the HTTP endpoint; what the model was told and the inspector's exchanges of the mod's calls."""
    install_mod()  # what `install claude --mod` does: the endpoint the mod reads
    engine = Engine(Config(hooks=(spec(hook, matcher="Bash"),), host="claude", workdir=project))
    async with engine:
        listener = await listen_for_relays(engine, ListenOptions())
        try:
            assert listener.http is not None
            api = await asyncio.to_thread(play_with_mod, cli, project, home, command)
        finally:
            await listener.close()
    exchanges = [
        r for r in engine.journal.records if isinstance(r, Exchange) and r.hook == "claude"
    ]
    return api, exchanges


async def test_a_tool_call_of_the_mods_is_an_exchange_and_the_inspectors_deny_stops_it(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    deny = reply(0, decision("deny", "not through the mod"))
    api, [exchange] = await inspected(deny, claude_cli, project, home, "touch made.txt")

    assert not (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is True
    assert "not through the mod" in str(told["content"])
    assert (exchange.method, exchange.action, exchange.status) == ("PreToolUse", "deny", "ok")
    assert exchange.request["mod_event"] == "tool.call"
    assert exchange.request["tool_input"]["command"] == "touch made.txt"


async def test_the_inspectors_allow_lets_the_tool_run(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    allow = reply(0, decision("allow", "fine"))
    api, [exchange] = await inspected(allow, claude_cli, project, home, "touch made.txt")

    assert (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is False
    assert exchange.action == "allow"


def test_with_no_inspector_the_mod_lets_the_call_go_on(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    api = play_with_mod(claude_cli, project, home, "touch made.txt")

    assert (project / "made.txt").exists()
    [told] = api.tool_results()
    assert told["is_error"] is False
