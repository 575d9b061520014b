"""OpenClaw plugins in host mode: real plugin folders (tests/hooks/openclaw/) loaded by the real
Node harness, their hooks fired by a scenario the way an OpenClaw agent run fires them."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.config.errors import ConfigError
from inspector.engine import Engine
from inspector.hooks.approvals import ALLOW_ONCE, DENY, Verdict
from inspector.hosts.load import load_config
from inspector.hosts.openclaw.chain import NO_ROUTE
from inspector.hosts.openclaw.merge import HOOK_FAILED
from inspector.hosts.openclaw.turn import NOT_DELIVERED, OpenClawTurnOutcome
from inspector.journal.records import (
    Decision,
    Event,
    Exchange,
    Lifecycle,
    Noise,
    Reload,
    Stderr,
)
from inspector.reload.watcher import Reloader
from inspector.scenario import load_scenario
from tests.support.paths import EXAMPLES, HOOKS
from tests.support.waiting import wait_for

PLUGINS = HOOKS / "openclaw"
SCENARIO = PLUGINS / "scenario.yaml"
EXAMPLE = EXAMPLES / "openclaw"

if shutil.which("node") is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError("node is required in CI for the OpenClaw host-mode tests")
    pytest.skip("node is not installed", allow_module_level=True)


async def play(
    folder: Path, *, unattended: bool = True, scenario: Path = SCENARIO
) -> tuple[Engine, list[OpenClawTurnOutcome]]:
    engine = Engine(load_config(folder))
    engine.approvals.unattended = unattended
    async with engine:
        outcomes = await engine.runtime.turn_runner().run(load_scenario(scenario))
    return engine, list(outcomes)  # type: ignore[arg-type]


def exchanges(engine: Engine, method: str) -> list[Exchange]:
    return [record for record in engine.journal.of_type(Exchange) if record.method == method]


def codes(record: Exchange | Event) -> list[str]:
    return [finding.code for finding in record.findings]


def tool_decision(engine: Engine) -> Decision:
    [decision] = [d for d in engine.journal.of_type(Decision) if d.stage == "before_tool_call"]
    return decision


async def test_the_traps_the_docs_name_are_findings() -> None:
    engine, [outcome] = await play(PLUGINS / "traps")
    block_false, approval, late_params = exchanges(engine, "before_tool_call")
    assert codes(block_false) == ["openclaw-block-false"]
    assert approval.action == "approval" and codes(approval) == []
    assert codes(late_params) == ["openclaw-params-after-approval"]
    # nobody can answer a headless run: the approval blocks, and the params stayed the model's
    assert tool_decision(engine).verdict == "block"
    assert outcome.tool_calls[0].told == NO_ROUTE
    assert outcome.tool_calls[0].params == {"command": "ls"}
    [agent_end] = exchanges(engine, "agent_end")
    assert agent_end.status == "not_sent"
    assert codes(agent_end) == ["openclaw-no-conversation-access"]
    [registered] = engine.journal.of_type(Event)
    assert codes(registered) == [
        "openclaw-one-registration-mode",
        "openclaw-no-conversation-access",
    ]
    assert "after_tool_call only in 'full' mode" in registered.findings[0].message


async def test_a_handler_that_throws_blocks_the_tool_and_ends_the_chain() -> None:
    engine, [outcome] = await play(PLUGINS / "thrower")
    [threw] = exchanges(engine, "before_tool_call")  # the lower-priority handler never ran
    assert threw.hook == "thrower#1"
    assert threw.status == "error" and threw.error == "Error: policy file missing"
    assert codes(threw) == ["openclaw-handler-threw"]
    # the Raw tab's lines: what crossed the harness's stdin and stdout for this call
    assert json.loads(threw.raw_request or "")["event"]["toolName"] == "exec"
    assert json.loads(threw.raw_response or "")["threw"] == "Error: policy file missing"
    decision = tool_decision(engine)
    assert (decision.verdict, decision.reason) == ("block", HOOK_FAILED)
    assert decision.chain == [{"hook": "thrower#1", "action": "block", "status": "error"}]
    assert not outcome.tool_calls[0].ran
    assert exchanges(engine, "after_tool_call") == []


async def test_a_handler_past_its_timeout_blocks_the_tool() -> None:
    engine, [outcome] = await play(PLUGINS / "slow")
    [slow] = exchanges(engine, "before_tool_call")
    assert slow.status == "timeout" and codes(slow) == ["openclaw-handler-timeout"]
    assert outcome.tool_calls[0].told == HOOK_FAILED


async def test_a_handlers_stray_async_errors_are_logged_and_the_harness_goes_on() -> None:
    engine = Engine(load_config(PLUGINS / "stray"))
    async with engine:
        assert engine.runtime.plugin is not None
        for _ in range(2):  # the first call's stray errors do not take the second one down
            await engine.runtime.plugin.fire(
                "before_tool_call", {"toolName": "exec"}, source="test"
            )
            await wait_for(lambda: len(list(engine.journal.of_type(Stderr))) >= 2)
    lines = [record.line for record in engine.journal.of_type(Stderr)]
    assert "unhandled rejection: Error: nobody awaits this (exec)" in lines
    assert "uncaught exception: Error: thrown in a timer" in lines
    assert [e.status for e in exchanges(engine, "before_tool_call")] == ["ok", "ok"]


async def test_higher_priority_first_each_sees_the_original_and_the_last_params_win() -> None:
    engine, [outcome] = await play(PLUGINS / "order")
    lines = [record.line for record in engine.journal.of_type(Stderr)]
    assert lines == [
        'high saw {"command":"ls"}',
        'low saw {"command":"ls"}',
        "stdout is the harness's: this goes to stderr",
    ]
    [noise] = engine.journal.of_type(Noise)  # past the harness: the answers still arrive
    assert noise.line == "written to file descriptor 1"
    assert outcome.tool_calls[0].params == {"command": "ls", "from": "low"}
    # message_sending: the rewritten content goes on to the next handler
    assert outcome.final_content == "THERE IS A README. [SIGNED]"


@pytest.mark.parametrize(("verdict", "ran"), [(Verdict(ALLOW_ONCE), True), (Verdict(DENY), False)])
async def test_a_person_answers_require_approval_in_the_prompt(verdict: Verdict, ran: bool) -> None:
    engine = Engine(load_config(PLUGINS / "approver"))
    async with engine:
        playing = asyncio.create_task(engine.runtime.turn_runner().run(load_scenario(SCENARIO)))
        await wait_for(lambda: bool(engine.approvals.pending))
        [prompt] = engine.approvals.pending
        assert (prompt.tool, prompt.arguments) == ("exec", {"command": "ls"})
        assert prompt.hook == "approver: Run exec?"
        engine.approvals.decide(prompt.id, verdict)
        [outcome] = await playing
    assert outcome.tool_calls[0].ran is ran
    assert tool_decision(engine).verdict == ("allow" if ran else "block")


async def test_message_sending_cancel_keeps_the_reply_from_the_channel(tmp_path: Path) -> None:
    folder = shutil.copytree(PLUGINS / "order", tmp_path / "order")
    (folder / "index.js").write_text(
        'module.exports = { register(api) { api.on("message_sending", () => ({ cancel: true }));'
        " } };\n"
    )
    _engine, [outcome] = await play(folder)
    assert outcome.status == NOT_DELIVERED


async def test_saving_the_plugin_reloads_it(tmp_path: Path) -> None:
    folder = shutil.copytree(PLUGINS / "thrower", tmp_path / "thrower")
    engine = Engine(load_config(folder))
    reloads: list[Reload] = []
    async with engine:
        reloader = Reloader(engine, folder, on_reload=reloads.append)
        watching = asyncio.create_task(reloader.watch())
        try:
            await reloader.armed.wait()
            source = (folder / "index.js").read_text()
            (folder / "index.js").write_text(source.replace("policy file missing", "edited"))
            await wait_for(lambda: bool(reloads), timeout=30)
        finally:
            watching.cancel()
        assert reloads[0].restarted == ["thrower"] and reloads[0].failed == []
        event = {"toolName": "exec", "params": {}}
        await engine.send_through_pipeline("before_tool_call", {"event": event, "ctx": {}})
    assert exchanges(engine, "before_tool_call")[-1].error == "Error: edited"
    pids = [r.pid for r in engine.journal.of_type(Lifecycle) if r.state == "ready"]
    assert len(set(pids)) == 2  # a new Node process holds the new code


async def test_a_plugin_that_does_not_load_is_a_failed_start() -> None:
    engine = Engine(load_config(PLUGINS / "broken"))
    async with engine:
        pass
    failed = [r for r in engine.journal.of_type(Lifecycle) if r.state == "failed"]
    assert len(failed) == 1 and "SyntaxError" in failed[0].detail


def test_run_exits_1_when_the_plugin_does_not_load(capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(PLUGINS / "broken"), "--scenario", str(SCENARIO)]) == 1
    assert "never ready: broken" in capfd.readouterr().err


def test_the_example_plugin_redacts_and_blocks(capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE)]) == 0
    out = capfd.readouterr().out
    assert "decision before_tool_call: block exec by tool-guard#1" in out
    assert "refusing to run: rm -rf /" in out


async def test_the_example_plugin_gives_redacted_params_to_the_tool() -> None:
    _engine, [outcome] = await play(EXAMPLE, scenario=EXAMPLE / "scenario.yaml")
    first, second = outcome.tool_calls
    assert first.params == {"command": "rm -rf ./build", "api_token": "[redacted]"}
    assert first.ran and not second.ran


@pytest.mark.parametrize(
    ("file", "text", "where"),
    [
        ("openclaw.plugin.json", '{"configSchema": {}}', "openclaw.plugin.json:1: id:"),
        ("openclaw.plugin.json", '{"id": "x"}', "openclaw.plugin.json:1: configSchema:"),
        ("package.json", '{\n "openclaw": {"extensions": []}\n}', "package.json:2: openclaw.ext"),
        ("package.json", '{"openclaw": {"extensions": ["./gone.js"]}}', "no such file: ./gone.js"),
    ],
)
def test_a_bad_plugin_folder_is_one_line_and_exit_2(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], file: str, text: str, where: str
) -> None:
    folder = shutil.copytree(PLUGINS / "order", tmp_path / "plugin")
    (folder / file).write_text(text)
    with pytest.raises(ConfigError):
        load_config(folder)
    assert main(["run", str(folder)]) == 2
    err = capfd.readouterr().err
    assert where in err and len(err.strip().splitlines()) == 1


def test_check_calls_every_hook_a_plugin_registered(capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EXAMPLE)]) == 0
    out = capfd.readouterr().out
    assert "probed: after_tool_call, agent_end, before_tool_call" in out
    assert "1 of 1 hook(s) pass" in out


def test_check_fails_a_plugin_with_a_trap_or_that_does_not_load(
    capfd: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(PLUGINS / "traps")]) == 1
    assert "✗ openclaw-no-conversation-access" in capfd.readouterr().out
    assert main(["check", str(PLUGINS / "broken")]) == 1
    assert "✗ never became ready" in capfd.readouterr().out


async def test_the_filter_finds_a_plugin_s_calls_by_tool() -> None:
    from inspector.filter import compile_filter

    engine, _outcomes = await play(PLUGINS / "order")
    matching = compile_filter("tool:exec")
    assert [e.method for e in engine.journal.of_type(Exchange) if matching(e)] == [
        "before_tool_call",
        "before_tool_call",
    ]


async def test_one_handler_by_hand_and_a_composed_hook_through_the_chain() -> None:
    engine = Engine(load_config(PLUGINS / "order"))
    async with engine:
        plugin = engine.runtime.plugin
        assert plugin is not None
        assert plugin.handler_names() == ["order#1", "order#2", "order#3", "order#4"]
        request = plugin.template("before_tool_call")
        assert request["event"]["toolName"] == "exec"
        one = await engine.send_to_hook("order#1", "before_tool_call", request)
        assert (one.hook, one.response and one.response["result"]) == (
            "order#1",
            {"params": {"from": "low"}},
        )
        merged = await engine.send_through_pipeline("before_tool_call", request)
    assert [e.hook for e in exchanges(engine, "before_tool_call")] == [
        "order#1",
        "order#2",
        "order#1",
    ]
    assert merged.tool_params() == {"command": "ls", "from": "low"}  # type: ignore[union-attr]


async def test_replay_sends_each_recorded_call_to_its_handler_again(tmp_path: Path) -> None:
    from inspector.drivers.replay import replay

    folder = shutil.copytree(PLUGINS / "thrower", tmp_path / "thrower")
    recorded, _outcomes = await play(folder)
    async with Engine(load_config(folder)) as same:
        assert [item.outcome for item in (await replay(same, recorded.journal.records)).items] == [
            "same"
        ]
    entry = folder / "index.js"
    entry.write_text(entry.read_text().replace("policy file missing", "policy moved"))
    async with Engine(load_config(folder)) as changed:
        [item] = (await replay(changed, recorded.journal.records)).items
    assert item.outcome == "different"
    assert item.replayed == {"threw": "Error: policy moved"}


def test_the_filter_knows_openclaw_s_hook_names() -> None:
    from inspector.filter import compile_filter

    for name in ("before_tool_call", "agent_end", "message_sending"):
        compile_filter(f"method:{name}")  # no FilterError: a known method


async def test_the_intercept_holds_a_hook_at_its_entry_and_the_handlers_get_the_edit() -> None:
    engine = Engine(load_config(PLUGINS / "order"))
    engine.set_intercept("method:before_tool_call")
    async with engine:
        assert engine.runtime.plugin is not None
        event = {"toolName": "exec", "params": {"command": "ls"}}
        firing = asyncio.create_task(
            engine.runtime.plugin.fire("before_tool_call", event, source="t")
        )
        await wait_for(lambda: bool(engine.held))
        (held,) = engine.held
        assert held.exchange.stage_entry and held.params["event"] == event
        edited = {"event": {**event, "params": {"command": "pwd"}}, "ctx": {}}
        assert engine.forward(held.seq, edited)
        merge = await firing
    lines = [record.line for record in engine.journal.of_type(Stderr)]
    assert 'high saw {"command":"pwd"}' in lines and 'low saw {"command":"pwd"}' in lines
    assert merge.tool_params() == {"command": "pwd", "from": "low"}


async def test_the_intercept_at_each_handler_holds_its_call_and_a_drop_skips_it() -> None:
    engine = Engine(load_config(PLUGINS / "order"))
    engine.set_intercept("@hook method:before_tool_call")
    async with engine:
        assert engine.runtime.plugin is not None
        event = {"toolName": "exec", "params": {"command": "ls"}}
        firing = asyncio.create_task(
            engine.runtime.plugin.fire("before_tool_call", event, source="t")
        )
        await wait_for(lambda: bool(engine.held))
        (first,) = engine.held
        assert first.exchange.hook == "order#2"  # the higher priority handler comes first
        assert engine.drop(first.seq)
        await wait_for(lambda: bool(engine.held) and engine.held[0].seq != first.seq)
        assert engine.held[0].exchange.hook == "order#1"
        assert engine.forward(engine.held[0].seq)
        merge = await firing
    lines = [record.line for record in engine.journal.of_type(Stderr)]
    assert not any(line.startswith("high saw") for line in lines)  # never called
    assert 'low saw {"command":"ls"}' in lines
    assert merge.tool_params() == {"command": "ls", "from": "low"}
    dropped = [e for e in exchanges(engine, "before_tool_call") if e.hook == "order#2"]
    assert [e.status for e in dropped] == ["dropped"]
