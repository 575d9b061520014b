"""j-cli's hook chain: every row of the exit, timeout, retry and on_error table, the merge rules,
filters, budget, env and findings. What a run is (exit codes, signals, timeouts, the shell, env,
PATH, stdin) runs real scripts through the real shell; the chain's own rules (retries, on_error,
merges, stop and skip, filters, levels) run in-memory hooks (tests/support/memory_command_hook)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from inspector.config.model import CommandHookSpec
from inspector.config.warning import ConfigWarning
from inspector.hosts.jcli.chain import ChainResult, JcliChain
from inspector.hosts.jcli.findings import finding
from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_INVALID, STATUS_NOT_SENT, STATUS_TIMEOUT
from tests.support.jcli import (
    codes,
    decisions,
    exchanges,
    record,
    recorded,
    reply,
    sh,
    spec,
)
from tests.support.memory_command_hook import Answer, jcli_in_memory
from tests.support.waiting import wait_for

TOOL_CONTEXT = {"tool_name": "Bash", "tool_arguments": '{"command":"ls"}', "session_id": "s1"}


def memory(name: str) -> str:
    """The command of a hook that answers from fire's in_memory: its own, as j-cli's metrics
    share counters between hooks with one command."""
    return f"in memory: {name}"


def answers(stdout: str | dict[str, Any]) -> list[Answer]:
    """A run exiting 0 with `stdout`, on every call."""
    return [{"stdout": stdout}]


FAILS: list[Answer] = [{"exit": 1, "stderr": "boom"}]


async def fire(
    *specs: CommandHookSpec,
    context: dict[str, Any] | None = None,
    event: str = "pre_tool_execution",
    in_memory: dict[str, list[Answer]] | None = None,
    **options: Any,
) -> tuple[ChainResult, Journal, JcliChain]:
    """One event through the chain of `specs`; the hooks named in `in_memory` answer from there."""
    journal = Journal()
    chain = JcliChain(specs, journal, **options)
    jcli_in_memory(chain, in_memory or {})
    result = await chain.fire(event, dict(context or TOOL_CONTEXT), source="test", turn="t1")
    return result, journal, chain


# ---- exit 0 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("stdout", ["", "  \n", "{}", "\n{}\n"])
async def test_empty_or_braces_is_success_without_change(stdout: str) -> None:
    other = reply("{}") + " # another label, so other metrics"
    result, journal, chain = await fire(spec("a", reply(stdout)), spec("b", other))
    assert result.result == {}  # G4: a success is a (possibly empty) modification
    assert [x.action for x in exchanges(journal)] == ["no change", "no change"]
    assert chain.metrics["a"].successes == 1 and chain.metrics["a"].failures == 0
    assert decisions(journal)[0].verdict == "no change"


async def test_valid_json_merges_and_the_next_hook_runs() -> None:
    answer = {"tool_arguments": '{"command":"ls -la"}', "unknown": 1}
    result, journal, _ = await fire(spec("a", reply(answer)), spec("b", reply("{}")))
    assert result.result == {"tool_arguments": '{"command":"ls -la"}'}
    first, second = exchanges(journal)
    assert first.action == "merged: tool_arguments"
    assert codes(first) == ["jcli-unknown-key"]
    assert second.request is not None
    assert second.request["tool_arguments"] == '{"command":"ls -la"}'


# ---- exit 0 with an answer j-cli cannot read ---------------------------------------------------


@pytest.mark.parametrize(
    ("stdout", "code"),
    [
        ("not json", "jcli-not-json"),
        ('["stop"]', "jcli-not-object"),
        ('{"action": "block"}', "jcli-bad-action"),
        ('{"action": "abort"}', "jcli-bad-action"),
        ('{"inject_messages": [{"role": "developer", "content": "x"}]}', "jcli-bad-role"),
        ('{"tool_arguments": {"command": "ls"}}', "jcli-wrong-type"),
        ('{"action": "skip", "action": "stop"}', "jcli-duplicate-key"),
        ('log line\n{"action": "skip"}', "stdout-noise"),
    ],
)
async def test_unreadable_answers_fail_and_on_error_skip_goes_on(stdout: str, code: str) -> None:
    result, journal, chain = await fire(spec("a", reply(stdout)), spec("b", reply("{}")))
    bad, good = exchanges(journal)
    assert bad.status == STATUS_INVALID and bad.error
    assert code in codes(bad)
    assert bad.action == "failed → skip"
    assert good.action == "no change"
    assert result.result == {} and result.action is None  # a bad action never blocks
    assert chain.metrics["a"].failures == 1 and chain.metrics["a"].executions == 1


# ---- non-zero exits, signals, timeouts, spawn failures -------------------------------------


@pytest.mark.parametrize("code", [1, 2, 3])
async def test_non_zero_exit_is_a_failure_whatever_stdout_says(code: int) -> None:
    hook = spec("a", sh("exit.sh", code, '{"action": "skip"}'))
    result, journal, _ = await fire(hook, spec("b", reply({"tool_result": "x"})))
    failed = exchanges(journal)[0]
    assert failed.exit_code == code and failed.stderr == "boom\n"
    assert failed.action == "failed → skip"
    assert ("jcli-exit-2" in codes(failed)) == (code == 2)
    assert result.action is None and result.result == {"tool_result": "x"}


async def test_death_by_signal_is_a_failure() -> None:
    result, journal, _ = await fire(spec("a", sh("signal.sh"), on_error="stop"))
    failed = exchanges(journal)[0]
    assert failed.exit_code is None and failed.error == "signal 9"
    assert result.result == {"action": "stop"} and result.by == "a"


async def test_a_timeout_kills_the_tree_and_is_a_failure(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    hook = spec("a", sh("sleep.sh", 30, pid_file, "{}"), timeout_ms=300)
    result, journal, chain = await fire(hook)
    failed = exchanges(journal)[0]
    assert failed.status == STATUS_TIMEOUT and failed.action == "failed → skip"
    assert chain.metrics["a"].failures == 1
    assert result.result is None
    child = int(pid_file.read_text())
    await wait_for(lambda: not _alive(child), timeout=20)  # the kill lands, it is not instant


async def test_a_shell_that_cannot_start_is_a_failure() -> None:
    hooks = (spec("a", reply("{}"), retry=1, on_error="abort"),)
    result, journal, chain = await fire(*hooks, shell=("/nonexistent/bash", "-lc"))
    assert [x.status for x in exchanges(journal)] == [STATUS_NOT_SENT] * 2
    assert result.result == {"action": "stop"}
    assert chain.metrics["a"].executions == 2 and chain.metrics["a"].failures == 2


# ---- retry, then on_error ------------------------------------------------------------------


@pytest.mark.parametrize("on_error", ["stop", "abort"])
async def test_retries_exhausted_with_stop_ends_the_chain(on_error: str) -> None:
    hooks = (
        spec("merge", memory("merge")),
        spec("flaky", memory("flaky"), retry=2, on_error=on_error),
        spec("after", memory("after")),
    )
    script = {"merge": answers({"user_input": "changed"}), "flaky": FAILS, "after": answers("{}")}
    result, journal, chain = await fire(*hooks, in_memory=script)
    labels = [x.action for x in exchanges(journal)]
    assert labels == [
        "merged: user_input",
        "failed → retry 1/2",
        "failed → retry 2/2",
        f"failed → stop (on_error: {on_error})",
    ]
    assert result.result == {"action": "stop"}  # no retry_feedback, earlier merges dropped
    assert result.by == "flaky"
    assert chain.metrics["flaky"].executions == 3 and chain.metrics["flaky"].failures == 3
    decision = decisions(journal)[0]
    assert (decision.verdict, decision.by) == ("stop", "flaky")
    assert "after" not in [step["hook"] for step in decision.chain]


async def test_retries_exhausted_with_skip_keeps_earlier_merges() -> None:
    hooks = (
        spec("merge", memory("merge")),
        spec("flaky", memory("flaky"), retry=1),
        spec("after", memory("after")),
    )
    script = {
        "merge": answers({"tool_result": "r"}),
        "flaky": FAILS,
        "after": answers({"tool_error": "e"}),
    }
    result, journal, _ = await fire(*hooks, in_memory=script)
    assert result.result == {"tool_result": "r", "tool_error": "e"}
    assert exchanges(journal)[2].action == "failed → skip"


async def test_a_retry_that_succeeds_is_a_success() -> None:
    script = {"flaky": [*FAILS, {"stdout": {"tool_result": "ok"}}]}
    result, journal, chain = await fire(spec("flaky", memory("flaky"), retry=3), in_memory=script)
    assert [x.action for x in exchanges(journal)] == [
        "failed → retry 1/3",
        "merged: tool_result (retry 1/3)",
    ]
    assert result.result == {"tool_result": "ok"}
    metrics = chain.metrics["flaky"]
    assert (metrics.executions, metrics.successes, metrics.failures) == (2, 1, 1)


# ---- the chain budget ----------------------------------------------------------------------


async def test_budget_spent_before_a_hook_returns_the_merges_so_far(tmp_path: Path) -> None:
    hooks = (
        spec("slow", sh("sleep.sh", 0.4, tmp_path / "pid", '{"tool_result": "slow"}')),
        spec("never", reply({"tool_result": "late"})),
    )
    result, journal, chain = await fire(*hooks, budget_s=0.2)
    assert result.result == {"tool_result": "slow"}  # the running hook was not interrupted
    assert [x.hook for x in exchanges(journal)] == ["slow"]
    assert chain.metrics["never"].executions == 0
    decision = decisions(journal)[0]
    assert decision.chain[-1] == {
        "hook": "never",
        "action": "not run: chain budget spent",
        "status": "not run",
    }
    assert "chain budget" in decision.reason


async def test_budget_spent_before_a_retry_counts_as_a_failure(tmp_path: Path) -> None:
    slow_fail = sh("sleep.sh", 0.4, tmp_path / "pid", "not json")
    result, journal, chain = await fire(
        spec("slow", slow_fail, retry=2, on_error="stop"), budget_s=0.2
    )
    (only,) = exchanges(journal)
    assert only.action == "failed, then the chain budget ran out → stop (on_error: stop)"
    assert "jcli-chain-budget" in codes(only)
    assert result.result == {"action": "stop"}
    assert chain.metrics["slow"].executions == 1


# ---- merge rules ---------------------------------------------------------------------------


async def test_what_later_hooks_see_and_what_only_the_result_keeps() -> None:
    first = {
        "tool_arguments": '{"command":"pwd"}',
        "tool_error": "rewritten",
        "inject_messages": [{"role": "user", "content": "one"}],
        "additional_context": "first",
        "system_message": "first",
    }
    second = {
        "inject_messages": [{"role": "system", "content": "two"}],
        "additional_context": "second",
    }
    context = {**TOOL_CONTEXT, "tool_error": "original"}
    chain = JcliChain((spec("one", memory("one")), spec("two", memory("two"))), Journal())
    ran = jcli_in_memory(chain, {"one": answers(first), "two": answers(second)})
    result = await chain.fire("pre_tool_execution", context, source="test", turn="t1")
    seen = ran[1].context
    assert seen["tool_arguments"] == '{"command":"pwd"}'  # written into the context
    assert seen["tool_error"] == "original"  # tool_error is not
    assert "inject_messages" not in seen
    assert result.result == {
        "tool_arguments": '{"command":"pwd"}',
        "tool_error": "rewritten",
        "inject_messages": [
            {"role": "user", "content": "one"},
            {"role": "system", "content": "two"},
        ],  # appended across hooks
        "additional_context": "second",  # last writer wins
        "system_message": "first",
    }


async def test_stop_keeps_only_its_feedback_and_message() -> None:
    stop = {"action": "stop", "retry_feedback": "fix it", "assistant_output": "lost"}
    hooks = [
        spec(name, memory(name), event="post_llm_response") for name in ("edit", "judge", "after")
    ]
    script = {
        "edit": answers({"assistant_output": "edited"}),
        "judge": answers(stop),
        "after": answers("{}"),
    }
    context = {"assistant_output": "hi", "model": "m"}
    result, journal, _ = await fire(
        *hooks, context=context, event="post_llm_response", in_memory=script
    )
    assert result.result == {"action": "stop", "retry_feedback": "fix it"}
    assert result.by == "judge" and result.deciding_run is not None
    judge = exchanges(journal)[1]
    assert judge.action == "stop" and codes(judge) == ["jcli-changes-discarded"]
    assert "assistant_output" in judge.findings[0].message
    assert "edit" in judge.findings[0].message
    assert len(exchanges(journal)) == 2
    assert decisions(journal)[0].reason == "fix it"


async def test_skip_ends_the_chain() -> None:
    script = {"guard": answers({"action": "skip"}), "after": answers("{}")}
    result, journal, _ = await fire(
        spec("guard", memory("guard")), spec("after", memory("after")), in_memory=script
    )
    assert result.action == "skip" and result.by == "guard"
    assert [x.hook for x in exchanges(journal)] == ["guard"]


async def test_no_hooks_for_the_event_is_none_and_no_decision() -> None:
    result, journal, _ = await fire(spec("a", reply("{}"), event="stop"))
    assert result.result is None and len(journal) == 0


# ---- filters -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filters", "runs"),
    [
        ({"tool_name": "Bash"}, True),
        ({"tool_name": "bash"}, False),  # case-sensitive
        ({"tool_matcher": "Write | Bash"}, True),  # pieces are trimmed
        ({"tool_matcher": "Ba.*"}, False),  # no regex
        ({"tool_matcher": "*"}, False),  # no glob
        ({"tool_name": "Write", "tool_matcher": "Bash"}, False),  # tool_name wins
    ],
)
async def test_tool_filters(filters: dict[str, str], runs: bool) -> None:
    _, journal, chain = await fire(
        spec("a", memory("a"), **filters), in_memory={"a": answers("{}")}
    )
    assert len(exchanges(journal)) == int(runs)
    assert chain.metrics["a"].skipped == int(not runs)


async def test_model_prefix_is_a_case_sensitive_prefix() -> None:
    hooks = (
        spec("gpt", memory("gpt"), event="pre_llm_request", model_prefix="gpt-4"),
        spec("GPT", memory("GPT"), event="pre_llm_request", model_prefix="GPT"),
    )
    context = {"model": "gpt-4o", "messages": []}
    script = {"gpt": answers("{}"), "GPT": answers("{}")}
    _, journal, chain = await fire(
        *hooks, context=context, event="pre_llm_request", in_memory=script
    )
    assert [x.hook for x in exchanges(journal)] == ["gpt"]
    assert chain.metrics["GPT"].skipped == 1


async def test_a_filter_that_can_never_match_is_skipped_with_a_finding() -> None:
    hook = spec("a", reply("{}"), model_prefix="gpt")  # tool events carry no model
    _, journal, chain = await fire(hook)
    (skipped,) = exchanges(journal)
    assert skipped.status == STATUS_NOT_SENT and skipped.action == "skipped"
    assert codes(skipped) == ["jcli-filter-never-matches"]
    assert chain.metrics["a"].skipped == 1 and chain.metrics["a"].executions == 0


async def test_a_disabled_hook_is_counted_skipped() -> None:
    _, journal, chain = await fire(spec("a", reply("{}"), enabled=False))
    assert not exchanges(journal) and chain.metrics["a"].skipped == 1


# ---- order, env, cwd, metrics, config warnings ------------------------------------------------


async def test_levels_run_builtin_user_project_session_then_by_priority() -> None:
    hooks = (
        spec("session", memory("session"), level="session"),
        spec("project-2", memory("project-2"), level="project", priority=2),
        spec("project-1", memory("project-1"), level="project", priority=1),
        spec("user", memory("user"), level="user", priority=9),
    )
    script = {hook.name: answers("{}") for hook in hooks}
    _, journal, _ = await fire(*hooks, in_memory=script)
    assert [x.hook for x in exchanges(journal)] == ["user", "project-1", "project-2", "session"]


async def test_env_cwd_and_path_of_a_folder_hook(tmp_path: Path) -> None:
    log, hook_dir, cwd = tmp_path / "seen.jsonl", tmp_path / "hookdir", tmp_path / "project"
    hook_dir.mkdir()
    cwd.mkdir()
    hook = spec("a", record(log), dir=str(hook_dir))
    await fire(hook, cwd=str(cwd), shell=("sh", "-c"))  # G3's shell: no login profile
    (seen,) = recorded(log)
    assert seen["env"] == {
        "JCLI_HOOK_EVENT": "pre_tool_execution",
        "JCLI_CWD": str(cwd),
        "JCLI_HOOK_DIR": str(hook_dir),
    }
    assert seen["path_head"] == str(hook_dir) and seen["cwd"] == str(cwd)
    assert seen["context"] == {"event": "pre_tool_execution", **TOOL_CONTEXT, "cwd": str(cwd)}
    assert list(seen["context"]) == [
        "event",
        "tool_name",
        "tool_arguments",
        "session_id",
        "cwd",
    ]  # serde's field order


def _profile_resets_path() -> bool:
    run = subprocess.run(
        ["bash", "-lc", 'echo "$PATH"'],
        env={**os.environ, "PATH": "/marker:/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    return not run.stdout.startswith("/marker")


@pytest.mark.skipif(not _profile_resets_path(), reason="this system's /etc/profile keeps PATH")
async def test_login_shell_drops_the_hook_folder_from_path(tmp_path: Path) -> None:
    hook_dir = tmp_path / "hookdir"
    hook_dir.mkdir()
    script = hook_dir / "check.sh"
    script.write_text("#!/bin/sh\ncat > /dev/null\necho '{}'\n")
    script.chmod(0o755)
    _, journal, _ = await fire(spec("a", "check.sh", dir=str(hook_dir)))
    (failed,) = exchanges(journal)
    assert failed.exit_code == 127 and "jcli-path-reset" in codes(failed)


async def test_a_path_from_the_hook_folder_is_not_found_from_the_users_folder(
    tmp_path: Path,
) -> None:
    """j-cli runs `./check.sh` in the user's current directory, not the hook folder: exit 127."""
    hook_dir, cwd = tmp_path / "hookdir", tmp_path / "project"
    hook_dir.mkdir()
    cwd.mkdir()
    script = hook_dir / "check.sh"
    script.write_text("#!/bin/sh\ncat > /dev/null\necho '{}'\n")
    script.chmod(0o755)
    _, journal, _ = await fire(spec("a", "./check.sh", dir=str(hook_dir)), cwd=str(cwd))
    (failed,) = exchanges(journal)
    assert failed.exit_code == 127
    assert codes(failed) == ["jcli-command-not-found"]  # nothing ran, so no stdin-unread
    (why,) = failed.findings
    assert str(cwd) in why.message and str(hook_dir) in why.message
    assert '"$JCLI_HOOK_DIR/check.sh"' in why.message


async def test_a_program_on_no_path_is_not_found(tmp_path: Path) -> None:
    _, journal, _ = await fire(
        spec("a", "no-such-checker --strict", dir=str(tmp_path)), shell=("sh", "-c")
    )
    (failed,) = exchanges(journal)
    assert failed.exit_code == 127 and codes(failed) == ["jcli-command-not-found"]
    assert "'no-such-checker'" in failed.findings[0].message


async def test_a_command_missing_inside_a_script_is_the_scripts_own_failure(
    tmp_path: Path,
) -> None:
    """The script was found and ran; its own exit 127 is not a wrong hook command."""
    script = tmp_path / "check.sh"
    script.write_text("#!/bin/sh\ncat > /dev/null\nno-such-tool-inside\n")
    script.chmod(0o755)
    _, journal, _ = await fire(spec("a", f"{script}", dir=str(tmp_path)), cwd=str(tmp_path))
    (failed,) = exchanges(journal)
    assert failed.exit_code == 127 and "jcli-command-not-found" not in codes(failed)


async def test_login_profile_noise_is_flagged() -> None:
    (Path.home() / ".profile").write_text("echo 'Welcome back!'\n")
    _, journal, _ = await fire(spec("a", reply({"action": "skip"})))
    (failed,) = exchanges(journal)
    assert failed.status == STATUS_INVALID
    (noise,) = failed.findings
    assert noise.code == "stdout-noise"
    assert "Welcome back!" in noise.message and "login shell" in noise.message


async def test_a_script_that_never_reads_stdin_is_flagged() -> None:
    _, journal, _ = await fire(spec("a", sh("silent.sh")))
    (quiet,) = exchanges(journal)
    assert quiet.action == "no change" and codes(quiet) == ["stdin-unread"]


async def test_hooks_with_one_label_share_metrics(tmp_path: Path) -> None:
    command = reply("{}")
    journal = Journal()
    chain = JcliChain(
        [
            spec("project:a", command, dir=str(tmp_path)),
            spec("project:a", command, event="stop", dir=str(tmp_path)),
        ],
        journal,
    )
    await chain.fire("pre_tool_execution", dict(TOOL_CONTEXT), source="test")
    await chain.fire("stop", {"model": "m"}, source="test")
    assert chain.metrics["project:a"].executions == 2


async def test_config_warnings_go_on_the_first_exchange_of_their_hook() -> None:
    abort = finding("jcli-on-error-abort", "abort")
    warning = ConfigWarning("HOOK.yaml", abort, 3, "on_error", hook="a")
    journal = Journal()
    chain = JcliChain([spec("a", reply("{}"))], journal, warnings=[warning])
    for _ in range(2):
        await chain.fire("pre_tool_execution", dict(TOOL_CONTEXT), source="test")
    first, second = exchanges(journal)
    assert codes(first) == ["jcli-on-error-abort"] and codes(second) == []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"
