"""A recorded run of another host's command hook, replayed against a PicoClaw session, names the
command hook it lacks; it is never sent to a process hook of the same name as a JSON-RPC call."""

from __future__ import annotations

from inspector.drivers.replay import replay
from inspector.engine import Engine
from inspector.hosts.claude import NAME as CLAUDE
from inspector.journal.records import STATUS_OK, Exchange
from tests.support.scripted import config_of, scripted


async def test_a_claude_run_replayed_against_picoclaw_hooks_is_a_missing_command_hook() -> None:
    recorded = Exchange(
        host=CLAUDE,
        hook="guard",
        method="PreToolUse",
        request={"hook_event_name": "PreToolUse", "tool_name": "Bash"},
        status=STATUS_OK,
        exit_code=0,
        seq=7,
    )
    async with Engine(config_of(scripted("guard", intercept=("before_tool",)))) as engine:
        report = await replay(engine, [recorded])
        calls = [e for e in engine.journal.exchanges() if e.source == "replay"]
    (item,) = report.items
    assert item.outcome == "missing hook"
    assert item.note == "no command hook 'guard' on PreToolUse in the config"
    assert calls == []
