"""What one event's hooks came to, by Codex's rules (codex-cli 0.171.0, hooks/src/events/*.rs):
every matching hook runs, in parallel; the event is blocked when any run blocks, and the reason
is the first blocking run's in config order (not the first to finish); an updatedInput is taken
only when nothing blocked, from the run that finished last. A continue: false stops the turn;
PermissionRequest: a deny outranks an allow."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.hosts.codex.answer import ALLOW, BLOCK, CONTINUE, STOP, CodexAnswer
from inspector.journal.records import Exchange

JSONObject = dict[str, Any]


@dataclass(frozen=True)
class HookRun:
    hook: str
    exchange: Exchange
    answer: CodexAnswer
    finished: int  # 1 for the first run of the event to finish, 2 for the next...
    run_id: str = ""  # Codex's name for it: event_label:display_order:source file


@dataclass(frozen=True)
class CodexOutcome:
    event: str
    payload: JSONObject
    runs: tuple[HookRun, ...] = ()
    verdict: str = CONTINUE
    reason: str = ""
    by: tuple[str, ...] = ()
    updated_input: JSONObject | None = None
    context: list[str] = field(default_factory=list)  # additionalContext, in config order
    system_messages: list[str] = field(default_factory=list)

    @property
    def blocked(self) -> bool:
        return self.verdict == BLOCK


def combine(event: str, payload: JSONObject, runs: tuple[HookRun, ...]) -> CodexOutcome:
    context = [run.answer.context for run in runs if run.answer.context]
    messages = [run.answer.system_message for run in runs if run.answer.system_message]
    base = CodexOutcome(event, payload, runs, context=context, system_messages=messages)
    for verdict in (BLOCK, STOP):
        deciders = [run for run in runs if run.answer.action == verdict]
        if deciders:
            by = tuple(run.hook for run in deciders)
            return _with(base, verdict, deciders[0].answer.reason, by)
    allowing = [run for run in runs if run.answer.action == ALLOW]
    if not allowing:
        return base
    last = max(allowing, key=lambda run: run.finished)
    return _with(base, ALLOW, "", (last.hook,), last.answer.updated_input)


def _with(
    base: CodexOutcome,
    verdict: str,
    reason: str,
    by: tuple[str, ...],
    updated_input: JSONObject | None = None,
) -> CodexOutcome:
    return CodexOutcome(
        base.event,
        base.payload,
        base.runs,
        verdict,
        reason,
        by,
        updated_input,
        base.context,
        base.system_messages,
    )
