"""What Claude Code takes from one http handler's request (2.1.332): a 2xx answer's body is read
as a command's stdout JSON is; anything else is a non-blocking error and the action goes ahead.

- no answer (no connection, cut off): an error, with why;
- a status other than 2xx (a redirect too: none is followed): an error, `HTTP <status> from
  <url>`, and the body is not read;
- 2xx with an empty body: `{}`, no decision; a body that is not a JSON object: an error (plain
  text is never context, as a command's stdout can be); a JSON object: read as stdout's JSON.
- no answer in time: Claude Code cancels the request and goes on (no verdict)."""

from __future__ import annotations

import json
from typing import Any

from inspector.hooks.run_http import HttpRun
from inspector.hosts.claude.answer import CONTINUE, ERROR, HookAnswer, read_output
from inspector.hosts.claude.findings import finding

JSONObject = dict[str, Any]
_SHOWN = 200  # Claude Code quotes this much of a body that is not JSON


def read_http_answer(event: str, payload: JSONObject, run: HttpRun) -> HookAnswer:
    if run.timed_out:
        reason = f"timed out after {run.duration_ms / 1000:.1f} s"
        return HookAnswer(ERROR, reason=reason, findings=(finding("claude-timeout", reason),))
    if not run.answered:
        reason = run.error or "no answer"
        return HookAnswer(ERROR, reason=reason, findings=(finding("claude-http-failed", reason),))
    if not run.ok:
        reason = f"HTTP {run.status} from {run.url}"
        return HookAnswer(ERROR, reason=reason, findings=(finding("claude-http-status", reason),))
    body = run.answer.strip()
    if not body:
        return HookAnswer(CONTINUE)
    if not body.startswith("{"):
        shown = body if len(body) <= _SHOWN else body[:_SHOWN] + "…"
        reason = f"HTTP hook must return JSON, but got non-JSON response body: {shown}"
        return _not_json(reason)
    try:
        output = json.loads(body)
    except (ValueError, RecursionError) as exc:
        return _not_json(f"HTTP hook must return valid JSON, but parsing failed: {exc}")
    if not isinstance(output, dict):
        return _not_json("HTTP hook must return a JSON object")
    return read_output(event, payload, output, ())


def _not_json(reason: str) -> HookAnswer:
    return HookAnswer(ERROR, reason=reason, findings=(finding("claude-http-not-json", reason),))
