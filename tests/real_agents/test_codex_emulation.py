"""Every hook payload of a real `codex exec` run compared, key by key, with hook-inspector's
emulation of the same run (inspector/hosts/codex); the known differences are codex_gaps.py."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
from pathlib import Path
from typing import Any

import codex_gaps as gaps
import pytest
from codex_cli import CodexCli
from codex_emulation import emulate, scenario_like
from codex_fixtures import codex_cli, codex_project  # noqa: F401 (fixtures used by name)
from fake_responses import FakeResponses, Reply, ToolCall, exec_command
from recorded_hooks import read_calls, recorder

from inspector.hosts.codex.events import EVENTS
from inspector.hosts.codex.turn import STOP_BLOCKS, blocked_words

JSONObject = dict[str, Any]

PROMPT = "Tidy up the project."
VOLATILE = ("session_id", "turn_id")  # each run makes them anew
STOP_BLOCK = {"decision": "block", "reason": "check the tests first"}
POST_BLOCK = {"decision": "block", "reason": "that output is secret"}


def _hooks_on_every_event(project: Path, command: str) -> None:
    handler = {"type": "command", "command": command}
    hooks = {event: [{"hooks": [handler]}] for event in EVENTS}
    (project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))


def test_every_hook_payload_of_a_real_run_matches_the_emulation(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    _hooks_on_every_event(codex_project, recorder(log))
    command = "touch made.txt && echo made"
    script = [Reply(tool_calls=(exec_command(command, "call_0001"),)), Reply("Done.")]
    with FakeResponses(script) as api:
        run = codex_cli.run(
            codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True
        )
    assert run.completed, run.stderr
    real = read_calls(log)
    log.unlink()

    scenario = scenario_like(PROMPT, script, {"call_0001": "made\n"})
    asyncio.run(emulate(codex_project, scenario))
    emulated = read_calls(log)

    assert [call.event for call in emulated] == [call.event for call in real]
    assert not real[0].stdin.endswith("\n") and not emulated[0].stdin.endswith("\n")
    differing = set()
    for ours, theirs in zip(emulated, real, strict=True):
        assert list(ours.payload) == list(theirs.payload), ours.event
        assert ours.cwd == theirs.cwd
        for key, value in theirs.payload.items():
            if key not in VOLATILE and ours.payload[key] != value:
                differing.add(key)
    expected = (
        set(gaps.TRANSCRIPT_PATH.keys)
        if gaps.differs(codex_cli.version, gaps.TRANSCRIPT_PATH)
        else set()
    )
    assert differing == expected
    # the variables Codex set for its hooks, against the environment it was started with
    added = set().union(*(call.env_added(run.env) for call in real))
    ours = set().union(*(call.env_added(dict(os.environ)) for call in emulated))
    assert added - ours == set(gaps.HOOK_ENV.keys)


def test_a_blocked_command_reaches_the_model_in_codexs_words(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    handler = {"type": "command", "command": recorder(log, "exit-2")}
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    command = "touch made.txt && rm -rf scratch"
    script = [Reply(tool_calls=(exec_command(command, "call_0001"),)), Reply("Understood.")]
    with FakeResponses(script) as api:
        codex_cli.run(codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True)
    told = api.told("call_0001")

    outcome = asyncio.run(emulate(codex_project, scenario_like(PROMPT, script)))
    [use] = outcome.tool_uses
    assert not use.ran
    assert (
        use.told
        == told
        == blocked_words("rm -rf is not allowed in this project", {"command": command})
    )


def _answer(value: object) -> str:
    return f"cat > /dev/null; echo {shlex.quote(json.dumps(value))}"


def test_what_the_model_reads_of_post_tool_use_and_stop_blocks_and_of_context(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    context = {"hookEventName": "PreToolUse", "additionalContext": "checked by the guard"}
    hooks = {  # Stop first in the file: Codex lists a file's hooks in its own order of events
        "Stop": [{"hooks": [{"type": "command", "command": _answer(STOP_BLOCK)}]}],
        "PreToolUse": [
            {"hooks": [{"type": "command", "command": _answer({"hookSpecificOutput": context})}]}
        ],
        "PostToolUse": [{"hooks": [{"type": "command", "command": _answer(POST_BLOCK)}]}],
    }
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    script = [Reply(tool_calls=(exec_command("echo secret", "call_0001"),)), Reply("Done.")]
    script += [Reply("Done.")] * STOP_BLOCKS
    with FakeResponses(script) as api:
        codex_cli.run(codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True)
    told = api.told_at(1, "call_0001")
    developer = [text for text in api.texts(1, "developer") if text == context["additionalContext"]]
    stop_words = api.texts(2, "user")[-1]

    outcome = asyncio.run(emulate(codex_project, scenario_like(PROMPT, script[:2])))
    [use] = outcome.tool_uses
    assert use.told == told == POST_BLOCK["reason"]
    assert outcome.context == developer
    assert outcome.stop_reasons[0] == stop_words
    if gaps.differs(codex_cli.version, gaps.STOP_CAP):
        assert len(outcome.stop_reasons) == STOP_BLOCKS


def test_plain_stdout_of_session_start_and_user_prompt_submit_is_context_as_in_codex(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    said = {"SessionStart": "the repo is frozen", "UserPromptSubmit": "ask before deleting"}
    hooks = {
        event: [{"hooks": [{"type": "command", "command": f"cat > /dev/null; echo {text!r}"}]}]
        for event, text in said.items()
    }
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    script = [Reply("Done.")]
    with FakeResponses(script) as api:
        codex_cli.run(codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True)
    real = [text for text in api.texts(0, "developer") if text in said.values()]

    outcome = asyncio.run(emulate(codex_project, scenario_like(PROMPT, script)))
    assert outcome.context == real == list(said.values())


@pytest.mark.parametrize("approve_for_me", [False, True], ids=["default", "approve-for-me"])
def test_a_call_asking_to_leave_the_sandbox_fares_as_in_codex(
    codex_cli: CodexCli, codex_project: Path, home: Path, approve_for_me: bool
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    deny = {"behavior": "deny", "message": "stay in the sandbox"}
    answer = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": deny}}
    hooks = {
        "PreToolUse": [{"hooks": [{"type": "command", "command": recorder(log)}]}],
        "PermissionRequest": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": f"{recorder(log)}; echo {shlex.quote(json.dumps(answer))}",
                    }
                ]
            }
        ],
    }
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    escalated = {
        "cmd": "touch made.txt",
        "sandbox_permissions": "require_escalated",
        "justification": "it must",
    }
    script = [Reply(tool_calls=(ToolCall("exec_command", escalated, "call_0001"),)), Reply("Done.")]
    options = ["--approve-for-me"] if approve_for_me else []
    with FakeResponses(script) as api:
        codex_cli.run(
            codex_project,
            PROMPT,
            api_url=api.url,
            home=home,
            bypass_hook_trust=True,
            options=options,
        )
    real, told = read_calls(log), api.told("call_0001")
    log.unlink()

    outcome = asyncio.run(
        emulate(codex_project, scenario_like(PROMPT, script), approve_for_me=approve_for_me)
    )
    emulated = read_calls(log)
    [use] = outcome.tool_uses
    assert not (codex_project / "made.txt").exists() and not use.ran
    assert use.told == told
    assert [call.event for call in emulated] == [call.event for call in real]
    for ours, theirs in zip(emulated, real, strict=True):
        same = {
            key: value
            for key, value in theirs.payload.items()
            if key not in (*VOLATILE, "transcript_path")
        }
        assert {key: ours.payload[key] for key in same} == same


def test_among_rewrites_the_last_hook_to_finish_wins_as_in_codex(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    def rewrite(name: str, wait: str) -> JSONObject:
        answer = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "updatedInput": {"command": f"touch {name}"},
            }
        }
        command = f"cat > /dev/null; sleep {wait}; echo {shlex.quote(json.dumps(answer))}"
        return {"type": "command", "command": command}

    slow_first = [rewrite("slow.txt", "0.5"), rewrite("fast.txt", "0")]
    hooks = {"PreToolUse": [{"hooks": slow_first}]}
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    script = [Reply(tool_calls=(exec_command("touch asked.txt", "call_0001"),)), Reply("Done.")]
    with FakeResponses(script) as api:
        codex_cli.run(codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True)
    made = sorted(path.name for path in codex_project.glob("*.txt"))

    outcome = asyncio.run(emulate(codex_project, scenario_like(PROMPT, script)))
    [use] = outcome.tool_uses
    assert made == ["slow.txt"]
    assert use.tool_input == {"command": "touch slow.txt"}
