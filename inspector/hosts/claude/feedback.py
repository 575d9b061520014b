"""The words Claude Code puts in front of the model for a hook's answer, as observed in `claude -p`
sessions (2.1.197, and 2.1.332 where its record in versions.py says it differs): a refused tool
call's tool_result, the system reminders after a tool, and the message that sends Claude on after
a blocked Stop. `[CMD]` is the hook's command line and an exit-2 hook's stderr is passed on as
written, newline and all."""

from __future__ import annotations

from inspector.hosts.claude.answer import BLOCK, DENY
from inspector.hosts.claude.events import PRE_TOOL_USE
from inspector.hosts.claude.outcome import EventOutcome, HookRun
from inspector.hosts.claude.versions import ClaudeVersion


def _exit_2_text(run: HookRun) -> str:
    return f"[{run.command}]: {run.exchange.stderr or ''}"


def _said(run: HookRun) -> str:
    """What one blocking run said: its stderr after exit 2, else its reason."""
    return _exit_2_text(run) if run.exchange.exit_code == 2 else run.answer.reason


def refused(outcome: EventOutcome, tool: str, version: ClaudeVersion) -> str:
    """The tool_result of a call PreToolUse refused (deny, exit 2, or ask in `-p`): the
    deciding hook's reason, or `PreToolUse:TOOL hook error: [CMD]: STDERR` after exit 2 (and
    `PreToolUse:TOOL hook error: REASON` after a deny, where `version` says so)."""
    winner = outcome.winner
    hook_error = f"{outcome.event}:{tool} hook error: "
    if winner is None:
        return outcome.reason
    if winner.exchange.exit_code == 2:
        return hook_error + _exit_2_text(winner)
    if winner.answer.action == DENY and version.deny_is_hook_error:
        return hook_error + outcome.reason
    return outcome.reason


def rewrite_refused(tool: str, schema_words: str, version: ClaudeVersion) -> str:
    """The tool_result of a call whose PreToolUse updatedInput failed the tool's schema."""
    told = f"{PRE_TOOL_USE} hook for {tool} returned updatedInput that failed schema validation: "
    return "\n".join(filter(None, (told + schema_words, version.rewrite_refused_note)))


def after_tool(outcome: EventOutcome, tool: str) -> list[str]:
    """The system reminders PostToolUse / PostToolUseFailure hooks add after the tool's result,
    in run order: each block, then each additionalContext."""
    told = [
        f'{outcome.event}:{tool} hook blocking error from command: "{run.command}": {_said(run)}'
        for run in outcome.runs
        if run.answer.action == BLOCK
    ]
    told += [
        f"{outcome.event}:{tool} hook additional context: {run.answer.context}"
        for run in outcome.runs
        if run.answer.context
    ]
    return told


def stop_blocked(outcome: EventOutcome, version: ClaudeVersion) -> str:
    """The user message that sends Claude on after a blocked Stop (in a <system-reminder> led
    by the version's words about hook output, where it has them)."""
    said = [_said(run) for run in outcome.runs if run.answer.action == BLOCK]
    feedback = "Stop hook feedback:\n" + "\n".join(said)
    if not version.hook_text_lead:
        return feedback
    return f"<system-reminder>\n{version.hook_text_lead}\n{feedback}\n</system-reminder>"
