"""PicoClaw's finding codes: each one's usual severity, a title, and what PicoClaw does; and a
finding made from one. Besides its own lines and answers, the table holds the codes the intercept
gate and the relays raise, in PicoClaw's words (docs/findings.md lists them all)."""

from __future__ import annotations

from inspector.findings.codes import CodeInfo, coded
from inspector.findings.finding import Finding, Severity

_DISCARDS = (
    "Warns 'Hook returned unsupported action for stage', discards this hook's answer and goes "
    "on with the next hook."
)

CODES: dict[str, CodeInfo] = {
    # stdout lines (the first five are also jsonrpc.decode's codes)
    "stdout-not-json": CodeInfo(
        "warning",
        "stdout line is not JSON",
        "Logs 'Failed to decode process hook message' and skips the line.",
    ),
    "not-object": CodeInfo(
        "warning",
        "stdout line is JSON but not an object",
        "Fails to decode it, logs a warning and skips the line.",
    ),
    "bad-id": CodeInfo(
        "error",
        "id is not an unsigned integer",
        "Fails to decode the whole line (a string, float, exponent, negative, boolean or "
        "over-uint64 id; a leading zero is a syntax error), logs 'Failed to decode process hook "
        "message' and skips it; the call it answers times out.",
    ),
    "bad-error": CodeInfo(
        "error",
        "error is not {code, message}",
        "Fails to decode the whole line and skips it; the call it answers times out.",
    ),
    "no-id": CodeInfo(
        "warning",
        "line has no id (or id 0)",
        "Ignores the line without a log (id 0, null or none); if it was meant as an answer, "
        "the call times out.",
    ),
    "oversized-line": CodeInfo(
        "error",
        "stdout line over 1 MiB",
        "Stops reading this hook's stdout for good, without a log: every later call times out "
        "(interceptors skipped, approvals denied). The inspector keeps reading.",
    ),
    "unknown-id": CodeInfo(
        "warning",
        "answer to an id that was never sent",
        "Drops it silently; if it was meant as an answer, the call times out.",
    ),
    "late-answer": CodeInfo(
        "warning",
        "answer after its call timed out",
        "Drops it silently; the call had already failed open (interceptor) or closed (approval).",
    ),
    "duplicate-id": CodeInfo(
        "warning",
        "second answer to the same id",
        "Drops it silently; only the first answer counts.",
    ),
    "hook-initiated-request": CodeInfo(
        "warning",
        "hook sent a request or notification",
        "Accepts no RPC from hooks: ignores it, or, if its id happens to be pending, takes it as "
        "that call's answer with an empty result.",
    ),
    "invalid-utf8": CodeInfo(
        "warning",
        "answer has bytes that are not UTF-8",
        "Reads each byte that is not UTF-8 as U+FFFD and uses the answer.",
    ),
    # answers
    "rpc-error": CodeInfo(
        "warning",
        "hook answered with a JSON-RPC error",
        "Treats the call as failed, even beside a result: hello fails, an interceptor is "
        "skipped (fail open, 'Interceptor hook failed'), an approval denies (fail closed, "
        "'tool approval hook \"NAME\" failed').",
    ),
    "hello-not-object": CodeInfo(
        "error",
        "hello result is not an object",
        "Fails to decode it, so hello fails: every hook of that load is unmounted and the agent "
        "loop does not start.",
    ),
    "result-not-object": CodeInfo(
        "error",
        "result is not an object",
        "Fails to decode it: an interceptor is skipped (fail open), an approval is denied.",
    ),
    "wrong-type": CodeInfo(
        "error",
        "a result field has the wrong JSON type",
        "Go's decoder rejects the whole result: an interceptor is skipped (fail open), an "
        "approval is denied.",
    ),
    "unknown-action": CodeInfo(
        "error", "action is not a PicoClaw action (they are case-sensitive)", _DISCARDS
    ),
    "action-not-allowed": CodeInfo("warning", "action not allowed at this stage", _DISCARDS),
    "action-nested": CodeInfo(
        "error",
        "action is inside the replacement object, not at the top level",
        "Reads action only at the top level, so the answer counts as continue (and the object "
        "still replaces the original).",
    ),
    "flattened-envelope": CodeInfo(
        "error",
        "after_llm/after_tool answer is not the whole envelope",
        "Drops the flattened fields as unknown keys and goes on with the envelope it decoded: "
        "zero values (no tool, no result, empty meta) replace the whole object.",
    ),
    "call-missing-tool": CodeInfo(
        "error",
        "before_tool call has no tool",
        'Replaces the whole call: the tool name becomes "" and the call fails as tool not found.',
    ),
    "call-missing-arguments": CodeInfo(
        "warning",
        "before_tool call has no arguments",
        "Replaces the whole call: the tool runs with nil arguments.",
    ),
    "respond-without-result": CodeInfo(
        "warning",
        "respond without a result",
        "Keeps the hook's reason, warns 'Hook returned respond action but no HookResult "
        "provided' and runs approval and the tool with the call as it was before any hook "
        "changed it.",
    ),
    "approval-missing-approved": CodeInfo(
        "error",
        "approval answer has no approved field",
        'Treats it as a denial: only an explicit "approved": true approves.',
    ),
    "approved-not-bool": CodeInfo(
        "error",
        "approved is not true or false",
        "Fails to decode the answer, so the approval fails and the tool is denied.",
    ),
    "system-prompt-changed": CodeInfo(
        "warning",
        "before_llm changed a system message",
        "Logs 'Hook attempted to modify system prompt' and restores ALL original messages, so "
        "this hook's other message edits are lost too.",
    ),
    "tools-changed": CodeInfo(
        "warning",
        "before_llm changed the tool definitions",
        "Logs 'Hook attempted to modify tool definitions' and restores all original tools; "
        "injecting tools through before_llm no longer works.",
    ),
    "request-missing-model": CodeInfo(
        "warning",
        "before_llm request drops the model",
        "Replaces the whole request: the provider gets an empty model on the single-candidate "
        "path.",
    ),
    "request-missing-options": CodeInfo(
        "warning",
        "before_llm request drops the options",
        "Replaces the whole request: options become nil, so max_tokens, temperature and the rest "
        "are dropped.",
    ),
    "response-drops-tool-calls": CodeInfo(
        "warning",
        "after_llm response drops the tool calls",
        "Replaces the whole LLMResponse: the tool calls the model asked for are gone.",
    ),
    "continue-with-changes": CodeInfo(
        "info",
        "continue with a changed object",
        "Treats continue exactly like modify: the returned object is applied.",
    ),
    "unknown-key": CodeInfo(
        "info",
        "result has keys PicoClaw does not read",
        "Ignores them without a word (cf. issue #3258, a before_tool modify that did nothing).",
    ),
    "slow-answer": CodeInfo(
        "warning",
        "answer close to its timeout",
        "Gives up at the timeout: an interceptor is skipped, an approval is denied.",
    ),
    # runtime events (the pipeline emits these)
    "event-dropped": CodeInfo(
        "warning",
        "observer queue full: event not delivered",
        "Drops the newest event silently when its 64-event buffer is full; only counters "
        "record it.",
    ),
    "observer-failed": CodeInfo(
        "warning",
        "observer notification failed",
        "Logs a warning and goes on.",
    ),
    # intercept: what a held call's edit and drop will change
    "held-at-stage": CodeInfo(
        "info",
        "held at the agent's entry to a stage, before any hook",
        "Has no intercept: the call goes through the whole chain as the agent sent it.",
    ),
    "held-at-hook": CodeInfo(
        "info",
        "held on its way to one hook",
        "Has no intercept: the hook gets the request the chain built so far.",
    ),
    # bridge mode: a live agent behind `hook-inspector relay`
    "agent-deadline": CodeInfo(
        "warning",
        "the agent's deadline decided this call (held, cut short, or answered with the fallback)",
        "Gives the relay one deadline for the whole chain behind it; at that deadline it skips "
        "the relay (interceptors) or denies with 'tool approval hook \"RELAY\" timed out'. The "
        "inspector answers just before, in the same words.",
    ),
    "kinder-than-picoclaw": CodeInfo(
        "warning",
        "the agent's answer owes something to the inspector being kinder than PicoClaw",
        "Would not have read past a line over 1 MiB or restarted a crashed hook: that hook's "
        "calls time out or fail (interceptors skipped, approvals denied).",
    ),
    "inspector-stopped": CodeInfo(
        "warning",
        "the inspector stopped while the call was pending; the fallback answer went out",
        "Would have seen a dead hook: interceptors skipped, approvals denied.",
    ),
    "relay-no-hooks": CodeInfo(
        "warning",
        "a command relay's event reached an inspector with no hooks of that host",
        "Claude Code and j-cli go on as if the hook were absent.",
    ),
    "relay-not-json": CodeInfo(
        "warning",
        "a line from the agent that is not JSON",
        "Never writes such a line; something else is writing to the hook's stdin.",
    ),
    "relay-not-a-request": CodeInfo(
        "warning",
        "a line from the agent that is neither a request nor a notification",
        "Only sends requests and hook.runtime_event notifications.",
    ),
    "relay-unknown-notification": CodeInfo(
        "info",
        "a notification other than hook.runtime_event",
        "Sends only hook.runtime_event (hook.event was removed upstream).",
    ),
    "answer-too-long": CodeInfo(
        "error",
        "the chain's answer to the agent would be a line over 1 MiB; the fallback went out",
        "Its reader stops for good at a line over 1 MiB: every later call to the relay would "
        "time out (interceptors skipped, approvals denied).",
    ),
    "relay-line-too-long": CodeInfo(
        "warning",
        "a request line too long for the relay to pass on; it answered with the fallback",
        "Sends lines of any size; its own reader stops at 1 MiB only on the hook's side.",
    ),
}


def finding(
    code: str, message: str, *, severity: Severity | None = None, host_does: str | None = None
) -> Finding:
    """A finding of `code`, with its usual severity and what PicoClaw does unless given."""
    return coded(CODES, code, message, severity=severity, host_does=host_does)
