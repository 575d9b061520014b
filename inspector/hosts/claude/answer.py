"""What Claude Code takes from one command hook run: its exit code first, then (on exit 0) the
JSON on stdout."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from inspector.findings.finding import Finding
from inspector.hooks.command_hook import parse_stdout
from inspector.hooks.run_command import CommandRun
from inspector.hosts.claude.events import (
    DECISION_BLOCK_EVENTS,
    EXIT_2_REACHES_CLAUDE,
    PERMISSION_DECISIONS,
    PRE_TOOL_USE,
    STDOUT_IS_CONTEXT,
)
from inspector.hosts.claude.findings import output_findings, run_findings

JSONObject = dict[str, Any]

# An exchange's action: what Claude Code made of the run.
CONTINUE = "continue"  # no decision: things go on as if the hook were not there
ALLOW = "allow"
DENY = "deny"
ASK = "ask"
DEFER = "defer"
BLOCK = "block"  # exit 2, or decision "block"
STOP = "stop"  # continue: false
ERROR = "error"  # a non-blocking error: any other exit, a timeout, a command that never started

_LEGACY = {"approve": ALLOW, "block": DENY}


@dataclass(frozen=True)
class HookAnswer:
    action: str
    reason: str = ""  # for Claude (block, deny) or for the user (ask, error)
    stop_reason: str = ""
    system_message: str = ""
    context: str = ""  # additionalContext, or plain stdout where that is context
    updated_input: JSONObject | None = None
    findings: tuple[Finding, ...] = ()


def read_answer(event: str, payload: JSONObject, run: CommandRun) -> HookAnswer:
    findings = run_findings(event, payload, run)
    if run.exit_code == 0:
        output = parse_stdout(run.stdout)
        if output is None:
            context = run.stdout.strip() if event in STDOUT_IS_CONTEXT else ""
            return HookAnswer(CONTINUE, context=context, findings=tuple(findings))
        return read_output(event, payload, output, findings)
    if run.exit_code == 2 and event in EXIT_2_REACHES_CLAUDE:
        return HookAnswer(BLOCK, reason=run.stderr.strip(), findings=tuple(findings))
    return HookAnswer(ERROR, reason=_error_text(run), findings=tuple(findings))


def read_output(
    event: str, payload: JSONObject, output: JSONObject, findings: Iterable[Finding]
) -> HookAnswer:
    """A hook's JSON answer (a command's stdout on exit 0, an http hook's 2xx body)."""
    found = (*findings, *output_findings(event, output, payload))
    return _from_output(event, output, found)


def _from_output(event: str, output: JSONObject, findings: tuple[Finding, ...]) -> HookAnswer:
    specific = output.get("hookSpecificOutput")
    if isinstance(specific, dict) and (invalid := _event_name_error(event, specific)):
        return HookAnswer(ERROR, reason=invalid, findings=findings)
    specific = specific if isinstance(specific, dict) else {}
    updated = specific.get("updatedInput") if event == PRE_TOOL_USE else None
    carried = HookAnswer(
        CONTINUE,
        system_message=_text(output.get("systemMessage")),
        context=_text(specific.get("additionalContext")),
        updated_input=updated if isinstance(updated, dict) else None,
        findings=findings,
    )
    if output.get("continue") is False:
        stop_reason = _text(output.get("stopReason"))
        return replace(carried, action=STOP, reason=stop_reason, stop_reason=stop_reason)
    if event == PRE_TOOL_USE:
        decision = specific.get("permissionDecision")
        if decision in PERMISSION_DECISIONS:
            reason = _text(specific.get("permissionDecisionReason"))
            return replace(carried, action=decision, reason=reason)
        legacy = output.get("decision")
        if legacy in _LEGACY:
            return replace(carried, action=_LEGACY[legacy], reason=_text(output.get("reason")))
    elif event in DECISION_BLOCK_EVENTS and output.get("decision") == "block":
        return replace(carried, action=BLOCK, reason=_text(output.get("reason")))
    return carried


def _event_name_error(event: str, specific: JSONObject) -> str:
    """Claude Code's words when hookSpecificOutput fails validation for its event name, which
    makes it drop the whole answer; "" when the name is right."""
    name = specific.get("hookEventName")
    if name == event:
        return ""
    if name is None:
        return 'hookSpecificOutput is missing required field "hookEventName"'
    return f"Hook returned incorrect event name: expected '{event}' but got '{name}'"


def _error_text(run: CommandRun) -> str:
    if run.spawn_error:
        return run.spawn_error
    if run.timed_out:
        return f"timed out after {run.duration_ms / 1000:.1f} s"
    how = f"exit status {run.exit_code}" if run.exit_code is not None else f"signal {run.signal}"
    stderr = run.stderr.strip()
    return f"{how}: {stderr}" if stderr else how


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
