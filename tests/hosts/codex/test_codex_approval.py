"""A person answers a live Codex's PermissionRequest (no hook decided) and a PreToolUse one of
the inspector's hooks asked about, in the answers Codex accepts."""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path

import pytest

from inspector.config.model import CommandHookSpec
from inspector.hooks.approvals import ALLOW_ONCE, ASK_AGENT, DENY, Approvals, Verdict
from inspector.hosts.codex.chain import CodexHooks
from inspector.hosts.codex.relay_answer import codex_output
from inspector.hosts.codex.templates import example_payload
from inspector.hosts.host import ABSENT
from inspector.journal.journal import Journal
from tests.support.waiting import wait_for

ASK = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}


def _hooks(tmp_path: Path, approvals: Approvals, event: str, command: str) -> CodexHooks:
    spec = CommandHookSpec(name="h", host="codex", event=event, command=command, timeout_ms=5000)
    return CodexHooks(
        [spec], Journal(), project_dir=tmp_path, shell=("/bin/sh", "-c"), approvals=approvals
    )


async def _answered(hooks: CodexHooks, event: str, verdict: Verdict, *, live: bool = True) -> str:
    payload = example_payload(event, hooks.project_dir)
    fired = asyncio.create_task(hooks.fire(event, payload, source="relay:codex", live=live))
    await wait_for(lambda: bool(hooks.approvals.pending))
    [prompt] = hooks.approvals.pending
    assert prompt.tool == "Bash"
    assert prompt.agent_asks == ("Codex" if event == "PermissionRequest" else "")
    hooks.approvals.decide(prompt.id, verdict)
    return codex_output(await fired).stdout


@pytest.mark.parametrize(
    ("verdict", "said"),
    [
        (Verdict(ALLOW_ONCE), {"behavior": "allow"}),
        (
            Verdict(DENY, reason="not outside the sandbox"),
            {"behavior": "deny", "message": "not outside the sandbox"},
        ),
    ],
)
async def test_a_live_permission_request_no_hook_decided_is_the_person_s(
    tmp_path: Path, verdict: Verdict, said: dict[str, str]
) -> None:
    hooks = _hooks(tmp_path, Approvals(), "PermissionRequest", "cat > /dev/null")
    stdout = await _answered(hooks, "PermissionRequest", verdict)
    assert json.loads(stdout) == {
        "hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": said}
    }


async def test_a_hook_s_ask_on_a_live_pre_tool_use_asks_the_person_whose_deny_blocks(
    tmp_path: Path,
) -> None:
    command = f"cat > /dev/null; echo {shlex.quote(json.dumps(ASK))}"
    hooks = _hooks(tmp_path, Approvals(), "PreToolUse", command)
    stdout = await _answered(hooks, "PreToolUse", Verdict(DENY, reason="not now"))
    specific = json.loads(stdout)["hookSpecificOutput"]
    assert (specific["permissionDecision"], specific["permissionDecisionReason"]) == (
        "deny",
        "not now",
    )


async def test_left_to_codex_the_answer_says_nothing(tmp_path: Path) -> None:
    hooks = _hooks(tmp_path, Approvals(), "PermissionRequest", "cat > /dev/null")
    assert await _answered(hooks, "PermissionRequest", Verdict(ASK_AGENT)) == ABSENT.stdout


async def test_nobody_is_asked_when_nobody_is_there_or_the_event_is_played(tmp_path: Path) -> None:
    unattended = Approvals()
    unattended.unattended = True
    for approvals, live in ((unattended, True), (Approvals(), False)):
        hooks = _hooks(tmp_path, approvals, "PermissionRequest", "cat > /dev/null")
        payload = example_payload("PermissionRequest", str(tmp_path))
        outcome = await hooks.fire("PermissionRequest", payload, source="t", live=live)
        assert (outcome.verdict, approvals.pending) == ("continue", [])
