"""The real Gemini CLI (pinned in gemini_cli.py) run offline against a fake Gemini API, with hooks
that record what they get: what the real host does with a BeforeTool hook's answer (a refused
command never runs, and the model is told why), and what a BeforeModel hook's rewrite of the
request does to what reaches the model."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_gemini import FakeGemini, Reply, shell
from gemini_cli import GeminiCli, GeminiRun
from gemini_emulation import emulate, scenario_like
from gemini_fixtures import gemini_cli, gemini_project  # noqa: F401 (fixtures used by name)
from recorded_hooks import HookCall, read_calls, recording_settings

from tests.support.claude import reply

RECORDER = Path(__file__).parent / "hooks" / "gemini_record.py"
REASON = "rm -rf is not allowed in this project"  # what hooks/gemini_record.py says
MODEL_PROMPT = "The hook says: answer in French."  # what it puts in a rewritten request
RETRY = "Say it again, in full."  # its AfterAgent deny's reason
RISKY = "touch made.txt && rm -rf scratch"
PROMPT = "Tidy up the project."


def recorder(log: Path, answer: str = "") -> str:
    words = [sys.executable, str(RECORDER), str(log), *([answer] if answer else [])]
    return " ".join(shlex.quote(word) for word in words)


def play(
    cli: GeminiCli, project: Path, home: Path, script: list[Reply]
) -> tuple[GeminiRun, FakeGemini]:
    with FakeGemini(script) as api:
        run = cli.run(project, PROMPT, api_url=api.url, home=home)
    assert run.exit_code == 0, run.stderr
    assert api.unscripted == 0
    return run, api


def write_hooks(project: Path, command: str, events: tuple[str, ...]) -> None:
    settings = recording_settings(command, events)
    (project / ".gemini" / "settings.json").write_text(json.dumps(settings, indent=2))


@pytest.mark.parametrize("answer", ["exit-2", "deny"])
def test_a_before_tool_hook_refuses_rm_rf_and_the_model_is_told_why(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, answer: str
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, answer), ("BeforeTool", "AfterTool"))
    script = [Reply(calls=(shell(RISKY),)), Reply("Ok.")]
    _, api = play(gemini_cli, gemini_project, home, script)

    assert not (gemini_project / "made.txt").exists()  # the command never ran
    assert [call.event for call in read_calls(log)] == ["BeforeTool"]  # nor did AfterTool
    [told] = api.function_responses()
    assert told["name"] == "run_shell_command"
    assert told["response"] == {"error": f"Tool execution blocked: {REASON}"}
    log.unlink()
    [use] = emulate(gemini_project, scenario_like(PROMPT, script)).tool_uses
    assert not use.ran and use.told == told["response"]["error"]  # the emulation's own words


def test_a_before_tool_hook_that_allows_lets_the_command_run(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, "allow"), ("BeforeTool", "AfterTool"))
    _, api = play(gemini_cli, gemini_project, home, [Reply(calls=(shell(RISKY),)), Reply("Ok.")])

    assert (gemini_project / "made.txt").exists()
    calls = read_calls(log)
    assert [call.event for call in calls] == ["BeforeTool", "AfterTool"]
    assert calls[1].payload["tool_input"]["command"] == RISKY
    [told] = api.function_responses()
    assert "error" not in told["response"] and "output" in told["response"]


def test_a_before_model_hook_rewrites_what_reaches_the_model(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, "model-rewrite"), ("BeforeModel",))
    _, api = play(gemini_cli, gemini_project, home, [Reply("D'accord.")])

    [request] = api.loop_requests
    assert api.texts(request) == [MODEL_PROMPT]  # the prompt and the context are gone
    [call] = read_calls(log)
    messages = call.payload["llm_request"]["messages"]
    assert PROMPT in messages[-1]["content"]  # what the hook saw was the user's request
    log.unlink()
    emulated = emulate(gemini_project, scenario_like(PROMPT, [Reply("D'accord.")]))
    assert [m["content"] for m in emulated.model_requests[0]["messages"]] == [MODEL_PROMPT]


def test_a_before_tool_rewrite_is_the_command_that_runs(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, "rewrite"), ("BeforeTool", "AfterTool"))
    _, api = play(gemini_cli, gemini_project, home, [Reply(calls=(shell(RISKY),)), Reply("Ok.")])

    assert (gemini_project / "rewritten.txt").exists() and not (
        gemini_project / "made.txt"
    ).exists()
    after = read_calls(log)[-1]
    assert after.event == "AfterTool"  # it sees the command that ran, not the model's
    assert after.payload["tool_input"] == {"command": "touch rewritten.txt"}
    [told] = api.function_responses()
    said = "[System] Tool input parameters were modified by a hook before execution."
    assert told["response"]["output"].endswith(f"\n\n{said}")


def test_an_after_agent_deny_is_a_new_prompt_and_the_emulation_plays_it_alike(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, "retry"), ("BeforeAgent", "AfterAgent"))
    script = [Reply("Done."), Reply("Done.")]  # the emulation repeats the final answer
    run, api = play(gemini_cli, gemini_project, home, script)

    assert RETRY in api.texts(api.loop_requests[-1])  # the reason reached the model as a prompt
    assert run.result["response"] == "Done.Done."

    def seen(calls: list[HookCall]) -> list[tuple[object, ...]]:
        fields = ("hook_event_name", "prompt", "prompt_response", "stop_hook_active")
        return [tuple(call.payload.get(key) for key in fields) for call in calls]

    real = seen(read_calls(log))
    assert real == [
        ("BeforeAgent", PROMPT, None, None),
        ("AfterAgent", PROMPT, "Done.", False),
        ("BeforeAgent", RETRY, None, None),
        ("AfterAgent", PROMPT, "Done.\nDone.", True),
    ]
    log.unlink()
    outcome = emulate(gemini_project, scenario_like(PROMPT, script[:1]))
    assert seen(read_calls(log)) == real and outcome.retry_reasons == [RETRY]


@pytest.mark.parametrize("answer", ["after-deny", "after-context"])
def test_what_an_after_tool_hook_tells_the_model_is_what_the_emulation_tells_it(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, answer: str
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, answer), ("AfterTool",))
    script = [Reply(calls=(shell("touch made.txt"),)), Reply("Ok.")]
    _, api = play(gemini_cli, gemini_project, home, script)

    assert (gemini_project / "made.txt").exists()
    [told] = api.function_responses()
    real = told["response"].get("error") or told["response"]["output"]
    [use] = emulate(gemini_project, scenario_like(PROMPT, script, result="ran")).tool_uses
    if answer == "after-deny":
        assert real == use.told == REASON  # the reason alone
    else:
        context = "\n\n<hook_context>the &lt;build&gt; folder is generated</hook_context>"
        assert real.endswith(context) and use.told == f"ran{context}"


def test_a_before_model_exit_2_ends_the_turn_before_the_model_is_asked(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, "model-block"), ("BeforeModel",))
    with FakeGemini([Reply("never")]) as api:
        run = gemini_cli.run(gemini_project, PROMPT, api_url=api.url, home=home)

    assert api.loop_requests == []  # the model was never asked
    assert REASON in run.stdout + run.stderr
    outcome = emulate(gemini_project, scenario_like(PROMPT, [Reply("never")]))
    assert (outcome.status, outcome.reason, outcome.model_requests) == ("model_blocked", REASON, [])


def test_a_before_tool_selection_tool_config_reaches_the_model(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log, "tools-only-glob"), ("BeforeToolSelection",))
    _, api = play(gemini_cli, gemini_project, home, [Reply("Fine.")])

    [request] = api.loop_requests
    calling = request.body["toolConfig"]["functionCallingConfig"]
    assert calling == {"mode": "ANY", "allowedFunctionNames": ["glob"]}
    outcome = emulate(gemini_project, scenario_like(PROMPT, [Reply("Fine.")]))
    assert outcome.tool_configs == [{"mode": "ANY", "allowedFunctionNames": ["glob"]}]


def test_session_start_and_before_agent_context_reach_the_model_as_the_emulation_says(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    def context(text: str) -> dict[str, Any]:
        answer = {"hookSpecificOutput": {"additionalContext": text}}
        return {"hooks": [{"type": "command", "command": reply(0, answer)}]}

    hooks = {
        "SessionStart": [context("started <here>")],
        "BeforeAgent": [context("agent")],
    }
    (gemini_project / ".gemini" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    _, api = play(gemini_cli, gemini_project, home, [Reply("Done.")])

    [request] = api.loop_requests
    real = api.texts(request)[-2:]  # the prompt and BeforeAgent's part, after the session context
    assert real == [
        f"<hook_context>started &lt;here&gt;</hook_context>\n\n{PROMPT}",
        "<hook_context>agent</hook_context>",
    ]
    outcome = emulate(gemini_project, scenario_like(PROMPT, [Reply("Done.")]))
    assert outcome.model_requests[0]["messages"] == [{"role": "user", "content": "".join(real)}]


def test_after_agent_reads_the_turn_s_text_as_the_emulation_gives_it(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    write_hooks(gemini_project, recorder(log), ("AfterAgent",))
    script = [Reply("Looking first.", (shell("true"),)), Reply(calls=(shell("pwd"),)), Reply("Ok.")]
    play(gemini_cli, gemini_project, home, script)
    [real] = read_calls(log)
    assert real.payload["prompt_response"] == "Looking first. \nOk."

    log.unlink()
    emulate(gemini_project, scenario_like(PROMPT, script))
    [emulated] = read_calls(log)
    assert emulated.payload["prompt_response"] == real.payload["prompt_response"]


@pytest.mark.parametrize("synthetic", ["Synthetic answer.", ""])
def test_a_before_model_deny_skips_the_model_and_after_agent_still_reads_the_answer(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path, synthetic: str
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    deny: dict[str, Any] = {"decision": "deny", "reason": REASON}
    if synthetic:
        candidate = {"content": {"role": "model", "parts": [synthetic]}}
        deny["hookSpecificOutput"] = {"llm_response": {"candidates": [candidate]}}
    hooks = {
        "BeforeModel": [{"hooks": [{"type": "command", "command": reply(0, deny)}]}],
        "AfterAgent": [{"hooks": [{"type": "command", "command": recorder(log)}]}],
    }
    (gemini_project / ".gemini" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    with FakeGemini([Reply("never")]) as api:
        run = gemini_cli.run(gemini_project, PROMPT, api_url=api.url, home=home)

    assert api.loop_requests == [] and run.result["response"] == synthetic
    [real] = read_calls(log)
    assert real.payload["prompt_response"] == (synthetic or "[no response text]")
    log.unlink()
    outcome = emulate(gemini_project, scenario_like(PROMPT, [Reply("never")]))
    [emulated] = read_calls(log)
    assert emulated.payload["prompt_response"] == real.payload["prompt_response"]
    assert (outcome.status, outcome.final_content) == ("model_blocked", synthetic)


def test_an_after_model_deny_keeps_the_calls_from_running_and_after_agent_reads_the_text(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    log = gemini_project.parent / "hooks.jsonl"
    deny = {"decision": "deny", "reason": REASON}
    hooks = {
        "AfterModel": [{"hooks": [{"type": "command", "command": reply(0, deny)}]}],
        "AfterAgent": [{"hooks": [{"type": "command", "command": recorder(log)}]}],
    }
    (gemini_project / ".gemini" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    script = [Reply("Touching.", (shell("touch made.txt"),)), Reply("never")]
    with FakeGemini(script) as api:
        gemini_cli.run(gemini_project, PROMPT, api_url=api.url, home=home)

    assert not (gemini_project / "made.txt").exists() and len(api.loop_requests) == 1
    [real] = read_calls(log)
    assert real.payload["prompt_response"] == "Touching."
    log.unlink()
    outcome = emulate(gemini_project, scenario_like(PROMPT, script))
    [emulated] = read_calls(log)
    assert emulated.payload["prompt_response"] == "Touching."
    assert outcome.status == "model_blocked" and outcome.tool_uses == []


def test_a_settings_file_with_comments_is_read_by_the_cli_and_by_the_emulation(
    gemini_cli: GeminiCli, gemini_project: Path, home: Path
) -> None:
    """Gemini CLI reads settings.json through strip-json-comments: the commented file's hook
    runs, and hook-inspector reads the same file to the same hook."""
    log = gemini_project.parent / "hooks.jsonl"
    settings = json.dumps(recording_settings(recorder(log, "deny"), ("BeforeTool",)), indent=2)
    commented = "// the project's guard\n" + settings.replace("{", "{ /* a note */", 1)
    (gemini_project / ".gemini" / "settings.json").write_text(commented)
    script = [Reply(calls=(shell(RISKY),)), Reply("Ok.")]
    _, api = play(gemini_cli, gemini_project, home, script)

    assert not (gemini_project / "made.txt").exists()
    assert [call.event for call in read_calls(log)] == ["BeforeTool"]
    [told] = api.function_responses()
    log.unlink()
    [use] = emulate(gemini_project, scenario_like(PROMPT, script)).tool_uses
    assert not use.ran and use.told == told["response"]["error"]
