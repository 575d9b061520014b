"""Helpers for the Claude Code hook tests: specs that run the scripts in tests/hooks/claude,
a ClaudeHooks on a fresh journal, and a scripted human at the approval prompt."""

from __future__ import annotations

import asyncio
import itertools
import json
import shlex
from pathlib import Path
from typing import Any

from inspector.config.model import CommandHookSpec
from inspector.hooks.approvals import Approvals, Verdict
from inspector.hosts.claude.chain import ClaudeHooks
from inspector.hosts.claude.versions import NEWEST, ClaudeVersion
from inspector.journal.journal import Journal
from tests.support.paths import HOOKS

SCRIPTS = HOOKS / "claude"
_numbers = itertools.count(1)


def script(name: str, *args: str) -> str:
    """A command line that runs one of the test scripts with `args`."""
    return " ".join(shlex.quote(word) for word in ("sh", str(SCRIPTS / name), *args))


def reply(code: int = 0, stdout: str | dict[str, Any] = "", stderr: str = "") -> str:
    """A hook that reads the event, prints `stdout` (a dict as JSON) and `stderr`, exits `code`."""
    text = json.dumps(stdout) if isinstance(stdout, dict) else stdout
    return script("reply.sh", str(code), text, stderr)


def decision(permission: str, reason: str = "", **more: Any) -> dict[str, Any]:
    """A PreToolUse answer with hookSpecificOutput.permissionDecision."""
    specific = {"hookEventName": "PreToolUse", "permissionDecision": permission, **more}
    if reason:
        specific["permissionDecisionReason"] = reason
    return {"hookSpecificOutput": specific}


def spec(
    command: str,
    event: str = "PreToolUse",
    *,
    matcher: str | None = None,
    name: str | None = None,
    timeout_ms: int = 5000,
) -> CommandHookSpec:
    return CommandHookSpec(
        name=name or f"{event}:h{next(_numbers)}",
        host="claude",
        event=event,
        command=command,
        timeout_ms=timeout_ms,
        matcher=matcher,
        level="project",
    )


def claude_hooks(
    *specs: CommandHookSpec,
    project_dir: Path,
    ask_timeout_ms: int = 5000,
    env: dict[str, str] | None = None,
    version: ClaudeVersion = NEWEST,
) -> ClaudeHooks:
    return ClaudeHooks(
        specs,
        Journal(),
        Approvals(),
        project_dir=project_dir,
        ask_timeout_ms=ask_timeout_ms,
        env=env,
        version=version,
    )


def answer_prompts(approvals: Approvals, verdict: Verdict) -> list[Any]:
    """A person who answers every prompt with `verdict` as soon as it shows; returns the list
    of prompts they saw."""
    seen: list[Any] = []
    loop = asyncio.get_running_loop()

    def on_change() -> None:
        for prompt in approvals.pending:
            if prompt not in seen:
                seen.append(prompt)
                loop.call_soon(approvals.decide, prompt.id, verdict)

    approvals.subscribe(on_change)
    return seen


def tool_event(tool: str = "Bash", command: str = "ls", **more: Any) -> dict[str, Any]:
    """A PreToolUse stdin as Claude Code sends it."""
    return {
        "session_id": "s1",
        "transcript_path": "/tmp/s1.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command},
        "tool_use_id": "toolu_0001",
        **more,
    }
