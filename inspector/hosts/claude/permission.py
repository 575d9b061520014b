"""PermissionRequest: Claude Code's permission dialog, which a hook answers with
`hookSpecificOutput.decision: {behavior: "allow" | "deny", message, updatedInput}`. The inspector's
own Claude Code turns never open that dialog, so its rules do not read those answers; for a
relayed PermissionRequest the bridge reads what the config's hooks said: a deny wins, with its
message; else an allow, with its updatedInput."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from inspector.hosts.claude.answer import ALLOW, CONTINUE, DENY
from inspector.hosts.claude.events import PERMISSION_REQUEST
from inspector.hosts.claude.outcome import EventOutcome, HookRun

BEHAVIOURS = (DENY, ALLOW)  # in order of precedence


def permission_outcome(outcome: EventOutcome) -> EventOutcome:
    """`outcome` with the hooks' dialog answers applied, when it is an undecided
    PermissionRequest; otherwise `outcome` itself."""
    if outcome.event != PERMISSION_REQUEST or outcome.verdict != CONTINUE:
        return outcome
    answers = [(run, decision) for run in outcome.runs if (decision := _decision(run))]
    for behaviour in BEHAVIOURS:
        deciders = [(run, answer) for run, answer in answers if answer["behavior"] == behaviour]
        if not deciders:
            continue
        messages = [decision.get("message") for _, decision in deciders]
        updated = next(
            (d["updatedInput"] for _, d in deciders if isinstance(d.get("updatedInput"), dict)),
            None,
        )
        return replace(
            outcome,
            verdict=behaviour,
            reason="\n".join(text for text in messages if isinstance(text, str) and text),
            by=tuple(run.hook for run, _ in deciders),
            updated_input=updated if behaviour == ALLOW else None,
        )
    return outcome


def _decision(run: HookRun) -> dict[str, Any] | None:
    if run.exchange.exit_code != 0 or not isinstance(run.exchange.response, dict):
        return None
    specific = run.exchange.response.get("hookSpecificOutput")
    if not isinstance(specific, dict) or specific.get("hookEventName") != PERMISSION_REQUEST:
        return None
    decision = specific.get("decision")
    if isinstance(decision, dict) and decision.get("behavior") in BEHAVIOURS:
        return decision
    return None
