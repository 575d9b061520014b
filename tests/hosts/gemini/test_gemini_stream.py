"""A model reply streamed in chunks as `gemini -p` (0.61.0) streams it: AfterModel once per chunk
with that chunk alone, a hook's answer to one chunk (its text replaced, its calls gone, a deny
ending the stream), and what the turn's answer and AfterAgent make of the chunks."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector.config.errors import ConfigError
from inspector.hosts.gemini.turn import GeminiTurnOutcome
from inspector.scenario import parse_scenario
from tests.hosts.gemini.test_gemini_hooks import gemini_hooks, spec
from tests.hosts.gemini.test_gemini_turn import recorded, recorders

STREAMED = """
turns:
  - user: "tidy up"
    rounds:
      - content: "Let me make the file first."
        tool_calls:
          - tool: run_shell_command
            arguments: {command: "touch made.txt"}
      - chunks: ["Done", ": made.txt", " is there."]
"""
ANSWER_WHEN = """
import json, sys
event = json.load(sys.stdin)
response = event.get("llm_response", {})
if response.get("text") == sys.argv[1] or (sys.argv[1] == "CALL" and response.get("text") == ""):
    print(sys.argv[2])
"""


def answering(tmp_path: Path, chunk: str, answer: dict[str, Any]) -> str:
    """An AfterModel hook that answers `answer` to the chunk whose text is `chunk` ("CALL": a
    function call's chunk) and nothing to the others."""
    script = tmp_path / "answer_when.py"
    script.write_text(ANSWER_WHEN)
    words = [sys.executable, str(script), chunk, json.dumps(answer)]
    return " ".join(shlex.quote(word) for word in words)


def rewrite(text: str) -> dict[str, Any]:
    candidate = {"content": {"role": "model", "parts": [text]}}
    return {"hookSpecificOutput": {"llm_response": {"candidates": [candidate]}}}


async def play(tmp_path: Path, command: str = "") -> tuple[GeminiTurnOutcome, list[Any]]:
    record = tmp_path / "record.jsonl"
    specs = [*recorders(record)] + ([spec(command, "AfterModel")] if command else [])
    runner = gemini_hooks(tmp_path, *specs).turn_runner()
    [outcome] = await runner.run(parse_scenario(STREAMED))
    return outcome, recorded(record)


def responses(calls: list[Any]) -> list[Any]:
    return [call["llm_response"] for call in calls if call["hook_event_name"] == "AfterModel"]


def after_agent(calls: list[Any]) -> str:
    [answer] = [call for call in calls if call["hook_event_name"] == "AfterAgent"]
    return str(answer["prompt_response"])


async def test_after_model_fires_once_per_chunk_with_that_chunk_alone(tmp_path: Path) -> None:
    outcome, calls = await play(tmp_path)
    said = [(said["text"], said["candidates"][0]["content"]["parts"]) for said in responses(calls)]
    assert said == [
        ("Let me make the ", ["Let me make the "]),
        ("file first.", ["file first."]),
        ("", []),  # the function call's chunk
        ("Done", ["Done"]),
        (": made.txt", [": made.txt"]),
        (" is there.", [" is there."]),
    ]
    first, *_, last_of_call = responses(calls)[:3]
    assert "finishReason" not in first["candidates"][0] and "usageMetadata" not in first
    assert last_of_call["candidates"][0]["finishReason"] == "STOP"
    assert last_of_call["usageMetadata"]["candidatesTokenCount"] == 3
    assert outcome.final_content == "Done: made.txt is there."
    # AfterAgent reads each chunk's text joined by spaces, the first of a run of text chunks
    # grown to the whole run (Gemini CLI joins the run into that chunk's part in place)
    assert after_agent(calls) == (
        "Let me make the file first. file first. \nDone: made.txt is there. : made.txt  is there."
    )


async def test_a_hook_s_answer_replaces_its_chunk_in_the_answer_not_in_the_history(
    tmp_path: Path,
) -> None:
    outcome, calls = await play(tmp_path, answering(tmp_path, ": made.txt", rewrite(" [checked]")))
    assert outcome.final_content == "Done [checked] is there."
    assert after_agent(calls).endswith("\nDone: made.txt is there.  [checked]  is there.")
    [*_, second] = outcome.model_requests
    assert second["messages"][-1] == {"role": "model", "content": "Let me make the file first."}


async def test_a_function_call_s_chunk_a_hook_replaced_never_runs(tmp_path: Path) -> None:
    outcome, calls = await play(tmp_path, answering(tmp_path, "CALL", rewrite("No call.")))
    assert outcome.tool_uses == [] and len(outcome.model_requests) == 1
    assert outcome.final_content == "Let me make the file first.No call."
    assert "BeforeTool" not in [call["hook_event_name"] for call in calls]


async def test_a_deny_on_a_text_chunk_ends_the_stream_and_the_turn_there(tmp_path: Path) -> None:
    deny = {"decision": "deny", "reason": "enough"}
    outcome, calls = await play(tmp_path, answering(tmp_path, "file first.", deny))
    assert (outcome.status, outcome.reason) == ("model_blocked", "enough")
    assert len(responses(calls)) == 2 and outcome.tool_uses == []
    assert outcome.final_content == "Let me make the file first."  # the refused chunk goes on
    assert after_agent(calls) == "Let me make the  file first."


async def test_a_deny_on_a_function_call_s_chunk_still_runs_the_call(tmp_path: Path) -> None:
    outcome, calls = await play(tmp_path, answering(tmp_path, "CALL", {"decision": "deny"}))
    [use] = outcome.tool_uses
    assert use.ran and outcome.status == "completed"
    assert outcome.final_content == "Done: made.txt is there."
    [*_, second] = outcome.model_requests  # the refused reply never reached the history
    assert [message["role"] for message in second["messages"]] == ["user"]
    assert after_agent(calls).startswith("Let me make the  file first. \n")


def test_a_round_s_chunks_must_join_to_its_content() -> None:
    text = 'turns: [{user: hi, rounds: [{content: "Done.", chunks: ["Do", "ne"]}]}]'
    with pytest.raises(ConfigError, match=r"turns\[0\]\.rounds\[0\]\.chunks.*join"):
        parse_scenario(text)
    [turn] = parse_scenario('turns: [{user: hi, rounds: [{chunks: ["Do", "ne."]}]}]').turns
    assert turn.rounds[0].content == "Done."
    [turn] = parse_scenario('turns: [{user: hi, rounds: [{content: "Done.", chunks: null}]}]').turns
    assert (turn.rounds[0].content, turn.rounds[0].chunks) == ("Done.", None)  # null is unset
