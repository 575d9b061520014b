"""What a hook answered, as replay compares it: a JSON-RPC hook's result or error, or a command
hook's run (or an http hook's request) as its host reads it."""

from __future__ import annotations

import json
from typing import Any

from inspector.journal.records import STATUS_TIMEOUT, Exchange


def recorded_answer(exchange: Exchange, *, shows_stderr: bool) -> dict[str, Any]:
    """`shows_stderr`: the host shows a failed command hook's stderr (Claude Code gives it to the
    model on exit 2 and to the user on any other failure; j-cli only logs it)."""
    if exchange.by_command:
        return command_answer(exchange, shows_stderr=shows_stderr)
    response = exchange.response or {}
    if "result" in response:
        return {"result": response["result"]}
    error = response.get("error")
    if isinstance(error, dict):
        return {"error": error.get("message")}
    return {"error": exchange.error or exchange.status}


def command_answer(exchange: Exchange, *, shows_stderr: bool) -> dict[str, Any]:
    """The exit code, then on exit 0 the stdout (JSON when it is JSON, else the text); on a
    failure the stderr where the host shows it. A run that timed out or died by a signal has no
    exit code."""
    if exchange.status == STATUS_TIMEOUT:
        return {"timed_out": True}
    if exchange.http_status is not None:  # an http hook's answer: its status and its body
        return {
            "http_status": exchange.http_status,
            "body": _stdout_value(exchange.raw_response or ""),
        }
    if exchange.exit_code is None:
        return {"error": exchange.error or exchange.status}
    answer: dict[str, Any] = {"exit_code": exchange.exit_code}
    if exchange.exit_code == 0:
        answer["stdout"] = _stdout_value(exchange.raw_response or "")
    elif shows_stderr:
        answer["stderr"] = (exchange.stderr or "").strip()
    return answer


def _stdout_value(stdout: str) -> Any:
    text = stdout.strip()
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text
