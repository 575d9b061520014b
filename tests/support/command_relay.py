"""Running the command relay the way Claude Code runs a hook: a real process, the event as
compact JSON and a newline on stdin, the host's environment."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.relay.command_wire import INSIDE_INSPECTOR

RELAY_ENV = {
    "CLAUDE_PROJECT_DIR": "/work/project",
    "CLAUDECODE": "1",
    "CLAUDE_CODE_SESSION_ID": "0b6f0f7e-2a57-4a0e-9e47-52b0a4d44f7a",
}


def pre_tool_use(command: str) -> dict[str, Any]:
    return {
        "session_id": "0b6f0f7e-2a57-4a0e-9e47-52b0a4d44f7a",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/work/project",
        "prompt_id": "p1",
        "permission_mode": "default",
        "effort": {"level": "medium"},
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run it"},
        "tool_use_id": "toolu_01",
    }


def permission_request(command: str) -> dict[str, Any]:
    """Claude Code's PermissionRequest for a Bash call, as it is about to show its dialog."""
    event = {key: value for key, value in pre_tool_use(command).items() if key != "tool_use_id"}
    return {
        **event,
        "hook_event_name": "PermissionRequest",
        "permission_suggestions": [{"type": "addRules", "behavior": "allow"}],
    }


def dialog_answer(behavior: str, **more: Any) -> dict[str, Any]:
    """A PermissionRequest hook's answer: hookSpecificOutput.decision."""
    decision = {"behavior": behavior, **more}
    return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}


@dataclass(frozen=True)
class HookRun:
    stdout: str
    stderr: str
    exit_code: int

    @property
    def output(self) -> dict[str, Any]:
        value = json.loads(self.stdout)
        assert isinstance(value, dict)
        return value


async def run_relay(
    socket_path: Path,
    event: dict[str, Any] | bytes,
    *flags: str,
    host: str = "claude",
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> HookRun:
    """The relay as the host runs it: the event as compact JSON and a newline on stdin (or the
    bytes given), in the host's folder `cwd` with its variables `env` added."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "inspector",
        "relay",
        "--host",
        host,
        "--socket",
        str(socket_path),
        *flags,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**host_environ(), **RELAY_ENV, **(env or {})},
        cwd=cwd,
    )
    if isinstance(event, bytes):
        stdin = event
    else:
        stdin = json.dumps(event, separators=(",", ":")).encode() + b"\n"
    stdout, stderr = await process.communicate(stdin)
    assert process.returncode is not None
    return HookRun(stdout.decode(), stderr.decode(), process.returncode)


def host_environ() -> dict[str, str]:
    """The host's environment: the inspector listening in this same test process marks its own,
    which a host started elsewhere does not have."""
    return {key: value for key, value in os.environ.items() if key != INSIDE_INSPECTOR}
