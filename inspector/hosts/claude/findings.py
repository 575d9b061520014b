"""Findings for Claude Code command hooks: where Claude Code reads a hook's run differently from
what its author most likely meant. Findings any command host shares (text around the JSON, stdin
never read) come from command_findings; the `picoclaw` field holds what Claude Code does."""

from __future__ import annotations

import json
import re
from typing import Any, Protocol

from inspector.findings.codes import CodeInfo
from inspector.findings.command import stdin_unread, stdout_noise
from inspector.findings.finding import Finding
from inspector.hosts.claude.events import (
    DECISION_BLOCK_EVENTS,
    EXIT_2_REACHES_CLAUDE,
    PERMISSION_DECISIONS,
    POST_TOOL_USE,
    POST_TOOL_USE_FAILURE,
    PRE_TOOL_USE,
    STDOUT_IS_CONTEXT,
    STOP,
    SUBAGENT_STOP,
)

JSONObject = dict[str, Any]


class Run(Protocol):
    """What a command run left behind (hooks.run_command.CommandRun has this shape)."""

    @property
    def stdout(self) -> str: ...
    @property
    def stderr(self) -> str: ...
    @property
    def exit_code(self) -> int | None: ...
    @property
    def timed_out(self) -> bool: ...
    @property
    def duration_ms(self) -> float: ...
    @property
    def unread_stdin(self) -> int: ...
    @property
    def ignored_stdin(self) -> bool: ...


_GOES_ON = "A non-blocking error: Claude Code shows stderr to the user and goes on."

CODES: dict[str, CodeInfo] = {
    # runs and answers
    "claude-exit-1-meant-2": CodeInfo(
        "error",
        "a refusal with an exit code that does not block",
        "Only exit 2 blocks. " + _GOES_ON + " What the hook refused happens anyway.",
    ),
    "claude-command-not-found": CodeInfo(
        "error",
        "the command or script was not found (exit 127)",
        _GOES_ON + " The hook silently does nothing, every time.",
    ),
    "claude-not-executable": CodeInfo(
        "error",
        "the script is not executable (exit 126)",
        _GOES_ON + " The hook silently does nothing, every time.",
    ),
    "claude-timeout": CodeInfo(
        "warning",
        "the hook ran out of time",
        "Kills it and goes on as after a non-blocking error: a guard that times out lets the "
        "action through.",
    ),
    "claude-json-ignored": CodeInfo(
        "error",
        "JSON on stdout with a non-zero exit",
        "Reads stdout's JSON on exit 0 only: on exit 2 it sends stderr to Claude, on any other "
        "code it shows stderr to the user.",
    ),
    "claude-no-reason": CodeInfo(
        "warning",
        "blocked without a reason",
        "Blocks all the same, but Claude gets no explanation to act on.",
    ),
    "claude-exit-2-not-blocking": CodeInfo(
        "warning", "exit 2 blocks nothing on this event", "Shows stderr to the user only."
    ),
    "claude-stdout-not-json": CodeInfo(
        "warning",
        "plain text on stdout where JSON is read",
        "Does not read plain stdout on this event (only transcript mode shows it): no "
        "decision is taken.",
    ),
    "claude-not-object": CodeInfo(
        "error", "stdout is JSON but not an object", "Cannot read any field from it."
    ),
    "claude-wrong-type": CodeInfo(
        "error", "a field has the wrong type", "Does not read the field as meant."
    ),
    "claude-misplaced-key": CodeInfo(
        "error",
        "a hookSpecificOutput field at the top level",
        "Reads it only inside hookSpecificOutput: at the top level it is ignored.",
    ),
    "claude-unknown-key": CodeInfo("warning", "a key Claude Code does not read", "Ignores it."),
    "claude-event-name": CodeInfo(
        "error",
        "hookSpecificOutput.hookEventName is missing or names another event",
        "Fails the answer's validation and ignores all of it (decision, reason, updatedInput, "
        "continue) as a non-blocking error: the tool runs if otherwise permitted.",
    ),
    "claude-unknown-decision": CodeInfo(
        "error",
        "permissionDecision is not allow, deny, ask or defer",
        "Takes no decision from it: the normal permission flow applies.",
    ),
    "claude-decision-ignored": CodeInfo(
        "warning", "a decision this event does not read", "Ignores it."
    ),
    "claude-deprecated-decision": CodeInfo(
        "info",
        'the deprecated top-level decision "approve" / "block"',
        "Still reads approve as allow and block as deny; hookSpecificOutput.permissionDecision "
        "replaces it.",
    ),
    "claude-updated-input-ignored": CodeInfo(
        "warning",
        "updatedInput not applied",
        "Applies the updatedInput of the last hook to finish among those whose decision won "
        "(with no decision, among those that gave updatedInput alone); the others are dropped.",
    ),
    "claude-last-to-finish": CodeInfo(
        "warning",
        "the outcome depends on which hook finishes last",
        "Takes the reason and updatedInput of the last hook to finish among those with the "
        "winning decision: with hooks that answer differently, timing picks the answer.",
    ),
    "claude-ask-unattended": CodeInfo(
        "warning",
        "ask where nobody can answer (claude -p, a headless run, serve)",
        "Reads ask in -p as a deny and sends the permissionDecisionReason to Claude as the "
        "tool's result; the interactive CLI opens its own dialog, which waits with no timeout.",
    ),
    "claude-stop-loop": CodeInfo(
        "warning",
        "Stop blocked although stop_hook_active was true",
        "Lets Claude go on and fires Stop again: a hook that does not check stop_hook_active "
        "keeps Claude going until 8 blocks in a row, then the turn ends anyway.",
    ),
    # http handlers
    "claude-http-status": CodeInfo(
        "error",
        "the HTTP hook answered with a status other than 2xx",
        "Reads only a 2xx answer (it follows no redirect): any other status is a non-blocking "
        "error shown to the user, the body is not read, and the action goes ahead unless the "
        "handler's onFailure is block.",
    ),
    "claude-http-not-json": CodeInfo(
        "error",
        "a 2xx answer whose body is not a JSON object",
        "Takes an empty body as {} and a JSON object as a command's stdout JSON; anything else "
        "is a non-blocking error (plain text is never context, as a command's stdout can be).",
    ),
    "claude-http-failed": CodeInfo(
        "error",
        "the request failed (no connection, or it was cut)",
        "A non-blocking error: the action goes ahead unless the handler's onFailure is block.",
    ),
    # the settings files
    "claude-handler-not-run": CodeInfo(
        "warning",
        "a handler host mode cannot run",
        "Runs prompt and agent handlers with a model and mcp_tool handlers through an MCP "
        "server; host mode has neither, so it lists them with what Claude Code would do, and "
        "`check` counts them as not checked.",
    ),
    "claude-not-emulated": CodeInfo(
        "warning",
        "a handler option the inspector does not emulate",
        "Honours it (if: a permission-rule filter, async: runs in the background, shell "
        "powershell, args: no shell at all); the inspector runs the hook as if it were not "
        "there.",
    ),
    "claude-unknown-setting": CodeInfo(
        "warning", "a key Claude Code does not read in a hook entry", "Ignores it."
    ),
    "claude-matcher-ignored": CodeInfo(
        "warning",
        "a matcher on an event the inspector does not filter",
        "Uses no matcher on these events (FileChanged matches the file's base name); the "
        "inspector runs the hooks on every occurrence.",
    ),
    "claude-unknown-event": CodeInfo(
        "warning",
        "a hook event name Claude Code does not know",
        "Loads the rest of the file and never fires the event: its hooks never run.",
    ),
    "claude-hooks-disabled": CodeInfo(
        "warning", "disableAllHooks is true", "Runs none of the hooks of these settings files."
    ),
}

_TOP_KEYS = frozenset(
    {"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason"}
    | {"hookSpecificOutput"}
)
_SPECIFIC_KEYS = frozenset(
    {"hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput"}
    | {"additionalContext", "updatedMCPToolOutput"}
)
_TYPES: dict[str, tuple[type, str]] = {
    "continue": (bool, "true or false"),
    "suppressOutput": (bool, "true or false"),
    "stopReason": (str, "a string"),
    "systemMessage": (str, "a string"),
    "reason": (str, "a string"),
    "decision": (str, "a string"),
    "hookSpecificOutput": (dict, "an object"),
    "hookEventName": (str, "a string"),
    "permissionDecision": (str, "a string"),
    "permissionDecisionReason": (str, "a string"),
    "updatedInput": (dict, "an object"),
    "additionalContext": (str, "a string"),
}
_AFTER_TOOL = frozenset({POST_TOOL_USE, POST_TOOL_USE_FAILURE})
_REFUSAL = re.compile(
    # "Permission denied" is how a failing command says it, not how a guard refuses
    r"\b(block(ed|ing)?|(?<!permission )den(y|ied)|refus(e|ed|ing)|reject(ed)?|forbidden|"
    r"not allowed|disallowed|prohibited|dangerous|unsafe|abort(ed|ing)?)\b|⛔|🚫|❌",
    re.IGNORECASE,
)


def finding(code: str, message: str) -> Finding:
    info = CODES[code]
    return Finding(code, info.severity, message, info.host)


# ---- the run: exit code, time, stdin and stdout ----------------------------------------------


def run_findings(event: str, payload: JSONObject, run: Run) -> list[Finding]:
    """What the exit code, the timing and the raw output of a run with `payload` on stdin
    say, before any field is read."""
    found: list[Finding] = []
    if run.ignored_stdin:
        found += stdin_unread(run.unread_stdin)
    if run.timed_out:
        found.append(finding("claude-timeout", f"killed after {run.duration_ms / 1000:.1f} s"))
    elif run.exit_code == 127:
        found.append(finding("claude-command-not-found", _first_line(run.stderr) or "exit 127"))
    elif run.exit_code == 126:
        found.append(finding("claude-not-executable", _first_line(run.stderr) or "exit 126"))
    elif run.exit_code not in (None, 0, 2) and event in EXIT_2_REACHES_CLAUDE:
        said = run.stderr.strip() or run.stdout.strip()
        if _REFUSAL.search(said):
            effect = "shown it to Claude" if event in _AFTER_TOOL else "blocked"
            message = f"exit {run.exit_code} with {_first_line(said)!r}: exit 2 would have {effect}"
            found.append(finding("claude-exit-1-meant-2", message))
    if run.exit_code == 2:
        found += _exit_2(event, payload, run)
    if run.exit_code not in (None, 0) and _json_object(run.stdout) is not None:
        message = f"exit {run.exit_code}: the JSON on stdout is not read"
        found.append(finding("claude-json-ignored", message))
    if run.exit_code == 0:
        found += _plain_stdout(event, run.stdout)
    return found


def _exit_2(event: str, payload: JSONObject, run: Run) -> list[Finding]:
    if event not in EXIT_2_REACHES_CLAUDE:
        return [finding("claude-exit-2-not-blocking", f"{event} only shows stderr to the user")]
    found = []
    if not run.stderr.strip():
        found.append(finding("claude-no-reason", "exit 2 with nothing on stderr"))
    if _stopping_again(event, payload):
        found.append(finding("claude-stop-loop", "exit 2 while stop_hook_active was true"))
    return found


def _plain_stdout(event: str, stdout: str) -> list[Finding]:
    text = stdout.strip()
    if not text:
        return []
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        noise = stdout_noise(stdout, login_shell=False)
        if noise or event in STDOUT_IS_CONTEXT:
            return noise
        return [finding("claude-stdout-not-json", f"{event} stdout: {_first_line(text)!r}")]
    if not isinstance(value, dict):
        return [finding("claude-not-object", f"stdout is {type(value).__name__} JSON")]
    return []


# ---- the answer: fields of the JSON object ---------------------------------------------------


def output_findings(event: str, output: JSONObject, payload: JSONObject) -> list[Finding]:
    """Problems with the fields of an exit-0 JSON answer to `event` (sent `payload`)."""
    found = _typed(output, "", _TOP_KEYS)
    specific = output.get("hookSpecificOutput")
    if isinstance(specific, dict):
        found += _typed(specific, "hookSpecificOutput.", _SPECIFIC_KEYS)
        found += _event_name(event, specific)
        found += _permission_decision(event, specific)
    found += _top_decision(event, output)
    if output.get("decision") == "block" and _stopping_again(event, payload):
        found.append(finding("claude-stop-loop", "check stop_hook_active before blocking"))
    return found


def _typed(obj: JSONObject, prefix: str, known: frozenset[str]) -> list[Finding]:
    found = []
    for key, value in obj.items():
        if key in _TYPES and key in known:
            expected, words = _TYPES[key]
            if not isinstance(value, expected):
                message = f"{prefix}{key} must be {words}, got {json.dumps(value)[:60]}"
                found.append(finding("claude-wrong-type", message))
        elif not prefix and key in _SPECIFIC_KEYS:
            found.append(finding("claude-misplaced-key", f"{key} belongs in hookSpecificOutput"))
        elif key not in known:
            found.append(finding("claude-unknown-key", f"{prefix}{key} is not read"))
    return found


def _event_name(event: str, specific: JSONObject) -> list[Finding]:
    name = specific.get("hookEventName")
    if name == event:
        return []
    message = "missing" if name is None else f"{json.dumps(name)} in a {event} hook"
    return [finding("claude-event-name", f"hookEventName {message}: the whole answer is ignored")]


def _permission_decision(event: str, specific: JSONObject) -> list[Finding]:
    decision = specific.get("permissionDecision")
    if decision is None:
        return []
    if event != PRE_TOOL_USE:
        return [finding("claude-decision-ignored", f"permissionDecision in a {event} hook")]
    if decision not in PERMISSION_DECISIONS:
        return [finding("claude-unknown-decision", f"permissionDecision {json.dumps(decision)}")]
    if decision == "deny" and not _text(specific.get("permissionDecisionReason")):
        return [finding("claude-no-reason", "deny without a permissionDecisionReason")]
    return []


def _top_decision(event: str, output: JSONObject) -> list[Finding]:
    decision = output.get("decision")
    if decision is None:
        return []
    if event == PRE_TOOL_USE and decision in ("approve", "block"):
        return [finding("claude-deprecated-decision", f'decision "{decision}"')]
    if event not in DECISION_BLOCK_EVENTS:
        return [finding("claude-decision-ignored", f"decision in a {event} hook")]
    if decision != "block":
        message = f'decision {json.dumps(decision)}: only "block" means something here'
        return [finding("claude-decision-ignored", message)]
    if not _text(output.get("reason")):
        return [finding("claude-no-reason", 'decision "block" without a reason')]
    return []


def _stopping_again(event: str, payload: JSONObject) -> bool:
    return event in (STOP, SUBAGENT_STOP) and payload.get("stop_hook_active") is True


# ---- across hooks ----------------------------------------------------------------------------


def updated_input_ignored(why: str) -> Finding:
    return finding("claude-updated-input-ignored", why)


def last_to_finish(why: str) -> Finding:
    return finding("claude-last-to-finish", why)


def ask_denied_unattended() -> Finding:
    return finding(
        "claude-ask-unattended",
        "ask with nobody to answer: denied, and the permissionDecisionReason reaches Claude",
    )


def ask_left_to_agent(agent: str) -> Finding:
    return finding(
        "claude-ask-unattended",
        f"ask with nobody at the inspector: passed on to {agent}, whose own dialog asks (in -p"
        " a deny whose permissionDecisionReason reaches Claude)",
    )


def _json_object(text: str) -> JSONObject | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _first_line(text: str) -> str:
    stripped = text.strip()
    line = stripped.splitlines()[0] if stripped else ""
    return line if len(line) <= 80 else line[:77] + "..."


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
