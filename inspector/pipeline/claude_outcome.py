"""One event's outcome: the answers of the hooks that ran for it, combined as Claude Code
combines parallel hooks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.hooks.approvals import Resolution
from inspector.journal.records import Exchange
from inspector.pipeline.claude_answer import (
    ALLOW,
    ASK,
    BLOCK,
    CONTINUE,
    DEFER,
    DENY,
    ERROR,
    STOP,
    Answer,
)
from inspector.protocol.claude_events import PRE_TOOL_USE

JSONObject = dict[str, Any]

# deny > defer > ask > allow, with exit 2 counted as deny. This order comes from a third-party
# summary of Claude Code's hook reference, not from upstream docs.
_PERMISSION_RANK = {DENY: 4, BLOCK: 4, DEFER: 3, ASK: 2, ALLOW: 1}


@dataclass(frozen=True)
class HookRun:
    hook: str
    exchange: Exchange
    answer: Answer


@dataclass(frozen=True)
class EventOutcome:
    """What the event's hooks decided. `verdict`: continue (nobody decided), allow, deny, ask
    (before the human answers), defer (PreToolUse); block (the prompt, the stop, or feedback
    after a tool); stop (continue: false, which wins over everything)."""

    event: str
    payload: JSONObject  # what the hooks got on stdin
    verdict: str = CONTINUE
    reason: str = ""  # deny, block: what Claude is told; stop: what the user is shown
    by: tuple[str, ...] = ()  # the hooks that decided, or the human's "human", "timeout", ...
    updated_input: JSONObject | None = None  # PreToolUse: what the tool gets instead
    context: tuple[str, ...] = ()  # added to Claude's context
    messages: tuple[str, ...] = ()  # shown to the user: systemMessage, non-blocking errors
    runs: tuple[HookRun, ...] = ()  # in config order
    duplicates: tuple[tuple[str, str], ...] = ()  # (hook not run, hook whose run it shares)
    resolution: Resolution | None = None  # the human's answer to an ask

    @property
    def blocked(self) -> bool:
        return self.verdict in (DENY, BLOCK, STOP)


def combine(
    event: str,
    payload: JSONObject,
    runs: tuple[HookRun, ...],
    duplicates: tuple[tuple[str, str], ...] = (),
) -> EventOutcome:
    deciders, verdict = _deciders(event, runs)
    reasons = [run.answer.reason for run in deciders if run.answer.reason]
    updated = next(
        (
            run.answer.updated_input
            for run in deciders
            if run.answer.action in (ALLOW, ASK) and run.answer.updated_input is not None
        ),
        None,
    )
    return EventOutcome(
        event=event,
        payload=payload,
        verdict=verdict,
        reason="\n".join(reasons),
        by=tuple(run.hook for run in deciders),
        updated_input=updated,
        context=tuple(run.answer.context for run in runs if run.answer.context),
        messages=tuple(_messages(runs)),
        runs=runs,
        duplicates=duplicates,
    )


def ignored_updates(outcome: EventOutcome) -> list[tuple[HookRun, str]]:
    """The runs whose updatedInput the tool does not get, and why."""
    ignored = []
    for run in outcome.runs:
        update = run.answer.updated_input
        if update is None or update is outcome.updated_input:
            continue
        if outcome.verdict in (DENY, STOP, DEFER):
            why = f"the call ended in {outcome.verdict}"
        elif run.answer.action not in (ALLOW, ASK):
            why = f"it came with {run.answer.action}; only allow and ask apply it"
        else:
            why = f"{', '.join(outcome.by)} decided; the first one's updatedInput was applied"
        ignored.append((run, why))
    return ignored


def _deciders(event: str, runs: tuple[HookRun, ...]) -> tuple[list[HookRun], str]:
    stoppers = [run for run in runs if run.answer.action == STOP]
    if stoppers:
        return stoppers, STOP
    if event == PRE_TOOL_USE:
        top = max((_PERMISSION_RANK.get(run.answer.action, 0) for run in runs), default=0)
        if top == 0:
            return [], CONTINUE
        deciders = [run for run in runs if _PERMISSION_RANK.get(run.answer.action) == top]
        action = deciders[0].answer.action
        return deciders, DENY if action == BLOCK else action
    blockers = [run for run in runs if run.answer.action == BLOCK]
    return blockers, BLOCK if blockers else CONTINUE


def _messages(runs: tuple[HookRun, ...]) -> list[str]:
    messages = [run.answer.system_message for run in runs if run.answer.system_message]
    for run in runs:
        if run.answer.action == ERROR:
            messages.append(f"{run.hook}: {run.answer.reason}")
    return messages
