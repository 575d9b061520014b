"""Intercept for command hooks: a j-cli or Claude Code event that matches the filter waits at its
entry, before any hook runs (the default target), or each matching run waits before its process
starts (`@hook`), until a person forwards it (edited or not) or drops it."""

from __future__ import annotations

import asyncio
import copy
import json
import shlex
from pathlib import Path
from typing import Any

from inspector.config.model import CommandHookSpec, Config
from inspector.engine import Engine
from inspector.filter import compile_filter
from inspector.journal.records import STATUS_DROPPED, STATUS_HELD, STATUS_OK, Decision, Exchange
from inspector.pipeline.gate import Held
from tests.support.claude import SCRIPTS as CLAUDE_SCRIPTS
from tests.support.claude import spec as claude_spec
from tests.support.claude import tool_event
from tests.support.jcli import record, recorded
from tests.support.jcli import spec as jcli_spec
from tests.support.waiting import wait_for


def claude_config(tmp_path: Path, *specs: CommandHookSpec) -> Config:
    return Config(hooks=specs, host="claude", workdir=tmp_path)


def jcli_config(tmp_path: Path, *specs: CommandHookSpec) -> Config:
    return Config(hooks=specs, host="jcli", workdir=tmp_path)


def recording_guard(log: Path) -> str:
    """Writes its stdin to `log`, then guards it: exit 2 for `rm -rf`."""
    guard = shlex.quote(str(CLAUDE_SCRIPTS / "guard_rm.sh"))
    return f"cat > {shlex.quote(str(log))} && sh {guard} < {shlex.quote(str(log))}"


async def held(engine: Engine, count: int = 1) -> list[Held]:
    await wait_for(lambda: len(engine.held) >= count)
    return engine.held


def human_decisions(engine: Engine) -> list[tuple[str, str, str | None]]:
    return [
        (d.stage, d.verdict, d.tool) for d in engine.journal.of_type(Decision) if d.by == "human"
    ]


def host_decisions(engine: Engine) -> list[Decision]:
    return [d for d in engine.journal.of_type(Decision) if d.by != "human"]


async def test_a_claude_event_edited_at_its_entry_reaches_every_hook_and_the_tool(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    hooks = [claude_spec(f"cat > {shlex.quote(str(log))}") for log in (first, second)]
    context = tool_event(command="rm -rf /")
    async with Engine(claude_config(tmp_path, *hooks)) as engine:
        engine.set_intercept("method:PreToolUse")
        task = asyncio.create_task(engine.send_through_pipeline("PreToolUse", context))
        (waiting,) = await held(engine)
        entry = waiting.exchange
        assert (entry.hook, entry.stage_entry, entry.params) == ("", True, context)
        assert "every hook" in entry.findings[0].message
        assert not first.exists() and not second.exists()  # no hook has run yet
        edited = copy.deepcopy(context)
        edited["tool_input"]["command"] = "echo safe"
        assert engine.forward(entry.seq, edited)
        outcome = await task
    assert json.loads(first.read_text()) == edited == json.loads(second.read_text())
    assert outcome.updated_input == edited["tool_input"]  # the tool runs the edited call too
    assert engine.held == [] and entry.action == "forwarded edited"
    assert human_decisions(engine) == [("PreToolUse", "forwarded edited", "Bash")]


async def test_a_claude_event_dropped_at_its_entry_runs_no_hook(tmp_path: Path) -> None:
    log = tmp_path / "stdin.json"
    config = claude_config(tmp_path, claude_spec(recording_guard(log), name="guard"))
    async with Engine(config) as engine:
        engine.set_intercept("tool:Bash")
        task = asyncio.create_task(engine.send_through_pipeline("PreToolUse", tool_event()))
        (waiting,) = await held(engine)
        assert engine.drop(waiting.seq)
        outcome = await task
    assert not log.exists() and outcome.runs == () and outcome.verdict == "continue"
    assert waiting.exchange.action == "dropped"


async def test_a_jcli_event_edited_at_its_entry_reaches_every_hook(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    config = jcli_config(tmp_path, jcli_spec("one", record(log)), jcli_spec("two", record(log)))
    context = {"tool_name": "Bash", "tool_arguments": '{"command":"rm -rf /"}'}
    async with Engine(config) as engine:
        engine.set_intercept("tool:Bash")
        task = asyncio.create_task(engine.send_through_pipeline("pre_tool_execution", context))
        (waiting,) = await held(engine)
        assert waiting.exchange.stage_entry and recorded(log) == []
        edited = {**waiting.exchange.params, "tool_arguments": '{"command":"ls"}'}
        assert engine.forward(waiting.seq, edited)
        result = await task
    assert [seen["context"] for seen in recorded(log)] == [edited, edited]
    assert len(result.runs) == 2 and engine.held == []


async def test_a_held_claude_run_is_edited_and_the_hook_gets_the_edited_stdin(
    tmp_path: Path,
) -> None:
    log = tmp_path / "stdin.json"
    config = claude_config(tmp_path, claude_spec(recording_guard(log), name="guard"))
    context = tool_event(command="rm -rf /")
    async with Engine(config) as engine:
        engine.set_intercept("@hook method:PreToolUse")
        task = asyncio.create_task(engine.send_through_pipeline("PreToolUse", context))
        (waiting,) = await held(engine)
        exchange = waiting.exchange
        assert (exchange.hook, exchange.method, exchange.status) == ("guard", "PreToolUse", "held")
        assert exchange.params == context and engine.journal.get(exchange.seq) is exchange
        assert not log.exists()  # held before the process started
        edited = copy.deepcopy(exchange.params)
        edited["tool_input"]["command"] = "echo safe"
        assert engine.forward(exchange.seq, edited)
        outcome = await task
    assert json.loads(log.read_text()) == edited
    assert exchange.status == STATUS_OK and exchange.edited and exchange.params == edited
    assert engine.gate.originals[exchange.seq] == context
    assert outcome.verdict == "continue"  # the guard saw `echo safe`, not `rm -rf /`
    assert human_decisions(engine) == [("PreToolUse", "forwarded edited", "Bash")]


async def test_a_dropped_claude_run_never_starts_and_claude_goes_on_as_after_a_failed_hook(
    tmp_path: Path,
) -> None:
    log = tmp_path / "stdin.json"
    config = claude_config(tmp_path, claude_spec(recording_guard(log), name="guard"))
    async with Engine(config) as engine:
        engine.set_intercept("@hook hook:guard")
        context = tool_event(command="rm -rf /")
        task = asyncio.create_task(engine.send_through_pipeline("PreToolUse", context))
        (waiting,) = await held(engine)
        assert engine.drop(waiting.seq)
        outcome = await task
    exchange = waiting.exchange
    assert not log.exists()
    assert exchange.status == STATUS_DROPPED and exchange.action == "error"
    # A hook that fails is a non-blocking error in Claude Code: the tool call goes ahead.
    assert outcome.verdict == "continue" and outcome.blocked is False
    assert any("guard" in message and "dropped" in message for message in outcome.messages)
    (decision,) = host_decisions(engine)
    assert decision.verdict == "continue" and decision.chain[0]["status"] == STATUS_DROPPED
    assert human_decisions(engine) == [("PreToolUse", "dropped", "Bash")]


async def test_a_held_jcli_run_forwarded_unchanged_gets_the_context_as_the_chain_built_it(
    tmp_path: Path,
) -> None:
    log = tmp_path / "seen.jsonl"
    config = jcli_config(tmp_path, jcli_spec("guard", record(log)))
    context = {"tool_name": "Bash", "tool_arguments": '{"command":"ls"}'}
    async with Engine(config) as engine:
        engine.set_intercept("@hook hook:guard & tool:Bash")
        task = asyncio.create_task(engine.send_through_pipeline("pre_tool_execution", context))
        (waiting,) = await held(engine)
        sent = waiting.exchange.params
        assert sent["tool_name"] == "Bash" and sent["cwd"] == str(tmp_path)
        assert recorded(log) == []
        assert engine.forward(waiting.seq)
        result = await task
    (seen,) = recorded(log)
    assert seen["context"] == sent
    assert waiting.exchange.status == STATUS_OK and not waiting.exchange.edited
    assert result.runs[0].exchange is waiting.exchange
    assert human_decisions(engine) == [("pre_tool_execution", "forwarded", "Bash")]


async def test_a_dropped_jcli_run_fails_and_on_error_stop_ends_the_chain(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    config = jcli_config(tmp_path, jcli_spec("guard", record(log), on_error="stop"))
    async with Engine(config) as engine:
        engine.set_intercept("@hook method:pre_tool_execution")
        context = {"tool_name": "Bash"}
        task = asyncio.create_task(engine.send_through_pipeline("pre_tool_execution", context))
        (waiting,) = await held(engine)
        assert engine.drop(waiting.seq)
        result = await task
    assert recorded(log) == []
    assert (result.action, result.by) == ("stop", "guard")
    assert waiting.exchange.status == STATUS_DROPPED
    assert waiting.exchange.action == "failed → stop (on_error: stop)"
    assert result.decision is not None and result.decision.verdict == "stop"


async def test_tool_in_the_intercept_filter_holds_only_that_tool(tmp_path: Path) -> None:
    config = claude_config(tmp_path, claude_spec(recording_guard(tmp_path / "log"), name="guard"))
    async with Engine(config) as engine:
        engine.set_intercept("method:PreToolUse & tool:Bash")
        read = await engine.send_through_pipeline("PreToolUse", tool_event("Read"))
        assert engine.held == [] and read.runs[0].exchange.status == STATUS_OK
        task = asyncio.create_task(engine.send_through_pipeline("PreToolUse", tool_event("Bash")))
        (waiting,) = await held(engine)
        assert waiting.exchange.params["tool_name"] == "Bash"
        engine.forward_all()
        await task


async def test_a_command_hook_request_from_the_composer_is_held_too(tmp_path: Path) -> None:
    log = tmp_path / "stdin.json"
    config = claude_config(tmp_path, claude_spec(recording_guard(log), name="guard"))
    async with Engine(config) as engine:
        engine.set_intercept("hook:guard")
        task = asyncio.create_task(engine.send_to_hook("guard", "PreToolUse", tool_event()))
        (waiting,) = await held(engine)
        assert not log.exists()
        engine.forward(waiting.seq)
        exchange = await task
    assert exchange is waiting.exchange and exchange.status == STATUS_OK
    assert json.loads(log.read_text()) == tool_event()


def command_run(method: str, context: dict[str, Any]) -> Exchange:
    return Exchange(hook="h", method=method, request=context, status=STATUS_HELD)


def test_the_tool_field_reads_tool_name_from_a_command_hook_context() -> None:
    bash = compile_filter("tool:Bash")
    assert bash(command_run("PreToolUse", tool_event("Bash")))
    assert bash(command_run("pre_tool_execution", {"event": "x", "tool_name": "Bash"}))
    assert not bash(command_run("PreToolUse", tool_event("Read")))
    assert not bash(command_run("PreToolUse", {"tool": "Bash"}))  # `tool` is JSON-RPC's key
    rpc = {"jsonrpc": "2.0", "id": 1, "method": "hook.before_tool", "params": {"tool": "Bash"}}
    assert bash(Exchange(hook="h", method="hook.before_tool", request=rpc))
