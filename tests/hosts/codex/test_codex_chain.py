"""Codex's rules over one event's hooks (codex-cli 0.171.0): parallel runs, exit codes, the
first blocking reason in config order, the last rewrite to finish, and what Codex refuses."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from inspector.config.model import CommandHookSpec
from inspector.hosts.codex.chain import CodexHooks
from inspector.hosts.codex.outcome import CodexOutcome
from inspector.hosts.codex.relay_answer import codex_output
from inspector.hosts.codex.shell import shell_for
from inspector.hosts.codex.templates import example_payload
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange

SHELL = ("/bin/sh", "-c")


def _hooks(tmp_path: Path, *commands: str) -> CodexHooks:
    specs = [
        CommandHookSpec(
            name=f"h{index}", host="codex", event="PreToolUse", command=command, timeout_ms=5000
        )
        for index, command in enumerate(commands)
    ]
    return CodexHooks(specs, Journal(), project_dir=tmp_path, shell=SHELL)


def _answer(value: object) -> str:
    return f"cat > /dev/null; echo {shlex.quote(json.dumps(value))}"


async def test_the_first_blocking_reason_in_config_order_wins_not_the_first_to_finish(
    tmp_path: Path,
) -> None:
    hooks = _hooks(
        tmp_path,
        "cat > /dev/null; sleep 0.3; echo slow >&2; exit 2",
        "cat > /dev/null; echo fast >&2; exit 2",
    )
    outcome = await hooks.fire(
        "PreToolUse", example_payload("PreToolUse", str(tmp_path)), source="t"
    )
    assert (outcome.verdict, outcome.reason, outcome.by) == ("block", "slow", ("h0", "h1"))


async def test_exit_2_without_stderr_and_allow_without_updated_input_fail_open(
    tmp_path: Path,
) -> None:
    allow = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    hooks = _hooks(tmp_path, "cat > /dev/null; exit 2", _answer(allow), "cat >/dev/null; exit 1")
    outcome = await hooks.fire(
        "PreToolUse", example_payload("PreToolUse", str(tmp_path)), source="t"
    )
    assert outcome.verdict == "continue"
    assert [run.answer.reason for run in outcome.runs] == [
        "PreToolUse hook exited with code 2 but did not write a blocking reason to stderr",
        "PreToolUse hook returned unsupported permissionDecision:allow",
        "hook exited with code 1",
    ]


async def test_a_deny_reaches_codex_as_json_it_reads(tmp_path: Path) -> None:
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no",
        }
    }
    outcome = await _hooks(tmp_path, _answer(deny)).fire(
        "PreToolUse", example_payload("PreToolUse", str(tmp_path)), source="t"
    )
    assert json.loads(codex_output(outcome).stdout) == deny


def test_a_held_pre_tool_use_edited_by_a_person_reaches_codex_as_allow_with_updated_input(
    tmp_path: Path,
) -> None:
    payload = example_payload("PreToolUse", str(tmp_path))
    said = json.loads(codex_output(CodexOutcome("PreToolUse", payload), {"command": "ls"}).stdout)
    assert said == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {"command": "ls"},
        }
    }


# What codex-cli 0.171.0 did with each matcher on a PreToolUse of its shell tool (Bash): a
# regular expression that must match the whole tool name.
SEEN = {
    "Bash": True,
    "^Bash$": True,
    "*": True,
    "": True,
    "B.*": True,
    "Bash|Write": True,
    "(Bash)": True,
    "Bas.": True,
    "Ba": False,
    "as": False,
    "bash": False,
    "exec_command": False,
    "shell": False,
}


@pytest.mark.parametrize(("matcher", "runs"), SEEN.items())
def test_a_matcher_picks_hooks_as_codex_did(tmp_path: Path, matcher: str, runs: bool) -> None:
    hook = CommandHookSpec(
        name="h", host="codex", event="PreToolUse", command="true", timeout_ms=5000, matcher=matcher
    )
    hooks = CodexHooks([hook], Journal(), project_dir=tmp_path, shell=SHELL)
    payload = example_payload("PreToolUse", str(tmp_path))
    assert bool(hooks.matching("PreToolUse", payload)) is runs


async def test_an_async_hook_runs_and_decides_nothing(tmp_path: Path) -> None:
    spec = CommandHookSpec(
        name="later",
        host="codex",
        event="PreToolUse",
        command="cat > /dev/null; echo no >&2; exit 2",
        timeout_ms=5000,
        background=True,
    )
    hooks = CodexHooks([spec], Journal(), project_dir=tmp_path, shell=SHELL)
    outcome = await hooks.fire(
        "PreToolUse", example_payload("PreToolUse", str(tmp_path)), source="t"
    )
    assert outcome.verdict == "continue"
    [ran] = hooks.journal.of_type(Exchange)
    assert ran.action == "block"  # it ran, and said no; Codex did not wait to hear it


@pytest.mark.parametrize(
    ("account_shell", "on_path", "files", "expected"),
    [
        # seen with the real codex 0.171.0: root's /bin/bash under SHELL=/bin/sh ran /bin/bash -c,
        # an account of /bin/sh under SHELL=/bin/bash ran /bin/sh -c, and an account of
        # /bin/dash or /usr/sbin/nologin ran bash from PATH
        ("/bin/bash", {"bash": "/usr/bin/bash"}, set(), ("/bin/bash", "-c")),
        ("/bin/sh", {"bash": "/usr/bin/bash"}, set(), ("/bin/sh", "-c")),
        ("/usr/bin/zsh", {}, set(), ("/usr/bin/zsh", "-c")),
        ("/bin/dash", {"bash": "/usr/bin/bash"}, set(), ("/usr/bin/bash", "-c")),
        ("/usr/sbin/nologin", {"bash": "/usr/bin/bash"}, set(), ("/usr/bin/bash", "-c")),
        ("/usr/bin/fish", {}, {"/bin/bash"}, ("/bin/bash", "-c")),
        (None, {"zsh": "/usr/bin/zsh"}, set(), ("/usr/bin/zsh", "-c")),
        ("/home/me/bin/bash", {}, set(), ("/bin/sh", "-c")),  # Codex knows exact paths only
        ("/usr/bin/pwsh", {}, set(), ("/usr/bin/pwsh", "-NoProfile", "-Command")),
    ],
)
def test_a_hook_runs_in_the_shell_codex_picks_for_the_account_whatever_dollar_shell_says(
    account_shell: str | None,
    on_path: dict[str, str],
    files: set[str],
    expected: tuple[str, ...],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SHELL", "/nonexistent/zsh")
    assert shell_for(account_shell, on_path.get, files.__contains__) == expected
