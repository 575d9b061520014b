"""What a `claude -p` session of Claude Code gives every hook besides the event's own fields, as
observed in 2.1.197 and 2.1.332 (what differs is the session's version record): the common stdin
fields in their order and the environment.

Every event starts with session_id (a UUID), transcript_path and cwd; then prompt_id (the
prompt's UUID: every event after the first prompt, SessionEnd included), permission_mode (not
on SessionStart, SessionEnd or MessageDisplay), effort (tool events, PostToolBatch and Stop)
and hook_event_name. The environment adds what Claude Code sets for a hook run by its SDK CLI
entry point (`-p`): CLAUDECODE, CLAUDE_CODE_ENTRYPOINT, CLAUDE_CODE_SESSION_ID, ...;
CLAUDE_EFFORT beside effort, and CLAUDE_ENV_FILE on SessionStart (a file in a folder Claude Code
makes for the session, one per SessionStart hook, whose exports Claude Code applies to later Bash
commands).
"""

from __future__ import annotations

import os
import re
import tempfile
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.hosts.claude.events import (
    POST_TOOL_USE,
    POST_TOOL_USE_FAILURE,
    PRE_TOOL_USE,
    SESSION_START,
    STOP,
)
from inspector.hosts.claude.versions import NEWEST, ClaudeVersion, agent_name

JSONObject = dict[str, Any]

ENTRYPOINT = "sdk-cli"  # `claude -p`; the interactive CLI says "cli"
MESSAGE_DISPLAY = "MessageDisplay"
SESSION_END = "SessionEnd"
POST_TOOL_BATCH = "PostToolBatch"
ENV_FILE = "CLAUDE_ENV_FILE"

_WITH_EFFORT = frozenset(
    {PRE_TOOL_USE, POST_TOOL_USE, POST_TOOL_USE_FAILURE, POST_TOOL_BATCH, STOP}
)
_NO_PERMISSION_MODE = frozenset({SESSION_START, SESSION_END, MESSAGE_DISPLAY})
_EVERY_HOOK_ENV = {
    "CLAUDECODE": "1",
    "CLAUDE_CODE_ENTRYPOINT": ENTRYPOINT,
    "CLAUDE_CODE_CHILD_SESSION": "1",
    "COREPACK_ENABLE_AUTO_PIN": "0",
    "NoDefaultCurrentDirectoryInExePath": "1",
}


def session_uuid(name: str) -> str:
    """`name` when it is a UUID (Claude Code's session ids are), else a UUID made from it: the
    same scenario always plays under the same id."""
    try:
        return str(uuid.UUID(name))
    except ValueError:
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"hook-inspector:scenario:{name}"))


@dataclass
class ClaudeSession:
    session_id: str
    cwd: str
    permission_mode: str
    transcript_path: str = ""  # default: where Claude Code keeps the session's transcript
    prompt_id: str | None = None  # set by each prompt
    version: ClaudeVersion = NEWEST

    def __post_init__(self) -> None:
        if not self.transcript_path:
            folder = re.sub(r"[^A-Za-z0-9]", "-", self.cwd)
            projects = Path.home() / ".claude" / "projects"
            self.transcript_path = str(projects / folder / f"{self.session_id}.jsonl")

    def new_prompt(self) -> str:
        self.prompt_id = str(uuid.uuid4())
        return self.prompt_id

    def payload(self, event: str, fields: JSONObject) -> JSONObject:
        """`event`'s stdin: the common fields in Claude Code's order, then `fields`."""
        payload: JSONObject = {
            "session_id": self.session_id,
            "transcript_path": self.transcript_path,
            "cwd": self.cwd,
        }
        if self.prompt_id is not None and event != SESSION_START:
            payload["prompt_id"] = self.prompt_id
        if event not in _NO_PERMISSION_MODE:
            payload["permission_mode"] = self.permission_mode
        if event in _WITH_EFFORT:
            payload["effort"] = {"level": self.version.effort}
        return {**payload, "hook_event_name": event, **fields}

    def env(self, event: str) -> dict[str, str]:
        """The variables Claude Code adds for `event`'s hooks (CLAUDE_PROJECT_DIR is the hooks'
        own)."""
        env = {
            **_EVERY_HOOK_ENV,
            "AI_AGENT": agent_name(self.version),
            **dict(self.version.hook_env),
            "CLAUDE_CODE_SESSION_ID": self.session_id,
        }
        if event in _WITH_EFFORT:
            env["CLAUDE_EFFORT"] = self.version.effort
        if self.version.names_its_process:
            env["CLAUDE_PID"] = str(os.getpid())  # the process that runs the hooks
            env["CLAUDE_CODE_CHILD_NOTES_DIR"] = str(self.notes_folder())
        if event == SESSION_START:
            folder = Path.home() / ".claude" / "session-env" / self.session_id
            folder.mkdir(parents=True, exist_ok=True)
            env[ENV_FILE] = str(folder / env_file_name(0))
        return env

    def notes_folder(self) -> Path:
        """Where 2.1.332 lets the processes a session starts leave notes (TMP/claude-UID/
        PROJECT-SLUG/SESSION/started), made as the real CLI makes it."""
        slug = re.sub(r"[^A-Za-z0-9]", "-", self.cwd)
        own = Path(tempfile.gettempdir()) / f"claude-{os.getuid()}"
        folder = own / slug / self.session_id / "started"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder


def env_file_name(index: int) -> str:
    """The CLAUDE_ENV_FILE of the session's `index`th SessionStart hook (0 first)."""
    return f"sessionstart-hook-{index}.sh"


def hook_env(env: Mapping[str, str], index: int) -> Mapping[str, str]:
    """`env` for the `index`th hook of the event: each SessionStart hook writes a file of its
    own."""
    if ENV_FILE not in env:
        return env
    return {**env, ENV_FILE: str(Path(env[ENV_FILE]).with_name(env_file_name(index)))}


def example_payload(event: str, cwd: str) -> JSONObject:
    """A believable stdin for `event` in a session in `cwd`, as Claude Code sends it: what the
    composer and `check` start from."""
    session = ClaudeSession(session_uuid("composer"), cwd, "default")
    session.prompt_id = session_uuid("composer prompt")
    return session.payload(event, _EXAMPLE_FIELDS.get(event, {}))


_PROMPT = "What does this project do?"
_REPLY = "It inspects agent hooks."
_TOOL = {"tool_name": "Bash", "tool_input": {"command": "ls", "description": "List files"}}
_TOOL_ID = {"tool_use_id": "toolu_01"}
_BASH_RESULT = {
    "stdout": "README.md",
    "stderr": "",
    "interrupted": False,
    "isImage": False,
    "noOutputExpected": False,
}
_STOPPING = {"stop_hook_active": False, "last_assistant_message": _REPLY}
_EXAMPLE_FIELDS: dict[str, JSONObject] = {
    SESSION_START: {"source": "startup"},
    "UserPromptSubmit": {"prompt": _PROMPT},
    MESSAGE_DISPLAY: {
        "turn_id": session_uuid("composer turn"),
        "message_id": session_uuid("composer message"),
        "index": 0,
        "final": True,
        "delta": _REPLY,
    },
    PRE_TOOL_USE: {**_TOOL, **_TOOL_ID},
    "PermissionRequest": {**_TOOL, "permission_suggestions": []},
    POST_TOOL_USE: {**_TOOL, "tool_response": _BASH_RESULT, **_TOOL_ID, "duration_ms": 12},
    POST_TOOL_USE_FAILURE: {
        **_TOOL,
        **_TOOL_ID,
        "error": "Exit code 1\nls: cannot access",
        "is_interrupt": False,
        "duration_ms": 12,
    },
    POST_TOOL_BATCH: {"tool_calls": [{**_TOOL, **_TOOL_ID, "tool_response": "README.md"}]},
    "Notification": {
        "message": "Claude needs your permission to use Bash",
        "notification_type": "permission_prompt",
    },
    STOP: {**_STOPPING, "background_tasks": [], "session_crons": []},
    "SubagentStop": _STOPPING,
    SESSION_END: {"reason": "other"},
}
