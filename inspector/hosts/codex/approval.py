"""A person answers for a live Codex, in the answers Codex accepts.

A relayed PermissionRequest that none of the inspector's hooks decided asks the person: allowed,
Codex gets decision.behavior allow (the command runs, outside the sandbox if that is what was
asked); denied, behavior deny with the person's reason; left to Codex, no decision, and Codex
goes on as it would without the hook (its own review or prompt). A relayed PreToolUse asks the
person when one of the inspector's hooks answered permissionDecision "ask": Codex itself refuses
that answer (it fails open), so through the inspector it means "ask me": denied, Codex gets a
deny with the reason; allowed, no decision (Codex takes no allow without an updatedInput).
Nobody at the inspector (serve, a headless run): nobody is asked."""

from __future__ import annotations

from dataclasses import replace

from inspector.hooks.approvals import ASK_AGENT, Approvals, EarlierAnswer
from inspector.hosts.codex import LABEL
from inspector.hosts.codex.answer import ALLOW, BLOCK, CONTINUE
from inspector.hosts.codex.events import PERMISSION_REQUEST, PRE_TOOL_USE
from inspector.hosts.codex.outcome import CodexOutcome
from inspector.hosts.command_approval import ask_the_person


def asks_person(outcome: CodexOutcome, approvals: Approvals) -> bool:
    """Whether a live `outcome` waits for the person."""
    if approvals.unattended or outcome.verdict != CONTINUE:
        return False
    if outcome.event == PERMISSION_REQUEST:
        return True
    return outcome.event == PRE_TOOL_USE and any(run.answer.asks for run in outcome.runs)


async def ask_person(
    outcome: CodexOutcome,
    approvals: Approvals,
    *,
    timeout_ms: int,
    turn: str | None,
    ask_by: float | None,
) -> CodexOutcome:
    payload = outcome.payload
    tool = payload.get("tool_name")
    resolution = await ask_the_person(
        approvals,
        event=outcome.event,
        payload=payload,
        askers=[run for run in outcome.runs if run.answer.asks] or list(outcome.runs),
        tool=tool if isinstance(tool, str) else "",
        arguments=payload.get("tool_input"),
        earlier=tuple(
            EarlierAnswer(
                run.hook, "ask" if run.answer.asks else run.answer.action, run.answer.reason
            )
            for run in outcome.runs
        ),
        turn=turn,
        timeout_ms=timeout_ms,
        ask_by=ask_by,
        # Codex has its own review of a permission request, none of a PreToolUse
        agent_asks=LABEL if outcome.event == PERMISSION_REQUEST else "",
    )
    if resolution.verdict == ASK_AGENT:
        return replace(outcome, by=(resolution.by,))
    if resolution.approved:
        verdict = ALLOW if outcome.event == PERMISSION_REQUEST else CONTINUE
        return replace(outcome, verdict=verdict, by=(resolution.by,))
    return replace(outcome, verdict=BLOCK, reason=resolution.reason, by=(resolution.by,))
