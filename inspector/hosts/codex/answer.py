"""What Codex takes from one command hook run (codex-cli 0.171.0, hooks/src/engine/output_parser.rs
and events/*.rs): a timeout or a failed start fails the run; exit 2 blocks with stderr as the
reason on the events that can block (no stderr: the run fails); any other non-zero exit fails it;
exit 0 with stdout that parses into the event's answer is read, plain text is context for the
model on SessionStart and UserPromptSubmit and ignored elsewhere, and text that starts like JSON
but does not parse fails the run. A failed run decides nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.findings.command import stdin_unread, stdout_noise
from inspector.findings.finding import Finding
from inspector.hooks.command_hook import parse_stdout
from inspector.hooks.run_command import CommandRun
from inspector.hosts.codex.events import (
    PERMISSION_REQUEST,
    POST_TOOL_USE,
    PRE_TOOL_USE,
    SESSION_START,
    SUBAGENT_STOP,
    USER_PROMPT_SUBMIT,
)
from inspector.hosts.codex.events import STOP as STOP_EVENT
from inspector.hosts.codex.findings import finding

JSONObject = dict[str, Any]

# An exchange's action: what Codex made of the run.
CONTINUE = "continue"  # no decision: things go on as if the hook were not there
ALLOW = "allow"  # PermissionRequest allowed, or PreToolUse allowed with updatedInput
BLOCK = "block"  # exit 2 with a reason, deny, or decision "block"
STOP = "stop"  # continue: false, where Codex supports it
ERROR = "error"  # a failed run: Codex goes on as if the hook had said nothing

# Events where exit 2 with stderr is an answer, and what Codex calls its stderr there.
EXIT_2_BLOCKS = {
    PRE_TOOL_USE: "a blocking reason",
    POST_TOOL_USE: "feedback",
    PERMISSION_REQUEST: "a denial reason",
    USER_PROMPT_SUBMIT: "a blocking reason",
    STOP_EVENT: "a continuation prompt",
    SUBAGENT_STOP: "a continuation prompt",
}
_NO_CONTINUE = (PRE_TOOL_USE, PERMISSION_REQUEST)
# Events whose plain (not JSON) stdout reaches the model as context, as additionalContext does.
PLAIN_IS_CONTEXT = (SESSION_START, USER_PROMPT_SUBMIT)  # continue/stopReason/suppressOutput refused
_JSON_NAMES = {
    PRE_TOOL_USE: "pre-tool-use",
    POST_TOOL_USE: "post-tool-use",
    PERMISSION_REQUEST: "permission-request",
    USER_PROMPT_SUBMIT: "user prompt submit",
    STOP_EVENT: "stop hook",
    SUBAGENT_STOP: "subagent stop hook",
}


@dataclass(frozen=True)
class CodexAnswer:
    action: str
    reason: str = ""  # the block reason, the deny message, or why the run failed
    system_message: str = ""
    context: str = ""  # hookSpecificOutput.additionalContext
    updated_input: JSONObject | None = None
    findings: tuple[Finding, ...] = ()
    asks: bool = False  # PreToolUse's permissionDecision "ask": Codex refuses it, a person may not


def failed(why: str, code: str) -> CodexAnswer:
    return CodexAnswer(ERROR, why, findings=(finding(code, why),))


def read_answer(event: str, run: CommandRun) -> CodexAnswer:
    extra = tuple(stdin_unread(run.unread_stdin)) if run.ignored_stdin else ()
    answer = _read(event, run)
    return CodexAnswer(**{**answer.__dict__, "findings": (*answer.findings, *extra)})


def _read(event: str, run: CommandRun) -> CodexAnswer:
    if run.timed_out:
        return failed(f"hook timed out after {round(run.duration_ms / 1000)}s", "codex-timeout")
    if run.spawn_error is not None or run.exit_code is None:
        return failed(run.spawn_error or "hook exited without a status code", "codex-not-started")
    if run.exit_code == 2 and event in EXIT_2_BLOCKS:
        reason = run.stderr.strip()
        if reason:
            return CodexAnswer(BLOCK, reason)
        why = f"{event} hook exited with code 2 but did not write {EXIT_2_BLOCKS[event]} to stderr"
        return failed(why, "codex-exit-2-silent")
    if run.exit_code != 0:
        return failed(f"hook exited with code {run.exit_code}", "codex-exit-code")
    text = run.stdout.strip()
    if not text:
        return CodexAnswer(CONTINUE)
    parsed = parse_stdout(text)
    if parsed is None:
        if text.startswith(("{", "[")):
            noise = tuple(stdout_noise(text, login_shell=False))
            why = f"hook returned invalid {_JSON_NAMES.get(event, event)} JSON output"
            return CodexAnswer(ERROR, why, findings=(finding("codex-invalid-json", why), *noise))
        if event in PLAIN_IS_CONTEXT:
            return CodexAnswer(CONTINUE, context=text)
        return CodexAnswer(CONTINUE, findings=(finding("codex-plain-stdout", text[:80]),))
    return _read_json(event, parsed)


def _read_json(event: str, answer: JSONObject) -> CodexAnswer:
    message = _text(answer.get("systemMessage"))
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    if specific and specific.get("hookEventName") != event:
        why = f"hook returned invalid {_JSON_NAMES.get(event, event)} JSON output"
        detail = f"{why}: hookSpecificOutput.hookEventName must be {event!r}"
        return CodexAnswer(ERROR, why, findings=(finding("codex-invalid-json", detail),))
    context = _text(specific.get("additionalContext"))
    if problem := _unsupported(event, answer, specific):
        found = (finding("codex-unsupported", problem),)
        if event == PRE_TOOL_USE and specific.get("permissionDecision") == "ask":
            # Codex's words stay in the finding; the hook's own are what a person is shown
            said = _text(specific.get("permissionDecisionReason")).strip() or problem
            return CodexAnswer(ERROR, said, message, findings=found, asks=True)
        return CodexAnswer(ERROR, problem, message, findings=found)
    if event == PRE_TOOL_USE:
        return _pre_tool_use(answer, specific, message, context)
    if event == PERMISSION_REQUEST:
        return _permission(specific, message)
    if answer.get("decision") == "block":
        return CodexAnswer(BLOCK, _text(answer.get("reason")).strip(), message, context)
    if answer.get("continue") is False:
        return CodexAnswer(STOP, _text(answer.get("stopReason")), message, context)
    return CodexAnswer(CONTINUE, "", message, context)


def _unsupported(event: str, answer: JSONObject, specific: JSONObject) -> str | None:
    """Codex's own words for an answer it refuses on `event`, or None."""
    said = f"{event} hook returned"
    if event in _NO_CONTINUE:
        if answer.get("continue") is False:
            return f"{said} unsupported continue:false"
        if answer.get("stopReason") is not None:
            return f"{said} unsupported stopReason"
        if answer.get("suppressOutput") is True:
            return f"{said} unsupported suppressOutput"
    if event == POST_TOOL_USE and answer.get("suppressOutput") is True:
        return f"{said} unsupported suppressOutput"
    blocks = answer.get("decision") == "block"
    if blocks and not _text(answer.get("reason")).strip() and event != PRE_TOOL_USE:
        return f"{said} decision:block without a non-empty reason"
    goes_on = answer.get("continue") is not False
    if event == POST_TOOL_USE and not blocks and goes_on and "reason" in answer:
        return f"{said} reason without decision"
    if event == PRE_TOOL_USE:
        return _pre_tool_use_unsupported(answer, specific)
    if event == PERMISSION_REQUEST:
        decision = specific.get("decision")
        decision = decision if isinstance(decision, dict) else {}
        for key in ("updatedInput", "updatedPermissions"):
            if key in decision:
                return f"{said} unsupported {key}"
        if decision.get("interrupt") is True:
            return f"{said} unsupported interrupt:true"
    return None


def _pre_tool_use_unsupported(answer: JSONObject, specific: JSONObject) -> str | None:
    said = "PreToolUse hook returned"
    decision = specific.get("permissionDecision")
    keys = ("permissionDecision", "permissionDecisionReason", "updatedInput")
    if any(key in specific for key in keys):
        if "updatedInput" in specific and decision != "allow":
            return f"{said} updatedInput without permissionDecision:allow"
        if decision == "allow" and "updatedInput" not in specific:
            return f"{said} unsupported permissionDecision:allow"
        if decision == "ask":
            return f"{said} unsupported permissionDecision:ask"
        if decision == "deny" and not _text(specific.get("permissionDecisionReason")).strip():
            return f"{said} permissionDecision:deny without a non-empty permissionDecisionReason"
        if decision is None:
            return f"{said} permissionDecisionReason without permissionDecision"
        return None
    legacy = answer.get("decision")
    if legacy == "approve":
        return f"{said} unsupported decision:approve"
    if legacy == "block" and not _text(answer.get("reason")).strip():
        return f"{said} decision:block without a non-empty reason"
    if legacy is None and "reason" in answer:
        return f"{said} reason without decision"
    return None


def _pre_tool_use(
    answer: JSONObject, specific: JSONObject, message: str, context: str
) -> CodexAnswer:
    decision = specific.get("permissionDecision")
    if decision == "deny":
        reason = _text(specific.get("permissionDecisionReason")).strip()
        return CodexAnswer(BLOCK, reason, message, context)
    if decision == "allow":
        updated = specific.get("updatedInput")
        return CodexAnswer(
            ALLOW, "", message, context, updated if isinstance(updated, dict) else None
        )
    if answer.get("decision") == "block":
        return CodexAnswer(BLOCK, _text(answer.get("reason")).strip(), message, context)
    return CodexAnswer(CONTINUE, "", message, context)


def _permission(specific: JSONObject, message: str) -> CodexAnswer:
    decision = specific.get("decision")
    if not isinstance(decision, dict):
        return CodexAnswer(CONTINUE, "", message)
    if decision.get("behavior") == "allow":
        return CodexAnswer(ALLOW, "", message)
    if decision.get("behavior") == "deny":
        said = _text(decision.get("message")).strip()
        return CodexAnswer(BLOCK, said or "PermissionRequest hook denied approval", message)
    return failed("hook returned invalid permission-request JSON output", "codex-invalid-json")


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
