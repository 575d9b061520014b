"""j-cli turns: events in the order j-cli's call sites fire them, with the fields each carries,
and the result fields each call site honours (TUI and one-shot)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import CommandHookSpec
from inspector.hosts.jcli.chain import JcliChain
from inspector.hosts.jcli.config import read_jcli
from inspector.hosts.jcli.events import EVENTS
from inspector.hosts.jcli.turn import (
    ABORTED,
    BLOCKED,
    COMPLETED,
    ERROR,
    SKIPPED_BY_HOOK,
    JcliTurnOutcome,
    JcliTurnRunner,
    Mode,
)
from inspector.journal.journal import Journal
from inspector.scenario import load_scenario, parse_scenario
from tests.support.jcli import (
    codes,
    decisions,
    exchanges,
    reply,
    sh,
    spec,
)
from tests.support.memory_command_hook import Answer, Ran, jcli_in_memory
from tests.support.paths import EXAMPLES

EXAMPLE = EXAMPLES / "jcli"

SCENARIO = """
session: s1
model: gpt-4o
system: be brief
turns:
  - user: hello
    rounds:
      - content: looking
        tool_calls:
          - tool: Bash
            arguments: {command: ls}
            result: a b
          - tool: Read
            arguments: {path: x}
            error: no such file
      - content: done
"""
ONE_ROUND = """
session: s1
model: gpt-4o
turns:
  - user: hello
    rounds:
      - content: done
"""


async def play(
    *specs: CommandHookSpec,
    scenario: str = SCENARIO,
    mode: Mode = "tui",
    cwd: str = "/work",
    in_memory: Mapping[str, Sequence[Answer]] | None = None,
    ran: list[Ran] | None = None,
    **options: Any,
) -> tuple[list[JcliTurnOutcome], Journal]:
    """The scenario played over `specs`; the hooks named in `in_memory` answer from there and
    put what they were given in `ran`."""
    journal = Journal()
    chain = JcliChain(specs, journal, cwd=cwd)
    jcli_in_memory(chain, in_memory or {}, ran)
    runner = JcliTurnRunner(chain, mode=mode, **options)
    return await runner.run(parse_scenario(scenario)), journal


RECORDER = {"rec": [{"stdout": "{}"}]}  # it answers no change, as tests/hooks/jcli/record.py


def recorder() -> list[CommandHookSpec]:
    """One hook on every event, first in the chain, in memory (RECORDER): what the turn sends
    is the subject, not how a process reads it."""
    return [spec("rec", "in memory", event=event, level="user") for event in EVENTS]


def contexts(ran: list[Ran]) -> list[dict[str, Any]]:
    return [run.context for run in ran if run.hook == "rec"]


def on(event: str, command: str, name: str = "hook", **fields: Any) -> CommandHookSpec:
    return spec(name, command, event=event, level="project", **fields)


# ---- order and contexts --------------------------------------------------------------------


async def test_tui_event_order_and_context_fields() -> None:
    ran: list[Ran] = []
    (outcome,), _ = await play(*recorder(), in_memory=RECORDER, ran=ran)
    assert outcome.status == COMPLETED and outcome.final_content == "done"
    seen = contexts(ran)
    round_events = ["pre_micro_compact", "post_micro_compact", "pre_llm_request"]
    tool_events = ["pre_tool_execution", "post_tool_execution"]
    assert [context["event"] for context in seen] == [
        "session_start",
        "pre_send_message",
        "post_send_message",
        *round_events,
        *tool_events,
        *tool_events,  # an errored result goes to post_tool_execution in the TUI
        *round_events,
        "stop",
        "post_llm_response",
        "session_end",
    ]
    keys = {context["event"]: list(context) for context in seen}
    assert keys == {
        "session_start": ["event", "messages", "session_id", "cwd"],
        "pre_send_message": ["event", "messages", "user_input", "session_id", "cwd"],
        "post_send_message": ["event", "messages", "user_input", "session_id", "cwd"],
        "pre_micro_compact": ["event", "messages", "model", "session_id", "cwd"],
        "post_micro_compact": ["event", "messages", "session_id", "cwd"],
        "pre_llm_request": ["event", "messages", "system_prompt", "model", "session_id", "cwd"],
        "pre_tool_execution": ["event", "tool_name", "tool_arguments", "session_id", "cwd"],
        "post_tool_execution": ["event", "tool_name", "tool_result", "session_id", "cwd"],
        "stop": [
            "event",
            "messages",
            "system_prompt",
            "model",
            "user_input",
            "session_id",
            "cwd",
        ],
        "post_llm_response": [
            "event",
            "messages",
            "model",
            "assistant_output",
            "session_id",
            "cwd",
        ],
        "session_end": ["event", "messages", "session_id", "cwd"],
    }
    by_event = {context["event"]: context for context in seen}
    assert by_event["pre_send_message"]["messages"] == []  # the history before the message
    assert by_event["post_send_message"]["messages"] == [{"role": "user", "content": "hello"}]
    assert seen[6]["tool_arguments"] == '{"command": "ls"}'  # a string, not an object
    assert seen[9]["tool_result"] == "no such file"
    assert by_event["stop"]["user_input"] == "done"  # the final reply, under user_input
    assert by_event["post_llm_response"]["assistant_output"] == "done"
    assert {context["cwd"] for context in seen} == {"/work"}
    assert by_event["session_end"]["messages"] == outcome.messages


async def test_one_shot_order_and_fields() -> None:
    ran: list[Ran] = []
    await play(*recorder(), mode="oneshot", in_memory=RECORDER, ran=ran)
    seen = contexts(ran)
    round_events = ["pre_micro_compact", "post_micro_compact", "pre_llm_request"]
    assert [context["event"] for context in seen] == [
        "session_start",
        *round_events,
        "pre_tool_execution",
        "post_tool_execution",
        "pre_tool_execution",
        "post_tool_execution_failure",  # errored results go to the failure hook
        *round_events,
        "stop",
    ]
    assert seen[0]["model"] == "gpt-4o"
    assert seen[5]["tool_arguments"] == '{"command": "ls"}'
    assert seen[7]["tool_error"] == "no such file" and "tool_arguments" in seen[7]


async def test_history_carries_over_between_tui_turns() -> None:
    ran: list[Ran] = []
    two_turns = ONE_ROUND + "  - user: again\n    rounds:\n      - content: ok\n"
    recording = on("pre_send_message", "in memory", "rec")
    outcomes, _ = await play(recording, scenario=two_turns, in_memory=RECORDER, ran=ran)
    assert [len(context["messages"]) for context in contexts(ran)] == [0, 2]
    assert outcomes[1].messages[-1] == {"role": "assistant", "content": "ok"}


# ---- tools ---------------------------------------------------------------------------------


async def test_skip_at_pre_tool_execution() -> None:
    ran: list[Ran] = []
    hooks = (
        *recorder(),
        on("pre_tool_execution", reply({"action": "skip"}), tool_name="Bash"),
    )
    (outcome,), _ = await play(*hooks, in_memory=RECORDER, ran=ran)
    bash = outcome.tools[0]
    assert bash.skipped and bash.result == SKIPPED_BY_HOOK and bash.is_error
    events = [context["event"] for context in contexts(ran)]
    first_tool = events[events.index("pre_tool_execution") :][:3]
    assert first_tool == [
        "pre_tool_execution",
        "post_tool_execution_failure",
        "post_tool_execution",
    ]
    tool_message = next(m for m in outcome.messages if m.get("tool_call_id") == "call_1")
    assert tool_message["content"] == SKIPPED_BY_HOOK


@pytest.mark.parametrize("how", ["answer", "on_error"])
async def test_stop_at_pre_tool_execution_is_ignored_in_the_tui(how: str) -> None:
    command = reply({"action": "stop"}) if how == "answer" else reply("oops")
    hook = on("pre_tool_execution", command, tool_name="Bash", on_error="stop")
    (outcome,), journal = await play(hook)
    assert not outcome.tools[0].skipped and outcome.tools[0].result == "a b"
    assert "jcli-stop-ignored" in codes(exchanges(journal)[0])


async def test_stop_at_pre_tool_execution_skips_in_one_shot() -> None:
    hook = on("pre_tool_execution", reply({"action": "stop"}), tool_name="Bash")
    (outcome,), journal = await play(hook, mode="oneshot")
    assert outcome.tools[0].skipped
    assert codes(exchanges(journal)[0]) == []


async def test_tool_arguments_and_results_are_replaced() -> None:
    hooks = (
        on("pre_tool_execution", reply({"tool_arguments": '{"command":"pwd"}'}), tool_name="Bash"),
        on("post_tool_execution", reply({"tool_result": "masked"}), "post", tool_name="Bash"),
        on("post_tool_execution_failure", reply({"tool_error": "x"}), "fail"),
    )
    (outcome,), _ = await play(*hooks)
    assert (outcome.tools[0].arguments, outcome.tools[0].result) == ('{"command":"pwd"}', "masked")
    assert outcome.tools[1].result == "no such file"  # the TUI fires no failure hook for it


# ---- the LLM side --------------------------------------------------------------------------


async def test_pre_llm_request_stop_aborts_the_run() -> None:
    (outcome,), journal = await play(on("pre_llm_request", reply({"action": "stop"})))
    assert outcome.status == ABORTED and "HookAborted" in (outcome.error or "")
    assert outcome.tools == [] and outcome.final_content == ""
    assert decisions(journal)[0].verdict == "stop"


async def test_pre_llm_request_replaces_and_injects_messages(tmp_path: Path) -> None:
    answer = {
        "messages": [{"role": "user", "content": "rewritten"}],
        "inject_messages": [{"role": "system", "content": "rules"}],
        "system_prompt": "be verbose",
    }
    hook = on("pre_llm_request", sh("once.sh", tmp_path / "once", json.dumps(answer)))
    (outcome,), _ = await play(hook, scenario=ONE_ROUND)
    (request,) = outcome.llm_requests
    assert request == {
        "system_prompt": "be verbose",
        "messages": [
            {"role": "user", "content": "rewritten"},
            {"role": "system", "content": "rules"},
        ],
    }


async def test_fields_a_call_site_ignores_get_a_finding() -> None:
    hook = on("pre_llm_request", reply({"additional_context": "x", "retry_feedback": "y"}))
    _, journal = await play(hook, scenario=ONE_ROUND)
    (finding,) = exchanges(journal)[0].findings
    assert finding.code == "jcli-field-ignored"
    assert "additional_context, retry_feedback" in finding.message


async def test_pre_send_message_stop_blocks_and_user_input_replaces() -> None:
    (blocked,), _ = await play(
        on("pre_send_message", reply({"action": "stop"})), scenario=ONE_ROUND
    )
    assert blocked.status == BLOCKED and blocked.messages == []
    (edited,), _ = await play(
        on("pre_send_message", reply({"user_input": "[09:00] hello"})), scenario=ONE_ROUND
    )
    assert edited.messages[0] == {"role": "user", "content": "[09:00] hello"}


async def test_stop_feedback_asks_for_another_round(tmp_path: Path) -> None:
    hook = on("stop", sh("once.sh", tmp_path / "once", '{"retry_feedback": "cite sources"}'))
    (outcome,), _ = await play(hook, scenario=ONE_ROUND)
    assert outcome.status == COMPLETED and len(outcome.llm_requests) == 2
    assert {"role": "user", "content": "cite sources"} in outcome.messages


async def test_a_stop_hook_that_always_wants_more_is_cut_off() -> None:
    (outcome,), journal = await play(
        on("stop", reply({"retry_feedback": "again"})), scenario=ONE_ROUND
    )
    assert outcome.status == ERROR and len(outcome.llm_requests) == 3
    assert "jcli-feedback-loop" in codes(exchanges(journal)[-1])


async def test_stop_action_aborts_in_the_tui_but_not_in_one_shot() -> None:
    hook = on("stop", reply({"action": "stop"}))
    (tui,), _ = await play(hook, scenario=ONE_ROUND)
    (oneshot,), _ = await play(hook, scenario=ONE_ROUND, mode="oneshot")
    assert (tui.status, oneshot.status) == (ABORTED, COMPLETED)


async def test_post_llm_response_edits_and_resends(tmp_path: Path) -> None:
    (edited,), _ = await play(
        on("post_llm_response", reply({"assistant_output": "DONE", "system_message": "hi"})),
        scenario=ONE_ROUND,
    )
    assert edited.final_content == "DONE" and edited.notices == ["hi"]
    assert edited.messages[-1]["content"] == "DONE"
    stop = json.dumps({"action": "stop", "retry_feedback": "shorter please"})
    outcomes, _ = await play(
        on("post_llm_response", sh("once.sh", tmp_path / "once", stop)), scenario=ONE_ROUND
    )
    first, resent = outcomes
    assert first.final_content == "" and first.resend == "shorter please"
    assert resent.messages[-2] == {"role": "user", "content": "shorter please"}
    assert resent.final_content == "done"


async def test_compaction_events() -> None:
    micro_stop = on("pre_micro_compact", reply({"action": "stop"}), "micro")
    post_micro = on("post_micro_compact", reply("{}"), "post-micro")
    auto = on("pre_auto_compact", reply("{}"), "auto")
    _, journal = await play(micro_stop, post_micro, auto, scenario=ONE_ROUND, auto_compact_tokens=0)
    assert [x.hook for x in exchanges(journal)] == ["micro"]  # stop skips both compactions
    _, journal = await play(post_micro, auto, scenario=ONE_ROUND, auto_compact_tokens=0)
    assert [x.hook for x in exchanges(journal)] == ["post-micro", "auto"]
    _, journal = await play(auto, scenario=ONE_ROUND, micro_compact=False)
    assert exchanges(journal) == []  # under the threshold: no auto compaction


# ---- the shipped example -------------------------------------------------------------------


async def test_the_example_hooks_on_the_example_scenario() -> None:
    loaded = read_jcli(EXAMPLE)
    journal = Journal()
    chain = JcliChain(loaded.config.command_hooks, journal, cwd=str(loaded.cwd))
    (outcome,) = await JcliTurnRunner(chain).run(load_scenario(EXAMPLE / "scenario.yaml"))
    ls, rm, read = outcome.tools
    assert not ls.skipped and rm.skipped and rm.result == SKIPPED_BY_HOOK
    assert read.result == "API_KEY=[REDACTED]\nREGION=eu-west-1"
    rules = [m for m in outcome.messages if "[project rules]" in str(m.get("content"))]
    assert len(rules) == 1  # injected once although pre_llm_request fired twice
    assert all(not x.findings for x in exchanges(journal))
