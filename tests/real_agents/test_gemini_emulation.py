"""hook-inspector's Gemini CLI emulation against the real `gemini -p` (pinned in gemini_cli.py):
one session with a recording hook on every event, run by the real CLI against the fake Gemini
API and by the emulation's turn runner over the same settings, compared hook call by hook call:
the events in order, each payload's keys in order and their values (ids, times and folders as
patterns), and the variables each hook's environment gained, for replies streamed in one chunk
and in several (AfterModel fires per chunk). Known differences are the data in gemini_gaps.py;
the test asserts them exactly. Then what an AfterModel hook's answer to one chunk does, in the
real CLI and in the emulation."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import gemini_gaps
import pytest
from fake_gemini import Reply, shell
from gemini_cli import GeminiCli
from gemini_emulation import emulate, scenario_like
from gemini_fixtures import gemini_cli, gemini_project  # noqa: F401 (fixtures used by name)
from recorded_hooks import HookCall, read_calls, recording_settings
from test_gemini_real import PROMPT, play, recorder, write_hooks

from inspector.hosts.gemini.events import EVENTS
from inspector.scenario import load_scenario
from tests.support.paths import PACKAGE

JSONObject = dict[str, Any]

SCRIPT = [Reply(calls=(shell("touch made.txt"),)), Reply("Done.")]
# each reply in several chunks: text in the fake's 16-character pieces, then the call; and named
STREAMED = [
    Reply("Let me make the file first.", (shell("touch made.txt"),)),
    Reply(chunks=("Done", ": made.txt", " is there.")),
]
VOLATILE = {
    "session_id": "<session_id>",
    "transcript_path": "<transcript_path>",
    "timestamp": "<timestamp>",
}


def flattened(value: Any, path: str = "") -> dict[str, Any]:
    """Every leaf of `value` by its key path (lists whole)."""
    if isinstance(value, dict) and value:
        leaves: dict[str, Any] = {}
        for key, item in value.items():
            leaves |= flattened(item, f"{path}.{key}" if path else key)
        return leaves
    return {path: value}


def comparable(call: HookCall) -> JSONObject:
    payload = {key: VOLATILE.get(key, value) for key, value in call.payload.items()}
    return {f"{call.event}.{path}": value for path, value in flattened(payload).items()}


@pytest.mark.parametrize("script", [SCRIPT, STREAMED], ids=["one-chunk", "streamed"])
def test_every_hook_payload_matches_the_emulation_key_by_key(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, script: list[Reply]
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    settings = recording_settings(recorder(log), EVENTS)
    (gemini_project / ".gemini" / "settings.json").write_text(json.dumps(settings))
    run, api = play(gemini_cli, gemini_project, home, script)
    real = read_calls(log)
    log.unlink()

    emulate(gemini_project, scenario_like(PROMPT, script))
    emulated = read_calls(log)

    assert [call.event for call in emulated] == [call.event for call in real]
    for mine, theirs in zip(emulated, real, strict=True):
        assert list(mine.payload) == list(theirs.payload), mine.event
        assert mine.stdin.endswith("}") and theirs.stdin.endswith("}")  # no newline after it
    differing: dict[str, str] = {}
    for mine, theirs in zip(emulated, real, strict=True):
        ours, real_values = comparable(mine), comparable(theirs)
        assert ours.keys() == real_values.keys(), mine.event
        differing |= {path: "" for path in ours if ours[path] != real_values[path]}
    assert sorted(differing) == sorted(gemini_gaps.GAPS[gemini_cli.version])
    assert "Tidy up the project." in real[3].payload["llm_request"]["messages"][0]["content"]

    def gained(call: HookCall, started: dict[str, str]) -> set[str]:
        return {name for name in call.env_added(started) if re.match(r"(GEMINI|CLAUDE)_", name)}

    real_env = gained(real[0], run.env)
    assert real_env == gained(emulated[0], {})
    assert real_env == {
        "GEMINI_PROJECT_DIR",
        "GEMINI_PLANS_DIR",
        "GEMINI_CWD",
        "GEMINI_SESSION_ID",
        "CLAUDE_PROJECT_DIR",
        "GEMINI_CLI_NO_RELAUNCH",
    }
    assert api.unscripted == 0


def test_a_hook_rewriting_one_chunk_changes_the_answer_alike_and_not_the_history(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, "chunk-rewrite"), ("AfterModel", "AfterAgent"))
    run, api = play(gemini_cli, gemini_project, home, STREAMED)
    real = read_calls(log)[-1].payload["prompt_response"]
    log.unlink()
    outcome = emulate(gemini_project, scenario_like(PROMPT, STREAMED))

    assert run.result["response"] == outcome.final_content == "Done [checked] is there."
    assert read_calls(log)[-1].payload["prompt_response"] == real
    assert real.endswith("\nDone: made.txt is there.  [checked]  is there.")
    # the model is never told: the history keeps the text as it streamed
    assert "Let me make the file first." in api.texts(api.loop_requests[-1])


def test_an_after_model_deny_on_a_call_s_chunk_still_runs_the_call_in_both(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    events = ("AfterModel", "BeforeTool", "AfterAgent")
    write_hooks(gemini_project, recorder(log, "call-deny"), events)
    run, api = play(gemini_cli, gemini_project, home, STREAMED)
    real = [call.payload for call in read_calls(log)]
    log.unlink()
    outcome = emulate(gemini_project, scenario_like(PROMPT, STREAMED))
    emulated = [call.payload for call in read_calls(log)]

    assert (gemini_project / "made.txt").exists() and len(api.loop_requests) == 2
    assert [call["hook_event_name"] for call in emulated] == [
        call["hook_event_name"] for call in real
    ]
    assert emulated[-1]["prompt_response"] == real[-1]["prompt_response"]
    assert run.result["response"] == outcome.final_content
    assert [use.ran for use in outcome.tool_uses] == [True]


def test_the_example_s_key_hiding_hook_gives_the_same_answer_in_both(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    shutil.copytree(PACKAGE / "examples" / "gemini", gemini_project, dirs_exist_ok=True)
    (gemini_project / "build").mkdir()
    scenario = load_scenario(gemini_project / "scenario.yaml")
    script = [
        Reply(rnd.content, tuple(shell(**call.arguments) for call in rnd.tool_calls), rnd.chunks)
        for rnd in scenario.turns[0].rounds
    ]
    run, _ = play(gemini_cli, gemini_project, home, script)
    outcome = emulate(gemini_project, scenario_like(PROMPT, script))

    assert run.result["response"] == outcome.final_content
    assert "[key hidden]" in outcome.final_content and "sk-old77b1e0" in outcome.final_content
