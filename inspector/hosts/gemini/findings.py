"""Findings for Gemini CLI command hooks: where Gemini CLI 0.61.0 reads a hook's run or its
settings differently from what the author most likely meant. Findings any command host shares
(text around the JSON, stdin never read) come from inspector.findings.command."""

from __future__ import annotations

from inspector.findings.codes import CodeInfo, coded
from inspector.findings.command import stdin_unread
from inspector.findings.finding import Finding
from inspector.hosts.gemini.answer import Answer, JSONObject, Run
from inspector.hosts.gemini.events import AFTER_MODEL, BEFORE_MODEL, DECIDING

_GOES_ON = "Counts the hook as failed (a warning for the user) and goes on."

CODES: dict[str, CodeInfo] = {
    # runs and answers
    "gemini-exit-1-meant-2": CodeInfo(
        "error",
        "a refusal with exit 1",
        "Reads exit 1's text as a warning for the user (decision allow): what the hook refused "
        "happens anyway. Exit 2 (or JSON with decision deny) blocks.",
    ),
    "gemini-silent-exit-2": CodeInfo(
        "error",
        "exit 2 with nothing on stdout or stderr",
        "Only text blocks: with none there is no answer, and " + _GOES_ON.lower(),
    ),
    "gemini-exit-code-ignored": CodeInfo(
        "warning",
        "JSON on stdout with a non-zero exit",
        "Reads the JSON whatever the exit code: the exit code blocks nothing, the JSON decides. "
        + _GOES_ON,
    ),
    "gemini-timeout": CodeInfo(
        "warning",
        "the hook ran out of time",
        "Kills it (SIGTERM, SIGKILL 5 s later) and goes on without its answer: a guard that "
        "times out lets the action through.",
    ),
    "gemini-not-started": CodeInfo(
        "error", "the command could not be started", _GOES_ON + " The hook does nothing."
    ),
    "gemini-decision-ignored": CodeInfo(
        "warning",
        "a decision on an event that takes none",
        "Advisory events (SessionStart, SessionEnd, Notification, PreCompress) only show the "
        "systemMessage, and BeforeToolSelection reads only its toolConfig: decision and "
        "continue are ignored.",
    ),
    "gemini-llm-response-malformed": CodeInfo(
        "error",
        "an llm_response Gemini CLI cannot convert",
        "Converts a model event's llm_response with fromHookLLMResponse, which calls "
        "candidates.map and each candidate's content.parts.map (parts: a list of strings): "
        "anything else throws a TypeError there instead of giving the answer. hook-inspector "
        "ignores what it cannot read.",
    ),
    # settings
    "gemini-unknown-event": CodeInfo(
        "error",
        "an event Gemini CLI does not know",
        'Warns "Invalid hook event name" and skips every hook on it.',
    ),
    "gemini-unknown-setting": CodeInfo("warning", "a key Gemini CLI does not read", "Ignores it."),
    "gemini-hook-discarded": CodeInfo(
        "error",
        "a hook Gemini CLI discards",
        "Drops a hook whose type is not command or whose command is empty, with a debug log "
        "line only.",
    ),
    "gemini-hooks-disabled": CodeInfo(
        "warning", "hooks switched off", "Runs none of them (hooksConfig.enabled: false)."
    ),
    "gemini-matcher-ignored": CodeInfo(
        "warning", "a matcher on an event that has none", "Runs the group for every call."
    ),
}


def finding(code: str, message: str) -> Finding:
    return coded(CODES, code, message)


def run_findings(event: str, run: Run, answer: Answer) -> list[Finding]:
    """What a run with this exit code and output comes to, where that is likely not meant."""
    found: list[Finding] = []
    if run.ignored_stdin:
        found += stdin_unread(run.unread_stdin)
    if run.spawn_error:
        return [*found, finding("gemini-not-started", run.spawn_error)]
    if run.timed_out:
        return [*found, finding("gemini-timeout", f"killed after {run.duration_ms / 1000:.1f} s")]
    output = answer.output or {}
    if run.exit_code == 1 and answer.form == "text" and event in DECIDING:
        found.append(finding("gemini-exit-1-meant-2", f"exit 1: {run.stderr.strip()[:120]!r}"))
    if run.exit_code == 2 and answer.output is None:
        found.append(finding("gemini-silent-exit-2", "exit 2, and stdout and stderr are empty"))
    if run.exit_code not in (0, None) and answer.form == "json":
        message = f"exit {run.exit_code} with JSON on stdout: the JSON is the answer"
        found.append(finding("gemini-exit-code-ignored", message))
    if event in (BEFORE_MODEL, AFTER_MODEL) and (problem := _llm_response_problem(output)):
        found.append(finding("gemini-llm-response-malformed", problem))
    if event not in DECIDING and answer.form == "json":
        ignored = [key for key in ("decision", "continue") if key in output]
        if ignored:
            message = f"{', '.join(ignored)} on {event}: never read"
            found.append(finding("gemini-decision-ignored", message))
    return found


def _llm_response_problem(output: JSONObject) -> str:
    """What in the answer's llm_response fromHookLLMResponse cannot convert ("" for nothing)."""
    specific = output.get("hookSpecificOutput")
    response = specific.get("llm_response") if isinstance(specific, dict) else None
    if not response:  # Gemini CLI skips a falsy one
        return ""
    candidates = response.get("candidates") if isinstance(response, dict) else None
    if not isinstance(candidates, list):
        return "llm_response.candidates is not a list"
    for index, candidate in enumerate(candidates):
        content = candidate.get("content") if isinstance(candidate, dict) else None
        if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
            return f"llm_response.candidates[{index}].content.parts is not a list"
    return ""
