"""The command relay (`hook-inspector relay --host claude|jcli`) run as a real process, the way
Claude Code runs a hook, against a real inspector (engine + listener) whose config hooks are real
scripts: what the hook prints and exits with, and what the journal shows."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from inspector.bridge.listener import Listener, ListenOptions, listen_for_relays
from inspector.config.model import CommandHookSpec, Config
from inspector.engine import Engine
from inspector.hooks.approvals import ApprovalPrompt, Verdict
from inspector.hosts.picoclaw import NAME as PICOCLAW
from inspector.journal.hook_rows import HookRows
from inspector.journal.records import Decision, Exchange, Noise
from inspector.relay.command_wire import INSIDE_INSPECTOR
from tests.support.claude import decision, reply, script, spec
from tests.support.command_relay import (
    RELAY_ENV,
    HookRun,
    dialog_answer,
    permission_request,
    pre_tool_use,
    run_relay,
)
from tests.support.waiting import wait_for


@pytest.fixture
def socket_path() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="cmdrelay-", dir="/tmp"))  # AF_UNIX paths are short
    yield folder / "inspector" / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


@asynccontextmanager
async def inspector(
    *specs: CommandHookSpec, socket_path: Path, workdir: Path, host: str = "claude"
) -> AsyncIterator[tuple[Engine, Listener]]:
    config = Config(hooks=specs, host=host if specs else PICOCLAW, workdir=workdir)
    async with Engine(config) as engine:
        listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
        try:
            yield engine, listener
        finally:
            await listener.close()


def relayed(engine: Engine) -> list[Exchange]:
    return [
        record
        for record in engine.journal.records
        if isinstance(record, Exchange) and record.hook == "claude"
    ]


def runs_of(engine: Engine, hook: str) -> list[Exchange]:
    return [r for r in engine.journal.records if isinstance(r, Exchange) and r.hook == hook]


async def until_prompted(
    engine: Engine, socket_path: Path, event: dict[str, Any], *flags: str
) -> tuple[asyncio.Task[HookRun], ApprovalPrompt]:
    """The relay run for `event`, started, and the one approval prompt it opened."""
    running = asyncio.create_task(run_relay(socket_path, event, *flags))
    await wait_for(lambda: bool(engine.approvals.pending))
    (prompt,) = engine.approvals.pending
    return running, prompt


async def test_a_config_hook_that_blocks_rm_rf_becomes_a_pretooluse_deny(
    socket_path: Path, tmp_path: Path
) -> None:
    guard = spec(script("guard_rm.sh"), matcher="Bash")
    async with inspector(guard, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        run = await run_relay(socket_path, pre_tool_use("rm -rf /tmp/precious"))
    assert run.exit_code == 0 and run.stderr == ""
    specific = run.output["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["permissionDecision"] == "deny"
    assert "rm -rf is not allowed" in specific["permissionDecisionReason"]
    (exchange,) = relayed(engine)
    assert exchange.source == "relay:claude" and exchange.host == "claude"
    assert exchange.method == "PreToolUse" and exchange.status == "ok"
    assert exchange.action == "deny" and exchange.exit_code == 0
    assert exchange.request == pre_tool_use("rm -rf /tmp/precious")
    guard_runs = [
        record
        for record in engine.journal.records
        if isinstance(record, Exchange) and record.hook == guard.name
    ]
    assert [(run.source, run.exit_code) for run in guard_runs] == [("relay:claude", 2)]


async def test_an_allowing_config_hook_is_passed_on_with_its_reason(
    socket_path: Path, tmp_path: Path
) -> None:
    allow = spec(reply(0, decision("allow", "ls is harmless")), matcher="Bash")
    async with inspector(allow, socket_path=socket_path, workdir=tmp_path):
        run = await run_relay(socket_path, pre_tool_use("ls"))
    assert run.exit_code == 0
    assert run.output == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "ls is harmless",
        }
    }


async def test_a_hook_that_says_nothing_gives_no_output(socket_path: Path, tmp_path: Path) -> None:
    quiet = spec(reply(0), matcher="Bash")
    async with inspector(quiet, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        run = await run_relay(socket_path, pre_tool_use("ls"))
    assert (run.stdout, run.stderr, run.exit_code) == ("", "", 0)
    assert relayed(engine)[0].action == "continue"


async def test_a_held_pretooluse_forwarded_edited_goes_back_as_updated_input(
    socket_path: Path, tmp_path: Path
) -> None:
    quiet = spec(reply(0), matcher="Bash")
    async with inspector(quiet, socket_path=socket_path, workdir=tmp_path) as (engine, listener):
        engine.set_intercept("hook:claude")
        running = asyncio.create_task(run_relay(socket_path, pre_tool_use("rm -rf build")))
        await wait_for(lambda: bool(engine.held))
        (held,) = engine.held
        assert listener.time_left(held.seq) is not None
        edited = {**held.params, "tool_input": {"command": "rm -rf build/tmp"}}
        assert engine.forward(held.seq, edited)
        run = await running
    assert run.output == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": {"command": "rm -rf build/tmp"},
        }
    }
    (exchange,) = relayed(engine)
    assert exchange.edited and exchange.action == "modify"
    assert [finding.code for finding in exchange.findings] == ["held-at-stage"]
    assert HookRows(engine.journal).relays()[0].calls == 1
    assert exchange.request is not None
    assert exchange.request["tool_input"] == {"command": "rm -rf build/tmp"}


async def test_a_held_permission_request_edited_then_allowed_goes_back_as_updated_input(
    socket_path: Path, tmp_path: Path
) -> None:
    quiet = spec(reply(0), "PermissionRequest", matcher="Bash")
    async with inspector(quiet, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        engine.set_intercept("hook:claude")
        running = asyncio.create_task(run_relay(socket_path, permission_request("rm -rf build")))
        await wait_for(lambda: bool(engine.held))
        (held,) = engine.held
        edited = {**held.params, "tool_input": {"command": "rm -rf build/tmp"}}
        assert engine.forward(held.seq, edited)
        await wait_for(lambda: bool(engine.approvals.pending))
        (prompt,) = engine.approvals.pending
        assert prompt.arguments == {"command": "rm -rf build/tmp"}
        engine.approvals.decide(prompt.id, Verdict("allow_once"))
        run = await running
    decided = run.output["hookSpecificOutput"]["decision"]
    assert decided == {"behavior": "allow", "updatedInput": {"command": "rm -rf build/tmp"}}


async def test_an_ask_opens_the_approval_prompt_and_the_person_denies_with_a_reason(
    socket_path: Path, tmp_path: Path
) -> None:
    asker = spec(reply(0, decision("ask", "is this wise?")), matcher="Bash")
    async with inspector(asker, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        running, prompt = await until_prompted(engine, socket_path, pre_tool_use("rm -rf /"))
        assert prompt.tool == "Bash" and prompt.arguments["command"] == "rm -rf /"
        engine.approvals.decide(prompt.id, Verdict("deny", reason="not on my machine"))
        run = await running
    specific = run.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"] == "not on my machine"


async def test_the_person_can_leave_a_pretooluse_to_claude_codes_own_dialog(
    socket_path: Path, tmp_path: Path
) -> None:
    asker = spec(reply(0, decision("ask", "is this wise?")), matcher="Bash")
    async with inspector(asker, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        running, prompt = await until_prompted(engine, socket_path, pre_tool_use("rm -rf /"))
        assert prompt.agent_asks == "Claude Code"
        assert engine.approvals.decide(prompt.id, Verdict("ask"))
        run = await running
    specific = run.output["hookSpecificOutput"]
    assert (specific["hookEventName"], specific["permissionDecision"]) == ("PreToolUse", "ask")
    (verdict,) = [record for record in engine.journal.records if isinstance(record, Decision)]
    assert (verdict.verdict, verdict.by) == ("ask", "human")


async def test_a_relayed_permission_request_opens_the_prompt_and_the_persons_allow_goes_back(
    socket_path: Path, tmp_path: Path
) -> None:
    quiet = spec(reply(0), "PermissionRequest", matcher="Bash")
    async with inspector(quiet, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        running, prompt = await until_prompted(engine, socket_path, permission_request("make"))
        assert (prompt.tool, prompt.arguments["command"]) == ("Bash", "make")
        assert prompt.agent_asks == ""  # decision.behavior is allow or deny, never ask
        engine.approvals.decide(prompt.id, Verdict("allow_once"))
        run = await running
    assert run.output == {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        }
    }


async def test_a_relayed_permission_request_denied_by_the_person_carries_the_message(
    socket_path: Path, tmp_path: Path
) -> None:
    quiet = spec(reply(0), "PermissionRequest", matcher="Bash")
    async with inspector(quiet, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        running, prompt = await until_prompted(engine, socket_path, permission_request("rm -rf /"))
        engine.approvals.decide(prompt.id, Verdict("deny", reason="not here"))
        run = await running
    decided = run.output["hookSpecificOutput"]["decision"]
    assert decided == {"behavior": "deny", "message": "not here"}


async def test_a_permission_request_prompt_refuses_ask_and_waits_for_allow_or_deny(
    socket_path: Path, tmp_path: Path
) -> None:
    quiet = spec(reply(0), "PermissionRequest", matcher="Bash")
    async with inspector(quiet, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        running, prompt = await until_prompted(engine, socket_path, permission_request("make"))
        assert not engine.approvals.decide(prompt.id, Verdict("ask"))
        assert engine.approvals.pending == [prompt]
        engine.approvals.decide(prompt.id, Verdict("deny"))
        run = await running
    decided = run.output["hookSpecificOutput"]["decision"]
    assert decided == {"behavior": "deny", "message": "denied by the user"}


async def test_with_nobody_at_the_inspector_a_hooks_ask_goes_on_to_claude_code(
    socket_path: Path, tmp_path: Path
) -> None:
    asker = spec(reply(0, decision("ask", "is this wise?")), matcher="Bash", name="asker")
    async with inspector(asker, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        engine.approvals.unattended = True  # as in serve
        run = await run_relay(socket_path, pre_tool_use("rm -rf /"))
    specific = run.output["hookSpecificOutput"]
    assert (specific["permissionDecision"], specific["permissionDecisionReason"]) == (
        "ask",
        "is this wise?",
    )
    (verdict,) = [record for record in engine.journal.records if isinstance(record, Decision)]
    assert (verdict.verdict, verdict.by) == ("ask", "asker")
    (asked,) = runs_of(engine, "asker")
    assert [finding.code for finding in asked.findings] == ["claude-ask-unattended"]
    assert "Claude Code" in asked.findings[0].message


async def test_with_nobody_at_the_inspector_an_undecided_permission_request_is_claude_codes(
    socket_path: Path, tmp_path: Path
) -> None:
    quiet = spec(reply(0), "PermissionRequest", matcher="Bash")
    async with inspector(quiet, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        engine.approvals.unattended = True
        run = await run_relay(socket_path, permission_request("make"))
    assert (run.stdout, run.exit_code) == ("", 0)  # Claude Code's dialog asks its user


async def test_a_permission_request_the_config_decided_opens_no_prompt(
    socket_path: Path, tmp_path: Path
) -> None:
    denier = spec(reply(0, dialog_answer("deny", message="never")), "PermissionRequest")
    async with inspector(denier, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        run = await run_relay(socket_path, permission_request("make"))
        assert not engine.approvals.pending
    decided = run.output["hookSpecificOutput"]["decision"]
    assert decided == {"behavior": "deny", "message": "never"}


async def test_the_prompt_counts_down_to_the_relays_deadline(
    socket_path: Path, tmp_path: Path
) -> None:
    asker = spec(reply(0, decision("ask")), matcher="Bash")
    async with inspector(asker, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        running, prompt = await until_prompted(
            engine, socket_path, pre_tool_use("ls"), "--timeout", "20"
        )
        assert prompt.timeout_s < 20
        engine.approvals.decide(prompt.id, Verdict("allow_once"))
        run = await running
    assert run.output["hookSpecificOutput"]["permissionDecision"] == "allow"


async def test_no_inspector_listening_is_an_absent_hook_said_once_on_stderr(
    socket_path: Path,
) -> None:
    run = await run_relay(socket_path, pre_tool_use("rm -rf /"))
    assert (run.stdout, run.exit_code) == ("", 0)
    assert run.stderr.count("\n") == 1
    assert "no hook-inspector" in run.stderr and "absent" in run.stderr


async def test_a_socket_of_someone_elses_is_not_used(socket_path: Path) -> None:
    socket_path.parent.mkdir(mode=0o700)
    socket_path.write_text("not a socket")
    run = await run_relay(socket_path, pre_tool_use("rm -rf /"))
    assert (run.stdout, run.exit_code) == ("", 0)
    assert "not trusting the socket" in run.stderr and "is not a socket" in run.stderr


async def test_hooks_slower_than_the_deadline_leave_the_hook_absent_in_time(
    socket_path: Path, tmp_path: Path
) -> None:
    slow = spec(script("sleepy.sh", str(tmp_path / "pid")), matcher="Bash", timeout_ms=60_000)
    async with inspector(slow, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        run = await run_relay(socket_path, pre_tool_use("ls"), "--timeout", "1")
        await wait_for(lambda: relayed(engine)[0].status == "ok")
    assert (run.stdout, run.exit_code) == ("", 0)
    (exchange,) = relayed(engine)
    assert [finding.code for finding in exchange.findings] == ["agent-deadline"]


async def test_an_inspector_without_claude_hooks_says_so_and_the_event_passes(
    socket_path: Path, tmp_path: Path
) -> None:
    async with inspector(socket_path=socket_path, workdir=tmp_path) as (engine, _):
        run = await run_relay(socket_path, pre_tool_use("ls"))
    assert (run.stdout, run.exit_code) == ("", 0)
    (exchange,) = relayed(engine)
    assert [finding.code for finding in exchange.findings] == ["relay-no-hooks"]


async def test_many_concurrent_runs_each_get_their_own_answer(
    socket_path: Path, tmp_path: Path
) -> None:
    guard = spec(script("guard_rm.sh"), matcher="Bash")
    commands = [f"rm -rf dir{n}" if n % 2 else f"ls dir{n}" for n in range(8)]
    async with inspector(guard, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        runs = await asyncio.gather(
            *(run_relay(socket_path, pre_tool_use(command)) for command in commands)
        )
    for command, run in zip(commands, runs, strict=True):
        assert run.exit_code == 0
        denied = run.stdout and run.output["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert bool(denied) == command.startswith("rm")
    assert len(relayed(engine)) == 8
    (relay_row,) = HookRows(engine.journal).relays()
    assert (relay_row.name, relay_row.calls) == ("claude", 8)
    assert sum(isinstance(r, Decision) for r in engine.journal.records) == 8


@pytest.mark.parametrize(
    ("stdin", "problem"),
    [
        ({"hello": "world"}, "not a Claude Code event"),
        (b"[" * 20_000 + b"]" * 20_000, "the host's stdin is not JSON"),  # deeper than json goes
    ],
)
async def test_stdin_that_is_not_an_event_is_noise_and_the_hook_is_absent(
    socket_path: Path, tmp_path: Path, stdin: dict[str, Any] | bytes, problem: str
) -> None:
    quiet = spec(reply(0))
    async with inspector(quiet, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        run = await run_relay(socket_path, stdin)
    assert (run.stdout, run.exit_code) == ("", 0)
    (noise,) = [record for record in engine.journal.records if isinstance(record, Noise)]
    assert problem in noise.findings[0].message


async def test_a_jcli_chain_answers_a_jcli_relay(socket_path: Path, tmp_path: Path) -> None:
    rewrite = CommandHookSpec(
        name="rewrite",
        host="jcli",
        event="pre_tool_execution",
        command=reply(0, {"tool_arguments": '{"command":"ls -la"}'}),
        timeout_ms=5000,
    )
    event = {
        "event": "pre_tool_execution",
        "session_id": "s1",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_arguments": '{"command":"ls"}',
    }
    async with inspector(rewrite, socket_path=socket_path, workdir=tmp_path, host="jcli") as (
        engine,
        _,
    ):
        run = await run_relay(socket_path, event, host="jcli")
    assert run.exit_code == 0
    assert run.output == {"tool_arguments": '{"command":"ls -la"}'}
    (exchange,) = [
        r for r in engine.journal.records if isinstance(r, Exchange) and r.hook == "jcli"
    ]
    assert exchange.host == "jcli" and exchange.source == "relay:jcli"


async def test_claude_hooks_behind_the_relay_run_in_its_folder_with_the_sessions_variables(
    socket_path: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    where = spec('echo "$PWD|$CLAUDE_PROJECT_DIR" >&2', matcher="Bash", name="where")
    async with inspector(where, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        await run_relay(socket_path, pre_tool_use("ls"), cwd=project)
    (relay,) = relayed(engine)
    assert relay.cwd == str(project)
    (run,) = runs_of(engine, "where")
    assert (run.stderr, run.cwd) == (f"{project}|/work/project\n", str(project))


async def test_jcli_hooks_behind_the_relay_run_in_the_users_folder_with_jcli_cwd(
    socket_path: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "where-the-user-is"
    folder.mkdir()
    where = CommandHookSpec(
        name="where",
        host="jcli",
        event="pre_tool_execution",
        command='echo "$PWD|$JCLI_CWD|$JCLI_HOOK_EVENT|$JCLI_HOOK_DIR" >&2',
        timeout_ms=5000,
        dir=str(tmp_path / "hooks" / "where"),
    )
    event = {"event": "pre_tool_execution", "cwd": str(folder), "tool_name": "Bash"}
    relay_vars = {
        "JCLI_CWD": str(folder),
        "JCLI_HOOK_EVENT": "pre_tool_execution",
        "JCLI_HOOK_DIR": "/home/u/.jcli/hooks/hook-inspector",
    }
    async with inspector(where, socket_path=socket_path, workdir=tmp_path, host="jcli") as (
        engine,
        _,
    ):
        await run_relay(socket_path, event, host="jcli", cwd=folder, env=relay_vars)
    (run,) = runs_of(engine, "where")
    hook_dir = tmp_path / "hooks" / "where"
    assert run.stderr == f"{folder}|{folder}|pre_tool_execution|{hook_dir}\n"
    (relay,) = runs_of(engine, "jcli")
    assert relay.cwd == str(folder)


async def test_a_relay_among_the_inspectors_own_hooks_answers_at_once_instead_of_looping(
    socket_path: Path, tmp_path: Path
) -> None:
    relay = f"{sys.executable} -m inspector relay --host claude --socket {socket_path}"
    looping = spec(relay, matcher="Bash")
    async with inspector(looping, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        run = await run_relay(socket_path, pre_tool_use("ls"))
    assert (run.stdout, run.exit_code) == ("", 0)
    assert len(relayed(engine)) == 1  # the inner relay never came back as a second event
    (inner,) = [
        record
        for record in engine.journal.records
        if isinstance(record, Exchange) and record.hook == looping.name
    ]
    assert inner.exit_code == 0 and "loop" in (inner.stderr or "")
    assert INSIDE_INSPECTOR not in os.environ  # the listener is closed


async def test_a_permission_request_is_answered_with_decision_behavior_deny_winning(
    socket_path: Path, tmp_path: Path
) -> None:
    allow = spec(reply(0, dialog_answer("allow")), "PermissionRequest")
    deny = spec(reply(0, dialog_answer("deny", message="not here")), "PermissionRequest")
    async with inspector(allow, deny, socket_path=socket_path, workdir=tmp_path) as (engine, _):
        run = await run_relay(socket_path, permission_request("rm -rf /"))
    assert run.output == {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "not here"},
        }
    }
    assert relayed(engine)[0].action == "deny"


async def test_a_permission_request_allowed_with_updated_input_passes_it_on(
    socket_path: Path, tmp_path: Path
) -> None:
    answer = dialog_answer("allow", updatedInput={"command": "ls -la"})
    allow = spec(reply(0, answer), "PermissionRequest")
    async with inspector(allow, socket_path=socket_path, workdir=tmp_path):
        run = await run_relay(socket_path, permission_request("ls"))
    decision = run.output["hookSpecificOutput"]["decision"]
    assert decision == {"behavior": "allow", "updatedInput": {"command": "ls -la"}}


async def test_a_permission_request_hook_that_exits_2_denies_the_dialog(
    socket_path: Path, tmp_path: Path
) -> None:
    guard = spec(script("guard_rm.sh"), "PermissionRequest")
    async with inspector(guard, socket_path=socket_path, workdir=tmp_path):
        run = await run_relay(socket_path, permission_request("rm -rf /"))
    decision = run.output["hookSpecificOutput"]["decision"]
    assert decision["behavior"] == "deny" and "rm -rf is not allowed" in decision["message"]


async def test_the_hooks_behind_the_inspector_get_the_real_sessions_claude_variables(
    socket_path: Path, tmp_path: Path
) -> None:
    says = 'printf \'{"systemMessage": "%s in %s"}\' "$CLAUDE_CODE_SESSION_ID"'
    says += ' "$CLAUDE_PROJECT_DIR"'
    echo = spec(says, matcher="Bash")
    async with inspector(echo, socket_path=socket_path, workdir=tmp_path):
        run = await run_relay(socket_path, pre_tool_use("ls"))
    session, project = RELAY_ENV["CLAUDE_CODE_SESSION_ID"], RELAY_ENV["CLAUDE_PROJECT_DIR"]
    assert run.output == {"systemMessage": f"{session} in {project}"}
