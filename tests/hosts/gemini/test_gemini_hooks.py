"""Gemini CLI hooks for one event, run as 0.61.0 runs them: what an exit code and the text on
stdout or stderr come to, how several hooks' answers merge per event, sequential chains, and the
variables replaced in a command, with real scripts."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import CommandHookSpec, Config
from inspector.engine import Engine
from inspector.hooks.approvals import Approvals, Verdict
from inspector.hosts.gemini.chain import GeminiHooks
from inspector.hosts.gemini.outcome import EventOutcome
from inspector.hosts.gemini.templates import example_payload
from inspector.journal.journal import Journal
from inspector.journal.records import Decision, Exchange
from tests.support.claude import answer_prompts, reply
from tests.support.waiting import wait_for

REASON = "rm -rf is not allowed"


def spec(command: str, event: str = "BeforeTool", **more: Any) -> CommandHookSpec:
    name = more.pop("name", f"{event}:{abs(hash(command)) % 10_000}")
    return CommandHookSpec(name, "gemini", event, command, 5000, level="project", **more)


def gemini_hooks(tmp_path: Path, *specs: CommandHookSpec) -> GeminiHooks:
    return GeminiHooks(specs, Journal(), Approvals(), project_dir=tmp_path)


async def fire(
    tmp_path: Path, *specs: CommandHookSpec, event: str = "BeforeTool"
) -> tuple[EventOutcome, list[Exchange]]:
    hooks = gemini_hooks(tmp_path, *specs)
    outcome = await hooks.fire(event, example_payload(event, str(tmp_path)), source="test")
    return outcome, list(hooks.journal.exchanges())


def codes(exchange: Exchange) -> list[str]:
    return [finding.code for finding in exchange.findings]


async def test_exit_2_with_a_reason_on_stderr_blocks_with_it(tmp_path: Path) -> None:
    outcome, [run] = await fire(tmp_path, spec(reply(2, "", REASON)))
    assert (outcome.blocked, outcome.reason, run.action) == (True, REASON, "deny")


async def test_exit_2_with_nothing_said_blocks_nothing(tmp_path: Path) -> None:
    outcome, [run] = await fire(tmp_path, spec(reply(2)))
    assert (outcome.blocked, outcome.merged, run.action) == (False, None, "error")
    assert codes(run) == ["gemini-silent-exit-2"]


async def test_any_exit_but_0_and_1_with_text_blocks(tmp_path: Path) -> None:
    outcome, _ = await fire(tmp_path, spec(reply(3, "", REASON)))
    assert outcome.blocked and outcome.reason == REASON


async def test_exit_1_with_text_is_a_warning_and_lets_the_tool_run(tmp_path: Path) -> None:
    outcome, [run] = await fire(tmp_path, spec(reply(1, "", REASON)))
    assert not outcome.blocked and outcome.system_message == f"Warning: {REASON}"
    assert codes(run) == ["gemini-exit-1-meant-2"]


async def test_json_on_stdout_decides_whatever_the_exit_code(tmp_path: Path) -> None:
    outcome, [run] = await fire(tmp_path, spec(reply(2, {"decision": "allow"}, REASON)))
    assert not outcome.blocked and codes(run) == ["gemini-exit-code-ignored"]


async def test_json_held_in_a_json_string_is_read(tmp_path: Path) -> None:
    inner = json.dumps({"decision": "deny", "reason": REASON})
    outcome, _ = await fire(tmp_path, spec(reply(0, json.dumps(inner))))
    assert outcome.blocked and outcome.reason == REASON


async def test_one_deny_among_parallel_hooks_blocks_and_reasons_join(tmp_path: Path) -> None:
    outcome, runs = await fire(
        tmp_path,
        spec(reply(0, {"decision": "allow", "reason": "fine"})),
        spec(reply(0, {"decision": "deny", "reason": REASON})),
    )
    assert len(runs) == 2 and outcome.blocked
    assert outcome.reason == f"fine\n{REASON}"


async def test_continue_false_stops_and_its_stop_reason_wins(tmp_path: Path) -> None:
    answer = {"continue": False, "stopReason": "enough", "decision": "deny", "reason": REASON}
    outcome, _ = await fire(tmp_path, spec(reply(0, answer)))
    assert outcome.stopped and outcome.verdict == "stop" and outcome.reason == "enough"


async def test_tool_selection_takes_the_union_and_none_wins(tmp_path: Path) -> None:
    def selection(mode: str, *names: str) -> dict[str, Any]:
        config = {"mode": mode, "allowedFunctionNames": list(names)}
        return {"hookSpecificOutput": {"toolConfig": config}}

    event = "BeforeToolSelection"
    union, _ = await fire(
        tmp_path,
        spec(reply(0, selection("AUTO", "read_file")), event),
        spec(reply(0, selection("ANY", "glob", "read_file")), event),
        event=event,
    )
    assert union.specific["toolConfig"] == {
        "mode": "ANY",
        "allowedFunctionNames": ["glob", "read_file"],
    }
    none, _ = await fire(
        tmp_path,
        spec(reply(0, selection("NONE")), event),
        spec(reply(0, selection("AUTO", "glob")), event),
        event=event,
    )
    assert none.specific["toolConfig"] == {"mode": "NONE", "allowedFunctionNames": []}


async def test_model_answers_replace_earlier_fields(tmp_path: Path) -> None:
    first = {"hookSpecificOutput": {"llm_request": {"model": "a"}, "x": 1}}
    second = {"hookSpecificOutput": {"llm_request": {"model": "b"}}}
    outcome, _ = await fire(
        tmp_path,
        spec(reply(0, first), "BeforeModel", sequential=True),
        spec(reply(0, second), "BeforeModel"),
        event="BeforeModel",
    )
    assert outcome.specific == {"llm_request": {"model": "b"}, "x": 1}


async def test_a_sequential_chain_hands_the_rewritten_input_on(tmp_path: Path) -> None:
    record = tmp_path / "second.json"
    rewrite = {"hookSpecificOutput": {"tool_input": {"command": "ls"}}}
    outcome, _ = await fire(
        tmp_path,
        spec(reply(0, rewrite), sequential=True),
        spec(f"cat > {record}"),
    )
    assert json.loads(record.read_text())["tool_input"]["command"] == "ls"
    assert outcome.tool_input == {"command": "ls"}


async def test_parallel_hooks_all_get_the_model_s_input(tmp_path: Path) -> None:
    record = tmp_path / "second.json"
    rewrite = {"hookSpecificOutput": {"tool_input": {"command": "ls"}}}
    await fire(tmp_path, spec(reply(0, rewrite)), spec(f"cat > {record}"))
    assert json.loads(record.read_text())["tool_input"]["command"] == "rm -rf build"


async def test_the_project_variables_are_replaced_in_the_command(tmp_path: Path) -> None:
    folder = tmp_path / "a folder"
    folder.mkdir()
    hooks = gemini_hooks(folder, spec("cat > /dev/null; echo $GEMINI_PROJECT_DIR > seen.txt"))
    await hooks.fire("BeforeTool", example_payload("BeforeTool", str(folder)), source="test")
    [run] = hooks.journal.exchanges()
    assert (folder / "seen.txt").read_text().strip() == str(folder)
    assert [d.verdict for d in hooks.journal.of_type(Decision)] == ["allow"]
    assert run.exit_code == 0


async def test_a_matcher_is_a_regex_on_tool_names_and_exact_on_sources(tmp_path: Path) -> None:
    hooks = gemini_hooks(
        tmp_path,
        spec(reply(0), matcher="run_.*", name="tool"),
        spec(reply(0), matcher="other", name="other"),
        spec(reply(0), "SessionStart", matcher="startup", name="start"),
        spec(reply(0), "SessionStart", matcher="start", name="partial"),
    )
    tool = example_payload("BeforeTool", str(tmp_path))
    start = example_payload("SessionStart", str(tmp_path))
    assert [hook.name for hook in hooks.matching("BeforeTool", tool)] == ["tool"]
    assert [hook.name for hook in hooks.matching("SessionStart", start)] == ["start"]


@pytest.mark.parametrize(("verdict", "decided"), [("allow_once", "allow"), ("deny", "deny")])
async def test_a_before_tool_ask_is_decided_by_the_person_at_the_inspector(
    tmp_path: Path, verdict: str, decided: str
) -> None:
    hooks = gemini_hooks(tmp_path, spec(reply(0, {"decision": "ask", "reason": "check it"})))
    seen = answer_prompts(hooks.approvals, Verdict(verdict, reason="not today"))  # type: ignore[arg-type]
    payload = example_payload("BeforeTool", str(tmp_path))
    outcome = await hooks.fire("BeforeTool", payload, source="test")
    [prompt] = seen
    assert (prompt.tool, prompt.arguments) == ("run_shell_command", {"command": "rm -rf build"})
    assert outcome.verdict == decided and outcome.by == ("human",)
    [decision] = hooks.journal.of_type(Decision)
    assert (decision.verdict, decision.by) == (decided, "human")
    assert outcome.reason == ("not today" if decided == "deny" else "check it")


async def test_a_live_ask_the_person_leaves_to_gemini_cli_stays_an_ask(tmp_path: Path) -> None:
    hooks = gemini_hooks(tmp_path, spec(reply(0, {"decision": "ask"})))
    seen = answer_prompts(hooks.approvals, Verdict("ask"))
    payload = example_payload("BeforeTool", str(tmp_path))
    outcome = await hooks.fire("BeforeTool", payload, source="relay:gemini", live=True)
    assert seen[0].agent_asks == "Gemini CLI"
    assert outcome.verdict == "ask" and (outcome.merged or {})["decision"] == "ask"


async def test_a_deny_on_an_advisory_event_decides_nothing(tmp_path: Path) -> None:
    answer = {"decision": "deny", "reason": REASON, "continue": False}
    outcome, [run] = await fire(
        tmp_path, spec(reply(0, answer), "PreCompress"), event="PreCompress"
    )
    assert (outcome.blocked, outcome.stopped, outcome.verdict) == (False, False, "allow")
    assert codes(run) == ["gemini-decision-ignored"]


async def test_the_same_command_under_two_names_runs_twice(tmp_path: Path) -> None:
    command = reply(0, {"decision": "allow"})
    _, runs = await fire(
        tmp_path, spec(command, name="BeforeTool:audit"), spec(command, name="BeforeTool:guard")
    )
    assert len(runs) == 2


async def test_one_hook_repeated_runs_once(tmp_path: Path) -> None:
    command = reply(0, {"decision": "allow"})
    outcome, runs = await fire(
        tmp_path, spec(command, name="BeforeTool:g"), spec(command, name="BeforeTool:g#2")
    )
    assert len(runs) == 1 and outcome.duplicates == (("BeforeTool:g#2", "BeforeTool:g"),)


async def test_a_before_tool_edited_at_its_entry_is_the_call_that_runs(tmp_path: Path) -> None:
    log = tmp_path / "stdin.json"
    hook = spec(f"cat > {log}", name="BeforeTool:record")
    context = example_payload("BeforeTool", str(tmp_path))
    async with Engine(Config(hooks=(hook,), host="gemini", workdir=tmp_path)) as engine:
        engine.set_intercept("method:BeforeTool")
        task = asyncio.create_task(engine.send_through_pipeline("BeforeTool", context))
        await wait_for(lambda: len(engine.held) == 1)
        edited = {**context, "tool_input": {"command": "echo safe"}}
        assert engine.forward(engine.held[0].seq, edited)
        outcome = await task
    assert json.loads(log.read_text()) == edited
    assert outcome.tool_input == {"command": "echo safe"}  # the tool runs the edited call
