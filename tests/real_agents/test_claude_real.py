"""The real Claude Code CLI (pinned in claude_cli.py) run offline against a fake model, with
hooks that record what they get: what the real host does with a hook's answer, and where
hook-inspector's emulation of it agrees or differs (the differences are listed in
claude_gaps.py; the real payloads are kept in data/)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import claude_gaps as gaps
import pytest
from claude_cli import ClaudeCli, ClaudeRun
from claude_fixtures import claude_cli, project  # noqa: F401 (fixtures used by name)
from emulation import emulate, scenario_like
from fake_anthropic import FakeAnthropic, Reply, bash
from real_session import VOLATILE_ENV, VOLATILE_KEYS, RealSession, committed
from recorded_hooks import HookCall, read_calls, recorder, recording_settings, write_settings

from inspector.hosts.claude.events import EVENTS_BY_VERSION

JSONObject = dict[str, Any]

REASON = "rm -rf is not allowed in this project"  # what hooks/record.py says when it refuses
RISKY = "touch made.txt && rm -rf scratch"


def play(
    cli: ClaudeCli, project: Path, home: Path, script: list[Reply], **options: Any
) -> tuple[ClaudeRun, FakeAnthropic]:
    with FakeAnthropic(script) as api:
        run = cli.run(project, "Tidy up the project.", api_url=api.url, home=home, **options)
    assert (run.exit_code, run.result["subtype"]) == (0, "success"), run.stderr
    assert api.unscripted == 0
    return run, api


@pytest.mark.parametrize("answer", ["exit-2", "deny", "ask"])  # -p: ask is a deny
def test_a_pre_tool_use_hook_refuses_rm_rf_and_the_model_is_told_why(
    claude_cli: ClaudeCli, project: Path, home: Path, answer: str
) -> None:
    log = project.parent / "hooks.jsonl"
    command = recorder(log, answer)
    settings = recording_settings(command, ("PreToolUse", "PostToolUse"))
    write_settings(project, settings)
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),)), Reply("Understood.")]
    _, api = play(claude_cli, project, home, script)

    assert not (project / "made.txt").exists()
    assert [call.event for call in read_calls(log)] == ["PreToolUse"]  # it never ran
    [told] = api.tool_results()
    assert told["is_error"] and REASON in told["content"]

    scenario = scenario_like("Tidy up the project.", script, session="s")
    [use] = asyncio.run(emulate(project, settings, scenario, version=claude_cli.version)).tool_uses
    assert not use.ran and [call.event for call in read_calls(log)][1:] == ["PreToolUse"]
    in_other_words = answer == "deny" and gaps.differs(claude_cli.version, gaps.DENY_WORDS)
    assert (use.feedback == told["content"]) is not in_other_words, (use.feedback, told["content"])


@pytest.mark.parametrize(("answer", "runs"), [("allow", True), ("", False)])
def test_a_hook_allow_runs_a_command_claude_code_would_refuse(
    claude_cli: ClaudeCli, project: Path, home: Path, answer: str, runs: bool
) -> None:
    log = project.parent / "hooks.jsonl"
    write_settings(project, recording_settings(recorder(log, answer), ("PreToolUse",)))
    script = [Reply(tool_calls=(bash(RISKY),)), Reply("Done.")]
    _, api = play(claude_cli, project, home, script, allowed_tools=())

    assert (project / "made.txt").exists() is runs
    [told] = api.tool_results()
    assert told["is_error"] is not runs
    assert [call.event for call in read_calls(log)] == ["PreToolUse"]


def test_several_tool_calls_in_one_message_are_decided_one_by_one(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    log = project.parent / "hooks.jsonl"
    write_settings(
        project, recording_settings(recorder(log, "deny"), ("PreToolUse", "PostToolUse"))
    )
    calls = (bash("touch one.txt", "toolu_one"), bash(RISKY, "toolu_two"))
    _, api = play(claude_cli, project, home, [Reply("Two steps.", calls), Reply("Done.")])

    assert (project / "one.txt").exists() and not (project / "made.txt").exists()
    told = {block["tool_use_id"]: block for block in api.tool_results()}
    assert told["toolu_one"]["is_error"] is False
    assert told["toolu_two"]["is_error"] and told["toolu_two"]["content"].endswith(REASON)
    seen = [(call.event, call.payload["tool_use_id"]) for call in read_calls(log)]
    assert sorted(seen) == [
        ("PostToolUse", "toolu_one"),
        ("PreToolUse", "toolu_one"),
        ("PreToolUse", "toolu_two"),
    ]


# ---- the same session, real and emulated, hook by hook -------------------------------------

UNKNOWN = "PreToolUser"  # an event no Claude Code knows: the file still loads in both
PROMPT = "Make a file, then show me a failing command."
FAILING = "echo oops >&2; exit 3"
SESSION = [
    Reply(tool_calls=(bash("touch made.txt", "toolu_0001"),)),  # ids as the emulation numbers them
    Reply(tool_calls=(bash(FAILING, "toolu_0002"),)),
    Reply("Done."),
]
# What Bash gave in the real run, scripted for the emulation (DATA has the real values).
TOUCHED = {
    "stdout": "",
    "stderr": "",
    "interrupted": False,
    "isImage": False,
    "noOutputExpected": True,
}
FAILED = "Exit code 3\noops"


def test_the_emulation_sends_hooks_what_the_real_cli_sends(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    real_log, emulated_log = project.parent / "real.jsonl", project.parent / "emulated.jsonl"
    recorded = (*EVENTS_BY_VERSION[claude_cli.version], UNKNOWN)  # every event this CLI knows
    write_settings(project, recording_settings(recorder(real_log), recorded))
    with FakeAnthropic(SESSION) as api:
        run = claude_cli.run(project, PROMPT, api_url=api.url, home=home)
    assert (run.exit_code, run.result["subtype"]) == (0, "success"), run.stderr
    real = read_calls(real_log)
    real_session = RealSession(
        claude_cli.version,
        f"claude -p {PROMPT!r} --output-format stream-json --verbose --include-hook-events "
        "--allowedTools Bash",
        f"replies: tool_use Bash `touch made.txt`; tool_use Bash `{FAILING}`; text `Done.`",
    )
    assert real_session.as_data(real, run.env, project, home) == committed(claude_cli.version)

    session = real[0].payload["session_id"]
    scenario = scenario_like(
        PROMPT,
        SESSION,
        session=session,
        results={"toolu_0001": json.dumps(TOUCHED)},
        errors={"toolu_0002": FAILED},
    )
    asyncio.run(
        emulate(
            project,
            recording_settings(recorder(emulated_log), recorded),
            scenario,
            version=claude_cli.version,
        )
    )
    emulated = read_calls(emulated_log)

    assert [call.event for call in emulated] == [call.event for call in real]
    values, variables = set(), set()
    for real_call, emulated_call in zip(real, emulated, strict=True):
        differ = compare(real_call, run.env, emulated_call, dict(os.environ), project)
        values |= differ[0]
        variables |= differ[1]
    assert values == gaps.keys(claude_cli.version, gaps.PAYLOAD_VALUES)
    assert variables == gaps.keys(claude_cli.version, gaps.HOOK_ENV)


def compare(
    real: HookCall,
    real_env: dict[str, str],
    emulated: HookCall,
    own_env: dict[str, str],
    project: Path,
) -> tuple[set[str], set[str]]:
    """The same keys in the same order, stdin ending the same way; and the payload keys whose
    values differ (but the ids and times each run makes anew) and the variables added to the
    environment that differ."""
    event = real.event
    assert list(emulated.payload) == list(real.payload), event
    real_payload, emulated_payload = steady(real.payload), steady(emulated.payload)
    values = {key for key in real_payload if emulated_payload[key] != real_payload[key]}
    real_added = {name: real.env[name] for name in real.env_added(real_env)}
    emulated_added = {name: emulated.env[name] for name in emulated.env_added(own_env)}
    variables = {
        name
        for name in real_added.keys() | emulated_added.keys()
        if not _same_variable(name, real_added.get(name), emulated_added.get(name))
    }
    assert real.env["CLAUDECODE"] == "1" and real_added["CLAUDE_PROJECT_DIR"] == str(project)
    assert real.cwd == emulated.cwd == str(project)
    assert real.stdin.endswith("\n") and emulated.stdin.endswith("\n")
    return values, variables


def steady(payload: JSONObject) -> JSONObject:
    """`payload` with what every run makes anew (a UUID, a time) replaced by its kind."""
    return {
        key: f"<{key}>" if key in ("prompt_id", *VOLATILE_KEYS) else value
        for key, value in payload.items()
    }


def _same_variable(name: str, real: str | None, emulated: str | None) -> bool:
    """The same value; for a variable each run makes anew (VOLATILE_ENV: a pid, a socket),
    both set."""
    if name in VOLATILE_ENV:
        return (real is None) is (emulated is None)
    return real == emulated
