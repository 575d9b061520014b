"""What Gemini CLI 0.61.0 puts on a hook's stdin and in its environment, for the turn runner, the
composer and `check`.

Every payload starts with session_id, transcript_path, cwd, hook_event_name and timestamp (ISO
8601, milliseconds, Z), in that order, then the event's own fields. A model event's llm_request
is Gemini CLI's stable request: model, messages (role and the text of each content, its parts
joined; a content with no text left out) and config (temperature, maxOutputTokens, topP, topK,
the ones set). AfterModel adds llm_response: text, candidates (content with the text parts,
finishReason, index), usageMetadata. The hook's environment gets GEMINI_PROJECT_DIR,
GEMINI_CWD and CLAUDE_PROJECT_DIR (the project), GEMINI_SESSION_ID and GEMINI_PLANS_DIR, the
CLI's own GEMINI_CLI_NO_RELAUNCH, and the handler's own `env`."""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspector.hosts.gemini.events import (
    AFTER_AGENT,
    AFTER_MODEL,
    AFTER_TOOL,
    BEFORE_AGENT,
    BEFORE_MODEL,
    BEFORE_TOOL,
    BEFORE_TOOL_SELECTION,
    EVENTS,
    NOTIFICATION,
    PRE_COMPRESS,
    SESSION_END,
    SESSION_START,
)
from inspector.hosts.gemini.stream import Chunk, chunk_response

JSONObject = dict[str, Any]

MODEL = "gemini-3.8-flash"  # what 0.61.0 asks for by default
GENERATION_CONFIG = {"temperature": 1, "topP": 0.95, "topK": 64}  # its defaults, as hooks see them
SHELL_TOOL = "run_shell_command"
SAMPLE_COMMAND = "rm -rf build"
SAMPLE_PROMPT = "Tidy up the project."


def timestamp() -> str:
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


@dataclass(frozen=True)
class GeminiSession:
    """One `gemini` session's common fields and hook environment."""

    session_id: str
    project_dir: str
    home: str = ""

    @property
    def temp_dir(self) -> str:
        home = self.home or os.path.expanduser("~")
        return str(Path(home) / ".gemini" / "tmp" / Path(self.project_dir).name)

    @property
    def transcript_path(self) -> str:
        started = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M")
        return str(Path(self.temp_dir) / "chats" / f"session-{started}-{self.session_id[:8]}.jsonl")

    def payload(self, event: str, fields: JSONObject) -> JSONObject:
        return {
            "session_id": self.session_id,
            "transcript_path": self.transcript_path,
            "cwd": self.project_dir,
            "hook_event_name": event,
            "timestamp": timestamp(),
            **fields,
        }

    def env(self) -> dict[str, str]:
        return {
            "GEMINI_PROJECT_DIR": self.project_dir,
            "GEMINI_PLANS_DIR": str(Path(self.temp_dir) / self.session_id / "plans"),
            "GEMINI_CWD": self.project_dir,
            "GEMINI_SESSION_ID": self.session_id,
            "CLAUDE_PROJECT_DIR": self.project_dir,
            "GEMINI_CLI_NO_RELAUNCH": "true",  # the CLI's own, set at start: its hooks inherit it
        }


def session_uuid(name: str) -> str:
    """A scenario's session as the UUID Gemini CLI would have given it (the same every run)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"hook-inspector:gemini:{name}"))


def llm_request(model: str, messages: list[JSONObject]) -> JSONObject:
    return {"model": model, "messages": messages, "config": dict(GENERATION_CONFIG)}


def tool_response(output: str, error: str | None = None) -> JSONObject:
    """What run_shell_command's hooks see as its result."""
    if error is not None:
        return {"llmContent": error, "returnDisplay": error, "error": {"message": error}}
    return {"llmContent": output, "returnDisplay": output}


def event_fields(event: str) -> JSONObject:
    """A believable set of `event`'s own fields."""
    request = llm_request(MODEL, [{"role": "user", "content": SAMPLE_PROMPT}])
    tool = {"tool_name": SHELL_TOOL, "tool_input": {"command": SAMPLE_COMMAND}}
    fields: dict[str, JSONObject] = {
        SESSION_START: {"source": "startup"},
        SESSION_END: {"reason": "exit"},
        BEFORE_AGENT: {"prompt": SAMPLE_PROMPT},
        AFTER_AGENT: {
            "prompt": SAMPLE_PROMPT,
            "prompt_response": "Done.",
            "stop_hook_active": False,
        },
        BEFORE_MODEL: {"llm_request": request},
        AFTER_MODEL: {
            "llm_request": request,
            "llm_response": chunk_response(Chunk("Done."), last=True, count=1),
        },
        BEFORE_TOOL_SELECTION: {"llm_request": request},
        BEFORE_TOOL: tool,
        AFTER_TOOL: {**tool, "tool_response": tool_response("")},
        PRE_COMPRESS: {"trigger": "auto"},
        NOTIFICATION: {
            "notification_type": "ToolPermission",
            "message": f"Tool {SHELL_TOOL} requires execution",
            "details": {"type": "exec", "title": SHELL_TOOL, "command": SAMPLE_COMMAND},
        },
    }
    if event not in fields:
        raise ValueError(f"no Gemini CLI event {event!r}; it has {', '.join(EVENTS)}")
    return fields[event]


def example_payload(event: str, project_dir: str) -> JSONObject:
    """A believable stdin for `event` in `project_dir`, for the composer and `check`."""
    session = GeminiSession(session_uuid("example"), project_dir)
    return session.payload(event, event_fields(event))
