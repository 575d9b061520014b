"""One event's outcome: the answers of the hooks that ran for it, combined as Claude Code
combines parallel hooks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.hooks.approvals import Resolution
from inspector.hosts.claude.answer import (
    ALLOW,
    ASK,
    BLOCK,
    CONTINUE,
    DEFER,
    DENY,
    ERROR,
    STOP,
    HookAnswer,
)
from inspector.hosts.claude.events import PRE_TOOL_USE
from inspector.journal.records import Exchange

JSONObject = dict[str, Any]

# deny > defer > ask > allow, with exit 2 counted as deny. This order comes from a third-party
# summary of Claude Code's hook reference, not from upstream docs.
_PERMISSION_RANK = {DENY: 4, BLOCK: 4, DEFER: 3, ASK: 2, ALLOW: 1}


@dataclass(frozen=True)
class HookRun:
    hook: str
    exchange: Exchange
    answer: HookAnswer
    command: str = ""  # the hook's command line, as Claude Code quotes it to the model
    finished: int = 0  # the order in which the event's runs ended (1 first)


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
    deciders: tuple[HookRun, ...] = ()  # the runs with the winning decision, in finishing order

    @property
    def blocked(self) -> bool:
        return self.verdict in (DENY, BLOCK, STOP)

    @property
    def winner(self) -> HookRun | None:
        """The decider whose reason and updatedInput Claude Code takes: the last to finish."""
        return self.deciders[-1] if self.deciders else None


def combine(
    event: str,
    payload: JSONObject,
    runs: tuple[HookRun, ...],
    duplicates: tuple[tuple[str, str], ...] = (),
) -> EventOutcome:
    deciders, verdict = _deciders(event, runs)
    deciders.sort(key=lambda run: run.finished)
    winner = deciders[-1] if deciders else None
    return EventOutcome(
        event=event,
        payload=payload,
        verdict=verdict,
        reason=winner.answer.reason if winner else "",
        by=tuple(run.hook for run in deciders),
        updated_input=_applied_update(event, verdict, deciders, runs),
        context=tuple(run.answer.context for run in runs if run.answer.context),
        messages=tuple(_messages(runs)),
        runs=runs,
        duplicates=duplicates,
        deciders=tuple(deciders),
    )


def _applied_update(
    event: str, verdict: str, deciders: list[HookRun], runs: tuple[HookRun, ...]
) -> JSONObject | None:
    """The updatedInput the tool gets: the last to finish among the hooks that allowed or asked,
    or, when no hook decided, among those that answered with updatedInput alone."""
    if event != PRE_TOOL_USE or verdict not in (ALLOW, ASK, CONTINUE):
        return None
    carriers = deciders if verdict != CONTINUE else sorted(runs, key=lambda run: run.finished)
    updates = [run.answer.updated_input for run in carriers if run.answer.updated_input]
    return updates[-1] if updates else None


def timing_decides(outcome: EventOutcome) -> str | None:
    """Why the outcome depends on which hook finished last, or None when it does not: two or
    more hooks took the winning decision with different reasons or updatedInputs."""
    answers = {(run.answer.reason, repr(run.answer.updated_input)) for run in outcome.deciders}
    if len(answers) < 2 or outcome.winner is None:
        return None
    names = ", ".join(run.hook for run in outcome.deciders)
    return (
        f"{names} all answered {outcome.verdict}: the reason and updatedInput are "
        f"{outcome.winner.hook}'s, the last to finish; in another run order another hook's win"
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
        elif outcome.verdict != CONTINUE and run.answer.action not in (ALLOW, ASK):
            why = f"it came with {run.answer.action}; {outcome.verdict} decided"
        else:
            winner = outcome.winner.hook if outcome.winner else "another hook"
            why = f"the updatedInput of {winner}, the last hook to finish, was applied"
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
