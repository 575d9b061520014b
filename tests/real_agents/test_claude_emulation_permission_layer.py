"""Claude Code's `-p` permission layer, real and emulated side by side: the same settings (rules,
defaultMode), the same --allowedTools and the same tool calls through a real `claude -p` and
through hook-inspector's turn runner, and for each call the same fate (ran or refused), the same
words to the model when refused, and the same hooks fired (PermissionRequest too, where the
release fires it under -p)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from claude_cli import ClaudeCli
from claude_fixtures import claude_cli, project  # noqa: F401 (fixtures used by name)
from emulation import emulate
from fake_anthropic import Reply, ToolCall, bash
from recorded_hooks import read_calls, recorder, recording_settings, write_settings
from test_claude_emulation_semantics import logs, one_turn
from test_claude_real import play

from inspector.hosts.claude.versions import claude_version
from inspector.journal.journal import Journal
from inspector.journal.records import Decision

JSONObject = dict[str, Any]

RECORDED = ("PreToolUse", "PermissionRequest")


def write(project: Path, name: str) -> ToolCall:
    return ToolCall("Write", {"file_path": str(project / name), "content": "x"})


def edit(project: Path, name: str) -> ToolCall:
    return ToolCall(
        "Edit", {"file_path": str(project / name), "old_string": "a", "new_string": "b"}
    )


def read(path: str) -> ToolCall:
    return ToolCall("Read", {"file_path": path})


def no_rules(project: Path) -> tuple[JSONObject, list[ToolCall], tuple[str, ...]]:
    calls = [
        bash("touch made.txt"),
        bash("ls"),
        bash("echo hi > out.txt"),
        bash("cat /etc/hostname"),
        bash("python3 -c 'print(1)'"),
        write(project, "w.txt"),
        read(str(project / "r.txt")),  # 2.1.197 edits no file it has not read
        edit(project, "r.txt"),
        read("/etc/hostname"),
    ]
    return {}, calls, ()


def rules(project: Path) -> tuple[JSONObject, list[ToolCall], tuple[str, ...]]:
    permissions = {
        # an untrusted project's allow rules are left out; its deny and ask rules hold
        "allow": ["Bash(python3:*)", "Write"],
        "deny": ["Bash(rm:*)", "Edit(./r.txt)"],
        "ask": ["Bash(git push:*)"],
    }
    calls = [
        bash("touch made.txt"),
        bash("touch b.txt && rm c.txt"),
        bash("rm -rf scratch"),
        bash("git push origin main"),
        bash("python3 -c 'print(1)'"),
        bash("mkdir d"),
        write(project, "w.txt"),
        edit(project, "r.txt"),
        read("/etc/hostname"),
    ]
    return {"permissions": permissions}, calls, ("Bash(touch:*)", "Read(//etc/**)")


def accept_edits(project: Path) -> tuple[JSONObject, list[ToolCall], tuple[str, ...]]:
    calls = [
        bash("touch made.txt"),
        write(project, "w.txt"),
        bash("rm -rf scratch && ls"),
        bash("cat r.txt | wc -l"),
        bash("touch ../outside.txt"),
        bash("python3 -c 'print(1)'"),
        read("/etc/hostname"),
    ]
    return {"permissions": {"defaultMode": "acceptEdits"}}, calls, ()


def dont_ask(project: Path) -> tuple[JSONObject, list[ToolCall], tuple[str, ...]]:
    calls = [bash("touch made.txt"), bash("ls"), write(project, "w.txt"), read("/etc/hostname")]
    return {"permissions": {"defaultMode": "dontAsk"}}, calls, ()


def plan(project: Path) -> tuple[JSONObject, list[ToolCall], tuple[str, ...]]:
    # 2.1.332's plan mode sends Bash calls that would ask to its auto mode's server-side check,
    # which the emulation does not play: only calls that do not ask of Bash here
    calls = [write(project, "w.txt"), bash("ls")]
    return {"permissions": {"defaultMode": "plan"}}, calls, ()


def bypass(project: Path) -> tuple[JSONObject, list[ToolCall], tuple[str, ...]]:
    calls = [
        bash("touch made.txt"),
        bash("python3 -c 'print(1)'"),
        bash("rm -rf scratch"),
        write(project, "w.txt"),
        read("/etc/hostname"),
    ]
    permissions = {"defaultMode": "bypassPermissions", "deny": ["Bash(rm:*)"]}
    return {"permissions": permissions}, calls, ()


def tool_denied(project: Path) -> tuple[JSONObject, list[ToolCall], tuple[str, ...]]:
    calls = [write(project, "w.txt"), bash("ls")]
    return {"permissions": {"deny": ["Write"]}}, calls, ()


def substitution(project: Path) -> tuple[JSONObject, list[ToolCall], tuple[str, ...]]:
    # a command or process substitution is not read-only; a newline cuts commands as `;` does
    calls = [
        bash("echo $(touch sub.txt)"),
        bash("cat `touch tick.txt`"),
        bash("cat <(touch proc.txt)"),
        bash("echo '$(touch quoted.txt)'"),
        bash("echo hi\ntouch nl.txt"),
        bash("echo hi\nls"),
    ]
    return {}, calls, ()


CASES = {
    "no-rules": no_rules,
    "rules": rules,
    "accept-edits": accept_edits,
    "dont-ask": dont_ask,
    "plan": plan,
    "bypass": bypass,
    "tool-denied": tool_denied,
    "substitution": substitution,
}


def script_of(calls: Sequence[ToolCall]) -> list[Reply]:
    """One call per message, each with the id the emulation gives it."""
    numbered = [
        ToolCall(call.name, call.input, f"toolu_{n:04d}") for n, call in enumerate(calls, 1)
    ]
    return [Reply(tool_calls=(call,)) for call in numbered] + [Reply("Done.")]


def compare(
    claude_cli: ClaudeCli,
    project: Path,
    home: Path,
    settings: JSONObject,
    calls: list[ToolCall],
    allowed: tuple[str, ...],
    answer: str = "",
) -> Journal:
    """Run `calls` through the real CLI and the emulation with these settings; each call's fate
    and words, and the hooks fired, must be the same. Returns the emulation's journal."""
    (project / "r.txt").write_text("a\n")
    real_log, emulated_log = logs(project)
    write_settings(project, recording_settings(recorder(real_log, answer), RECORDED) | settings)
    script = script_of(calls)
    run, api = play(claude_cli, project, home, script, allowed_tools=allowed)
    denied = {denial["tool_use_id"] for denial in run.result.get("permission_denials", [])}
    told = {result["tool_use_id"]: result for result in api.tool_results()}

    (project / "r.txt").write_text("a\n")
    journal = Journal()
    emulated_settings = recording_settings(recorder(emulated_log, answer), RECORDED) | settings
    outcome = asyncio.run(
        emulate(
            project,
            emulated_settings,
            one_turn(script),
            version=claude_cli.version,
            allowed_tools=allowed,
            journal=journal,
        )
    )
    for use in outcome.tool_uses:
        real = told[use.tool_use_id]
        refused = use.tool_use_id in denied or str(real["content"]).startswith("<tool_use_error>")
        assert use.ran is not refused, (use, real)
        if refused:
            assert use.feedback == real["content"], use.tool
    real_events = [(call.event, call.payload["tool_input"]) for call in read_calls(real_log)]
    emulated_events = [
        (call.event, call.payload["tool_input"]) for call in read_calls(emulated_log)
    ]
    assert emulated_events == real_events
    return journal


@pytest.mark.parametrize("case", sorted(CASES))
def test_what_no_hook_decided_the_permission_layer_decides_as_claude_p_does(
    claude_cli: ClaudeCli, project: Path, home: Path, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IS_SANDBOX", "1")  # else the CLI, run as root, refuses bypassPermissions
    settings, calls, allowed = CASES[case](project)
    journal = compare(claude_cli, project, home, settings, calls, allowed)
    layer = [decision for decision in journal.of_type(Decision) if decision.stage == "permission"]
    assert layer and all(decision.by for decision in layer)  # who decided is named


def test_permission_request_hooks_answer_the_layers_ask_where_the_release_fires_them(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    calls = [bash("touch allowme.txt"), bash("touch denyme.txt"), bash("touch other.txt")]
    compare(claude_cli, project, home, {}, calls, (), answer="permit")
    fires = claude_version(claude_cli.version).permission_request_in_p
    assert (project / "allowme.txt").exists() is fires


def test_a_hooks_allow_runs_the_call_unless_a_deny_rule_matches(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    calls = [bash("rm -rf scratch"), bash("touch made.txt && rm -rf other")]
    settings = {"permissions": {"deny": ["Bash(rm -rf scratch)"]}}
    compare(claude_cli, project, home, settings, calls, (), answer="allow")
    assert (project / "made.txt").exists()


def test_a_handlers_if_picks_the_calls_its_rule_matches_as_claude_code_does(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    conditions = ("Bash(touch:*)", "Bash(rm *)", "Write", "Read(./r.txt)", "Bash(ls)")

    def settings(side: str) -> JSONObject:
        def handler(index: int, condition: str) -> JSONObject:
            log = project.parent / f"{side}-if-{index}.jsonl"
            return {"type": "command", "command": recorder(log), "if": condition}

        handlers = [handler(index, condition) for index, condition in enumerate(conditions)]
        prompt = [{"hooks": [handler(len(conditions), "Bash")]}]
        return {"hooks": {"PreToolUse": [{"hooks": handlers}], "UserPromptSubmit": prompt}}

    def seen(side: str) -> list[list[JSONObject]]:
        logs = [project.parent / f"{side}-if-{index}.jsonl" for index in range(len(conditions) + 1)]
        return [[call.payload.get("tool_input", {}) for call in read_calls(log)] for log in logs]

    for name in ("r.txt", "q.txt"):
        (project / name).write_text("a\n")
    calls = [
        bash("touch a.txt"),
        bash("echo x && rm -rf b"),
        bash("ls"),
        write(project, "w.txt"),
        read(str(project / "r.txt")),
        read(str(project / "q.txt")),
    ]
    script = script_of(calls)
    write_settings(project, settings("real"))
    play(claude_cli, project, home, script, allowed_tools=("Bash", "Write"))
    scenario = one_turn(script)
    asyncio.run(
        emulate(
            project,
            settings("emulated"),
            scenario,
            version=claude_cli.version,
            allowed_tools=("Bash", "Write"),
        )
    )
    real, emulated = seen("real"), seen("emulated")
    assert [len(inputs) for inputs in real] == [1, 1, 1, 1, 1, 0]  # UserPromptSubmit: never
    assert emulated == real
