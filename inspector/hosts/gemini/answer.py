"""One hook run read as Gemini CLI 0.61.0 reads it (hookRunner.ts): what it takes from the run,
before the event's answers merge.

stdout, trimmed, else stderr, trimmed, is the text read. JSON that is an object (or a string
holding one) is the answer, whatever the exit code. Other text becomes an answer by the exit
code: 0 is `decision: allow` with the text as systemMessage, 1 the same with "Warning: " before
it, anything else (2, but also 3, 126, 127...) `decision: deny` with the text as reason. No text
at all is no answer, even on exit 2. A run that timed out (SIGTERM, then SIGKILL 5 s later) or
could not start is no answer either. Gemini CLI counts every exit but 0 as a failed hook (a
warning for the user) even when its text blocked."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

JSONObject = dict[str, Any]

SUCCESS, NON_BLOCKING_ERROR = 0, 1
BLOCKING = ("block", "deny")

# what a run comes to, for the journal's action column
STOP, DENY, ASK, ALLOW, CHANGE, CONTINUE, ERROR = (
    "stop",
    "deny",
    "ask",
    "allow",
    "change",
    "continue",
    "error",
)
CHANGES = ("tool_input", "llm_request", "llm_response", "toolConfig", "additionalContext")


class Run(Protocol):
    @property
    def stdout(self) -> str: ...
    @property
    def stderr(self) -> str: ...
    @property
    def exit_code(self) -> int | None: ...
    @property
    def timed_out(self) -> bool: ...
    @property
    def spawn_error(self) -> str | None: ...
    @property
    def duration_ms(self) -> float: ...
    @property
    def unread_stdin(self) -> int: ...
    @property
    def ignored_stdin(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Answer:
    output: JSONObject | None  # what Gemini CLI merges; None: the run gave no answer
    success: bool  # exit 0, in time
    form: str = ""  # "json", "text", or "" for no answer
    error: str = ""  # why the run gave no answer (timeout, could not start)

    @property
    def action(self) -> str:
        output = self.output
        if output is None:
            return CONTINUE if self.success else ERROR
        if output.get("continue") is False:
            return STOP
        if output.get("decision") in BLOCKING:
            return DENY
        if output.get("decision") == "ask":
            return ASK
        specific = output.get("hookSpecificOutput")
        if isinstance(specific, dict) and any(key in specific for key in CHANGES):
            return CHANGE
        return ALLOW if output.get("decision") in ("allow", "approve") else CONTINUE

    @property
    def reason(self) -> str:
        output = self.output or {}
        return str(output.get("stopReason") or output.get("reason") or "")


def read_answer(run: Run) -> Answer:
    if run.spawn_error:
        return Answer(None, False, error=run.spawn_error)
    if run.timed_out:
        return Answer(None, False, error="timed out")
    exit_code = run.exit_code or SUCCESS  # killed by a signal: `exitCode || 0`
    success = run.exit_code == SUCCESS
    text = run.stdout.strip() or run.stderr.strip()
    if not text:
        return Answer(None, success)
    try:
        parsed = parse_json(text)
    except ValueError:
        return Answer(plain_text_answer(text, exit_code), success, "text")
    if isinstance(parsed, dict):
        return Answer(parsed, success, "json")
    return Answer(None, success)  # JSON, but no object: a number, null, a list


def parse_json(text: str) -> object:
    """JSON.parse as hookRunner does it: a string holding JSON is parsed again. ValueError when
    the text is not JSON (then it is read as plain text)."""
    try:
        value = json.loads(text)
        return json.loads(value) if isinstance(value, str) else value
    except RecursionError:
        raise ValueError("nested too deeply") from None


def plain_text_answer(text: str, exit_code: int) -> JSONObject:
    if exit_code == SUCCESS:
        return {"decision": "allow", "systemMessage": text}
    if exit_code == NON_BLOCKING_ERROR:
        return {"decision": "allow", "systemMessage": f"Warning: {text}"}
    return {"decision": "deny", "reason": text}
