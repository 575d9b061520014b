"""The stdin Codex gives its hooks (codex-cli 0.171.0, as `codex exec` sends it), for the turn
runner, the composer and check: the common fields first, in Codex's order, then the event's own.

Every event has session_id, transcript_path, cwd, hook_event_name; all but SessionStart and
SessionEnd add turn_id (after session_id) and model (after hook_event_name); the tool, prompt,
stop and subagent events add permission_mode after model. `codex exec` runs with approvals off,
so its permission_mode is bypassPermissions. A subagent's own events (its UserPromptSubmit...)
add agent_id and agent_type after turn_id; SubagentStop gives agent_transcript_path after
transcript_path.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from inspector.hosts.codex.events import (
    INTERRUPT,
    PERMISSION_REQUEST,
    POST_COMPACT,
    POST_TOOL_USE,
    PRE_COMPACT,
    PRE_TOOL_USE,
    SESSION_END,
    SESSION_START,
    SHELL_TOOL,
    STOP,
    SUBAGENT_START,
    SUBAGENT_STOP,
    USER_PROMPT_SUBMIT,
)

JSONObject = dict[str, Any]

MODEL = "gpt-5.5"
PERMISSION_MODE = "bypassPermissions"
_NO_TURN = (SESSION_START, SESSION_END)
_NO_MODEL = (SESSION_END,)
_NO_PERMISSION_MODE = (SESSION_END, PRE_COMPACT, POST_COMPACT)
_AGENT_TRANSCRIPT = "agent_transcript_path"


@dataclass
class CodexSession:
    session_id: str
    cwd: str
    model: str = MODEL
    permission_mode: str = PERMISSION_MODE
    transcript_path: str = ""
    turn_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    agent: JSONObject | None = None  # a subagent's session: its agent_id and agent_type

    def new_turn(self) -> None:
        self.turn_id = str(uuid.uuid4())

    def payload(self, event: str, fields: JSONObject) -> JSONObject:
        """`event`'s stdin: the common fields in Codex's order, then `fields`."""
        payload: JSONObject = {"session_id": self.session_id}
        if event not in _NO_TURN:
            payload["turn_id"] = self.turn_id
        if self.agent and event not in (SUBAGENT_START, SUBAGENT_STOP):
            payload.update(self.agent)
        payload["transcript_path"] = self.transcript_path or None
        if _AGENT_TRANSCRIPT in fields:
            payload[_AGENT_TRANSCRIPT] = fields[_AGENT_TRANSCRIPT]
        payload["cwd"] = self.cwd
        payload["hook_event_name"] = event
        if event not in _NO_MODEL:
            payload["model"] = self.model
        if event not in _NO_PERMISSION_MODE:
            payload["permission_mode"] = self.permission_mode
        return {**payload, **fields}


_TOOL = {"tool_name": SHELL_TOOL, "tool_input": {"command": "rm -rf build"}}
_EXAMPLES: dict[str, JSONObject] = {
    SESSION_START: {"source": "startup"},
    USER_PROMPT_SUBMIT: {"prompt": "Tidy up the project."},
    PRE_TOOL_USE: {**_TOOL, "tool_use_id": "call_0001"},
    # what the model gave as its reason to leave the sandbox is the input's description
    PERMISSION_REQUEST: {
        "tool_name": SHELL_TOOL,
        "tool_input": {"command": "rm -rf build", "description": "clean the build folder"},
    },
    POST_TOOL_USE: {**_TOOL, "tool_response": "", "tool_use_id": "call_0001"},
    PRE_COMPACT: {"trigger": "auto"},  # codex exec compacts by itself; the TUI's /compact is manual
    POST_COMPACT: {"trigger": "auto"},
    SUBAGENT_START: {"agent_id": "agent_0001", "agent_type": "default"},
    SUBAGENT_STOP: {
        "agent_transcript_path": None,
        "stop_hook_active": False,
        "agent_id": "agent_0001",
        "agent_type": "default",
        "last_assistant_message": "Done.",
    },
    STOP: {"stop_hook_active": False, "last_assistant_message": "Done."},
    SESSION_END: {"reason": "other"},
    INTERRUPT: {},
}


def example_payload(event: str, project_dir: str) -> JSONObject:
    """A believable stdin for `event` in `project_dir`."""
    session = CodexSession("019a0000-0000-7000-8000-000000000000", project_dir)
    return session.payload(event, dict(_EXAMPLES.get(event, {})))
