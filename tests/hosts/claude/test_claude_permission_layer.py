"""Claude Code's `-p` permission layer in the turn runner: what no hook decided is decided by the
settings' rules and the permission mode as the real CLI decides it (compared with the real
2.1.197 and 2.1.332 in tests/real_agents/test_claude_emulation_permission_layer.py), and the
journal names who decided."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.config.errors import ConfigError
from inspector.hooks.approvals import Approvals
from inspector.hosts.claude.chain import ClaudeHooks
from inspector.hosts.claude.permission_layer import PermissionLayer
from inspector.hosts.claude.turn import ClaudeTurnOutcome
from inspector.hosts.claude.versions import claude_version
from inspector.journal.journal import Journal
from inspector.journal.records import Decision
from inspector.scenario import parse_scenario
from tests.support.claude import decision, reply, spec

RELEASES = ("2.1.197", "2.1.332")


def scenario(*calls: tuple[str, dict[str, Any]]) -> Any:
    lines = [
        f"          - tool: {tool}\n            arguments: {json.dumps(arguments)}"
        for tool, arguments in calls
    ]
    return parse_scenario(
        "session: s\nturns:\n  - user: go\n    rounds:\n      - content: on it\n"
        "        tool_calls:\n" + "\n".join(lines) + "\n      - content: done\n"
    )


def settings(project: Path, permissions: dict[str, Any], *, name: str = "settings.json") -> Path:
    folder = project / ".claude"
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / name
    file.write_text(json.dumps({"permissions": permissions}))
    return file


async def play(
    project: Path,
    calls: list[tuple[str, dict[str, Any]]],
    *,
    files: tuple[Path, ...] = (),
    release: str = "2.1.332",
    hooks: tuple[Any, ...] = (),
    cli_allowed: tuple[str, ...] = (),
    home: Path | None = None,
) -> tuple[ClaudeTurnOutcome, Journal]:
    approvals = Approvals()
    approvals.unattended = True
    journal = Journal()
    layer = PermissionLayer(files, project, cli_allowed=cli_allowed, home=home or project.parent)
    claude = ClaudeHooks(
        hooks,
        journal,
        approvals,
        project_dir=project,
        version=claude_version(release),
        permissions=layer,
    )
    [outcome] = await claude.turn_runner().run(scenario(*calls))
    return outcome, journal


def layer_decisions(journal: Journal) -> list[tuple[str, str]]:
    return [
        (record.verdict, record.by)
        for record in journal.of_type(Decision)
        if record.stage == "permission"
    ]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("release", RELEASES)
async def test_with_no_rule_a_command_that_writes_and_a_write_are_refused_in_the_releases_words(
    project: Path, release: str
) -> None:
    calls = [
        ("Bash", {"command": "touch made.txt"}),
        ("Bash", {"command": "ls"}),
        ("Write", {"file_path": str(project / "w.txt"), "content": "x"}),
        ("Bash", {"command": "python3 -c 'print(1)'"}),
    ]
    outcome, journal = await play(project, calls, release=release)
    touch, _, write, python = outcome.tool_uses
    assert [use.ran for use in outcome.tool_uses] == [False, True, False, False]
    made = project / "made.txt"
    if release == "2.1.332":
        assert touch.feedback.startswith(f"touch in '{made}' needs approval. The path is inside")
    else:
        assert touch.feedback == (
            f"touch in '{made}' was blocked. For security, Claude Code may only create or modify "
            f"files in the allowed working directories for this session: '{project}'."
        )
    assert write.feedback == (
        f"Claude requested permissions to write to {project / 'w.txt'}, but you haven't "
        "granted it yet."
    )
    assert python.feedback == "This command requires approval"
    assert layer_decisions(journal) == [
        ("deny", "no rule allows it; -p asks nobody"),
        ("allow", "a read-only command"),
        ("deny", "no rule allows it; -p asks nobody"),
        ("deny", "no rule allows it; -p asks nobody"),
    ]


async def test_rules_decide_and_the_decision_names_the_rule(project: Path) -> None:
    file = settings(project, {"deny": ["Bash(rm:*)"], "ask": ["Bash(git push:*)"]})
    calls = [
        ("Bash", {"command": "touch a && rm -rf b"}),
        ("Bash", {"command": "git push origin main"}),
        ("Bash", {"command": "touch made.txt"}),
    ]
    outcome, journal = await play(project, calls, files=(file,), cli_allowed=("Bash(touch:*)",))
    rm, push, touch = outcome.tool_uses
    assert rm.feedback == "Permission to use Bash with command touch a && rm -rf b has been denied."
    assert (
        push.feedback == "Claude requested permissions to use Bash, but you haven't granted it yet."
    )
    assert touch.ran
    assert layer_decisions(journal) == [
        ("deny", "rule Bash(rm:*) (deny, project settings)"),
        ("deny", "rule Bash(git push:*) (ask, project settings); -p asks nobody"),
        ("allow", "rule Bash(touch:*) (allow, --allowedTools)"),
    ]


@pytest.mark.parametrize(("trusted", "runs"), [(False, False), (True, True)])
async def test_a_projects_allow_rules_count_only_once_the_project_is_trusted(
    project: Path, trusted: bool, runs: bool
) -> None:
    file = settings(project, {"allow": ["Bash(python3:*)"]})
    home = project.parent / "home"
    home.mkdir(exist_ok=True)
    if trusted:
        state = {"projects": {str(project): {"hasTrustDialogAccepted": True}}}
        (home / ".claude.json").write_text(json.dumps(state))
    calls = [("Bash", {"command": "python3 -c 'print(1)'"})]
    outcome, journal = await play(project, calls, files=(file,), home=home)
    assert outcome.tool_uses[0].ran is runs
    [(_, by)] = layer_decisions(journal)
    left_out = "rule Bash(python3:*) (allow, project settings) is left out: project settings of "
    assert (left_out in by) is not trusted, by


@pytest.mark.parametrize(
    ("release", "mode"), [("2.1.197", "bypassPermissions"), ("2.1.332", "default")]
)
async def test_a_projects_bypass_permissions_mode_counts_in_2_1_197_only(
    project: Path, release: str, mode: str
) -> None:
    file = settings(project, {"defaultMode": "bypassPermissions"})
    layer = PermissionLayer((file,), project, home=project.parent)
    assert layer.mode(claude_version(release)) == mode


@pytest.mark.parametrize(("release", "runs"), [("2.1.197", False), ("2.1.332", True)])
async def test_local_settings_allow_rules_in_an_untrusted_project_count_from_2_1_332(
    project: Path, release: str, runs: bool
) -> None:
    file = settings(project, {"allow": ["Write"]}, name="settings.local.json")
    calls = [("Write", {"file_path": str(project / "w.txt"), "content": "x"})]
    outcome, _ = await play(project, calls, files=(file,), release=release)
    assert outcome.tool_uses[0].ran is runs


async def test_accept_edits_runs_edits_inside_the_project_only(project: Path) -> None:
    file = settings(project, {"defaultMode": "acceptEdits"})
    calls = [
        ("Bash", {"command": "touch made.txt && rm -rf scratch"}),
        ("Write", {"file_path": str(project / "w.txt"), "content": "x"}),
        ("Bash", {"command": "touch ../outside.txt"}),
    ]
    outcome, journal = await play(project, calls, files=(file,))
    assert [use.ran for use in outcome.tool_uses] == [True, True, False]
    assert layer_decisions(journal)[:2] == [("allow", "mode acceptEdits")] * 2


async def test_dont_ask_refuses_what_would_ask_in_its_own_words_without_permission_request(
    project: Path, tmp_path: Path
) -> None:
    file = settings(project, {"defaultMode": "dontAsk"})
    log = tmp_path / "asked.log"
    asked = spec(f"cat >> {log}", "PermissionRequest")
    calls = [("Bash", {"command": "touch made.txt"}), ("Bash", {"command": "ls"})]
    outcome, journal = await play(project, calls, files=(file,), hooks=(asked,))
    touch, ls = outcome.tool_uses
    assert touch.feedback.startswith(
        "Permission to use Bash has been denied because Claude Code is running in don't ask mode."
    )
    assert ls.ran and not log.exists()
    assert layer_decisions(journal)[0] == ("deny", "mode dontAsk")


@pytest.mark.parametrize("release", RELEASES)
async def test_permission_request_hooks_answer_an_ask_under_p_from_2_1_332(
    project: Path, release: str
) -> None:
    allow = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        }
    }
    hook = spec(reply(0, allow), "PermissionRequest", name="PermissionRequest:permit")
    outcome, journal = await play(
        project, [("Bash", {"command": "touch made.txt"})], release=release, hooks=(hook,)
    )
    fired = [event.event for event in outcome.events]
    fires = release == "2.1.332"
    assert ("PermissionRequest" in fired) is fires
    assert outcome.tool_uses[0].ran is fires
    if fires:
        assert layer_decisions(journal) == [
            ("allow", "PermissionRequest hook PermissionRequest:permit")
        ]


async def test_a_hooks_allow_stands_unless_a_deny_rule_matches(project: Path) -> None:
    file = settings(project, {"deny": ["Bash(rm -rf build)"]})
    hook = spec(reply(0, decision("allow", "fine")), matcher="Bash")
    calls = [("Bash", {"command": "rm -rf build"}), ("Bash", {"command": "rm -rf other"})]
    outcome, _ = await play(project, calls, files=(file,), hooks=(hook,))
    denied, allowed = outcome.tool_uses
    assert not denied.ran and allowed.ran
    assert denied.feedback == "Permission to use Bash with command rm -rf build has been denied."


@pytest.mark.parametrize("release", RELEASES)
async def test_a_tool_a_deny_rule_names_whole_is_not_offered_and_no_hook_runs(
    project: Path, release: str, tmp_path: Path
) -> None:
    file = settings(project, {"deny": ["Write", "Read(./secret.txt)"]})
    log = tmp_path / "pre.log"
    pre = spec(f"cat >> {log}")
    calls = [
        ("Write", {"file_path": str(project / "w.txt"), "content": "x"}),
        ("Read", {"file_path": str(project / "secret.txt")}),
    ]
    outcome, _ = await play(project, calls, files=(file,), release=release, hooks=(pre,))
    write, secret = outcome.tool_uses
    assert write.feedback.startswith("<tool_use_error>Error: No such tool available: Write. ")
    assert secret.feedback == (
        "<tool_use_error>File is in a directory that is denied by your permission settings."
        "</tool_use_error>"
    )
    assert not log.exists()


async def test_a_scenario_names_the_permission_mode_as_claude_p_permission_mode_does(
    project: Path, tmp_path: Path
) -> None:
    record = tmp_path / "pre.jsonl"
    hook = spec(f"cat >> {record}; echo >> {record}")
    text = (
        "session: s\npermission_mode: acceptEdits\nturns:\n  - user: go\n    rounds:\n"
        "      - content: on it\n        tool_calls:\n"
        '          - {tool: Bash, arguments: {command: "touch made.txt"}}\n'
        "      - content: done\n"
    )
    approvals = Approvals()
    approvals.unattended = True
    claude = ClaudeHooks(
        (hook,), Journal(), approvals, project_dir=project, permissions=PermissionLayer((), project)
    )
    [outcome] = await claude.turn_runner().run(parse_scenario(text))
    assert outcome.tool_uses[0].ran
    sent = json.loads(record.read_text().splitlines()[0])
    assert sent["permission_mode"] == "acceptEdits"


async def test_a_scenario_naming_an_unknown_mode_is_refused_at_its_key(project: Path) -> None:
    text = (
        "session: s\npermission_mode: yolo\nturns:\n  - user: go\n    rounds:\n"
        "      - content: done\n"
    )
    claude = ClaudeHooks(
        (), Journal(), Approvals(), project_dir=project, permissions=PermissionLayer((), project)
    )
    with pytest.raises(ConfigError) as refused:
        await claude.turn_runner().run(parse_scenario(text))
    assert refused.value.key == "permission_mode" and "acceptEdits" in refused.value.message


async def test_a_scenarios_allowed_tools_are_rules_as_claude_p_allowed_tools_gives_them(
    project: Path,
) -> None:
    text = (
        'session: s\nallowed_tools: ["Bash(python3:*)"]\nturns:\n  - user: go\n    rounds:\n'
        "      - content: on it\n        tool_calls:\n"
        "          - {tool: Bash, arguments: {command: \"python3 -c 'print(1)'\"}}\n"
        '          - {tool: Bash, arguments: {command: "node -e 1"}}\n'
        "      - content: done\n"
    )
    approvals = Approvals()
    approvals.unattended = True
    journal = Journal()
    claude = ClaudeHooks(
        (), journal, approvals, project_dir=project, permissions=PermissionLayer((), project)
    )
    [outcome] = await claude.turn_runner().run(parse_scenario(text))
    assert [use.ran for use in outcome.tool_uses] == [True, False]
    assert layer_decisions(journal)[0] == ("allow", "rule Bash(python3:*) (allow, --allowedTools)")
