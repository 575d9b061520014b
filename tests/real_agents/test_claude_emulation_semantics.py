"""What Claude Code does with a hook's answer, real and emulated side by side: the same settings
and the same tool calls through a real `claude -p` session and through hook-inspector's turn
runner, and the same effect on the tool, the turn and the model in both."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import claude_gaps as gaps
import pytest
from claude_cli import ClaudeCli
from claude_fixtures import claude_cli, project  # noqa: F401 (fixtures used by name)
from emulation import emulate, scenario_like
from fake_anthropic import FakeAnthropic, Reply, ToolCall, bash
from recorded_hooks import read_calls, recorder, recording_settings, write_settings
from test_claude_real import REASON, RISKY, play

from inspector.hosts.claude.turn import ClaudeTurnOutcome
from inspector.scenario import Scenario

JSONObject = dict[str, Any]

PROMPT = "Tidy up the project."
RECORDED = ("PreToolUse", "PostToolUse", "PostToolBatch", "Stop", "SessionEnd")
CLAUDE_SCRIPTS = Path(__file__).parent.parent / "hooks" / "claude"
MEET = Path(__file__).parent / "hooks" / "meet.py"


def both(
    cli: ClaudeCli, project: Path, home: Path, answer: str, script: list[Reply]
) -> tuple[FakeAnthropic, list[str], ClaudeTurnOutcome, list[str]]:
    """The session run by the real CLI and by the emulation with hooks/record.py answering
    `answer`: the fake model, the real hooks' events, the emulated turn and its hooks' events."""
    real_log, emulated_log = logs(project)
    write_settings(project, recording_settings(recorder(real_log, answer), RECORDED))
    _, api = play(cli, project, home, script)
    settings = recording_settings(recorder(emulated_log, answer), RECORDED)
    session = read_calls(real_log)[0].payload["session_id"]
    outcome = asyncio.run(
        emulate(
            project, settings, scenario_like(PROMPT, script, session=session), version=cli.version
        )
    )
    real = [call.event for call in read_calls(real_log)]
    return api, real, outcome, [call.event for call in read_calls(emulated_log)]


def one_turn(script: list[Reply]) -> Scenario:
    """The emulation's scenario for `script`, prompted with PROMPT."""
    return scenario_like(PROMPT, script, session="s")


def logs(project: Path) -> tuple[Path, Path]:
    """Where the real and the emulated session's recorders write."""
    return project.parent / "real.jsonl", project.parent / "emulated.jsonl"


def as_real(text: str, project: Path) -> str:
    """Emulated feedback with the emulated recorder's command line made the real one's."""
    real_log, emulated_log = logs(project)
    return text.replace(str(emulated_log), str(real_log))


def test_continue_false_in_pre_tool_use_runs_the_tool_then_ends_the_turn(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),))]
    api, real, outcome, emulated = both(claude_cli, project, home, "stop", script)
    assert (project / "made.txt").exists() and len(api.requests) == 1
    assert real == ["PreToolUse", "PostToolUse", "SessionEnd"] == emulated
    [use] = outcome.tool_uses
    assert use.ran and (outcome.status, outcome.reason) == ("stopped", REASON)


def test_a_pre_tool_use_answer_without_hook_event_name_is_void_and_the_tool_runs(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),)), Reply("Done.")]
    _, real, outcome, emulated = both(claude_cli, project, home, "no-event-name", script)
    assert (project / "made.txt").exists()
    assert real == emulated and real[:2] == ["PreToolUse", "PostToolUse"]
    [use] = outcome.tool_uses
    pre = next(event for event in outcome.events if event.event == "PreToolUse")
    assert use.ran and pre.verdict == "continue"
    assert [finding.code for finding in pre.runs[0].exchange.findings] == ["claude-event-name"]


def test_updated_input_without_a_decision_is_what_the_tool_runs(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),)), Reply("Done.")]
    _, real, outcome, emulated = both(claude_cli, project, home, "rewrite", script)
    assert (project / "rewritten.txt").exists() and not (project / "made.txt").exists()
    assert real == emulated
    [use] = outcome.tool_uses
    assert use.ran and use.tool_input == {"command": "touch rewritten.txt"}


def test_claude_code_ends_the_turn_after_8_blocked_stops_in_a_row(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    script = [Reply("Done.")] * 9
    api, real, outcome, emulated = both(claude_cli, project, home, "block-stop", script)
    feedback = f"Stop hook feedback:\n{REASON}"
    sent_on = [any(feedback in text for text in texts(request)) for request in api.requests]
    assert sent_on == [False] + [True] * 8  # each block sent Claude on, with these words
    told = zip(outcome.stop_reasons, api.requests[1:], strict=True)
    as_emulated = [reason in texts(request) for reason, request in told]
    assert as_emulated == [not gaps.differs(claude_cli.version, gaps.STOP_WORDS)] * 8
    assert real.count("Stop") == emulated.count("Stop") == 9 and real == emulated
    assert outcome.status == "stop_loop" and len(outcome.stop_reasons) == 8
    assert all(feedback in reason for reason in outcome.stop_reasons)


@pytest.mark.parametrize("answer", ["post-exit-2", "post-block", "post-context"])
def test_what_a_post_tool_use_hook_says_reaches_the_model_in_claude_codes_words(
    claude_cli: ClaudeCli, project: Path, home: Path, answer: str
) -> None:
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),)), Reply("Done.")]
    api, real, outcome, emulated = both(claude_cli, project, home, answer, script)
    assert real == emulated
    [use] = outcome.tool_uses
    said = use.feedback or "\n".join(use.system_messages)
    words, sent = as_real(said, project), texts(api.requests[1])
    assert REASON in words
    as_reminder = any(
        text.startswith(f"<system-reminder>\n{words}\n</system-reminder>") for text in sent
    )
    apart = words in sent  # a message of its own
    assert as_reminder is not apart, sent  # the same words, in one place or the other
    agrees = bool(use.system_messages) is apart
    assert agrees is not gaps.differs(claude_cli.version, gaps.POST_TOOL_USE_WORDS)


def test_a_stop_hook_exit_2_reaches_the_model_in_claude_codes_words(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    api, real, outcome, emulated = both(
        claude_cli, project, home, "exit-2-stop", [Reply("Done."), Reply("Done again.")]
    )
    assert real == emulated and real.count("Stop") == 2
    [told] = outcome.stop_reasons
    sent = texts(api.requests[1])
    assert REASON in told and any(REASON in text for text in sent)
    assert (as_real(told, project) in sent) is not gaps.differs(claude_cli.version, gaps.STOP_WORDS)


def test_the_last_hook_to_finish_gives_the_reason_among_equal_decisions(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    marker = project.parent / "early.pid"
    early, late = deny("the early hook says no"), deny("the late hook says no")
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        command(f"echo $$ > {marker}.new && mv {marker}.new {marker}; exec", early),
                        command("", late, waits_for=marker),
                    ],
                }
            ]
        }
    }
    write_settings(project, settings)
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),)), Reply("Understood.")]
    _, api = play(claude_cli, project, home, script)
    [told] = api.tool_results()
    assert told["is_error"] and told["content"].endswith("the late hook says no")

    marker.unlink()
    outcome = asyncio.run(emulate(project, settings, one_turn(script), version=claude_cli.version))
    [use] = outcome.tool_uses
    assert not use.ran and use.feedback.endswith("the late hook says no")
    assert (use.feedback == told["content"]) is not gaps.differs(
        claude_cli.version, gaps.DENY_WORDS
    )
    pre = next(event for event in outcome.events if event.event == "PreToolUse")
    assert pre.winner is not None
    assert [finding.code for finding in pre.winner.exchange.findings] == ["claude-last-to-finish"]


def test_the_pre_tool_use_runs_of_one_message_overlap(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    for name in ("a.txt", "b.txt"):
        (project / name).write_text(f"{name}\n")
    real_marks, emulated_marks = project.parent / "real-marks", project.parent / "emulated-marks"
    real_marks.mkdir(), emulated_marks.mkdir()

    def settings(marks: Path) -> JSONObject:
        meet = shlex.join([sys.executable, str(MEET), str(marks), "2"])
        return {"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [command(meet)]}]}}

    reads = tuple(
        ToolCall("Read", {"file_path": str(project / name)}, f"toolu_000{index}")
        for index, name in enumerate(("a.txt", "b.txt"), 1)
    )
    script = [Reply("Reading both.", reads), Reply("Done.")]
    write_settings(project, settings(real_marks))
    play(claude_cli, project, home, script, allowed_tools=("Read",))
    assert (real_marks / "met.log").read_text() == "met\nmet\n"

    scenario = one_turn(script)
    asyncio.run(emulate(project, settings(emulated_marks), scenario, version=claude_cli.version))
    assert (emulated_marks / "met.log").read_text() == "met\nmet\n"


def deny(reason: str) -> str:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
    return json.dumps({"hookSpecificOutput": specific})


def command(prefix: str, stdout: str = "", *, waits_for: Path | None = None) -> JSONObject:
    """A command handler: `prefix` alone, or `prefix` then tests/hooks/claude/reply.sh printing
    `stdout`, or after.sh printing it once the process in `waits_for` is gone."""
    if waits_for is not None:
        line = shlex.join(["sh", str(CLAUDE_SCRIPTS / "after.sh"), str(waits_for), "0", stdout])
    elif stdout:
        line = f"{prefix} " + shlex.join(["sh", str(CLAUDE_SCRIPTS / "reply.sh"), "0", stdout])
    else:
        line = prefix
    return {"type": "command", "command": line}


def texts(request: JSONObject) -> list[str]:
    """Every text of the request's messages (a content string, or its text blocks), in order."""
    found = []
    for message in request["messages"]:
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        found += [block["text"] for block in blocks if block.get("type") == "text"]
    return found


def test_each_session_start_hook_gets_an_env_file_of_its_own(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    real_log, emulated_log = logs(project)

    def settings(log: Path) -> JSONObject:
        hooks = [command(recorder(log)), command(recorder(log) + " # the second")]
        return {"hooks": {"SessionStart": [{"hooks": hooks}]}}

    write_settings(project, settings(real_log))
    play(claude_cli, project, home, [Reply("Done.")])
    real = sorted(call.env["CLAUDE_ENV_FILE"] for call in read_calls(real_log))
    session = read_calls(real_log)[0].payload["session_id"]
    scenario = scenario_like(PROMPT, [Reply("Done.")], session=session)
    asyncio.run(emulate(project, settings(emulated_log), scenario, version=claude_cli.version))
    emulated = sorted(call.env["CLAUDE_ENV_FILE"] for call in read_calls(emulated_log))
    assert [Path(file).name for file in real] == [
        "sessionstart-hook-0.sh",
        "sessionstart-hook-1.sh",
    ]
    assert emulated == real
