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

import time
from dataclasses import replace

from inspector.hooks.approvals import (
    ASK_AGENT,
    TIMEOUT,
    ApprovalPrompt,
    Approvals,
    EarlierAnswer,
    Resolution,
)
from inspector.hooks.approvals import DENY as DENY_VERDICT
from inspector.hooks.severity import severity_of
from inspector.hosts.codex import LABEL
from inspector.hosts.codex.answer import ALLOW, BLOCK, CONTINUE
from inspector.hosts.codex.events import PERMISSION_REQUEST, PRE_TOOL_USE
from inspector.hosts.codex.outcome import CodexOutcome

CLOSED = "closed"


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
    tool = tool if isinstance(tool, str) else ""
    arguments = payload.get("tool_input")
    arguments = arguments if isinstance(arguments, dict) else {}
    now = time.monotonic()
    timeout_s = timeout_ms / 1000
    if ask_by is not None:
        timeout_s = max(0.0, min(timeout_s, ask_by - now))
    askers = [run for run in outcome.runs if run.answer.asks] or list(outcome.runs)
    prompt = ApprovalPrompt(
        id=approvals.new_prompt_id(),
        exchange=askers[0].exchange.seq if askers else 0,
        hook=", ".join(run.hook for run in askers) or outcome.event,
        tool=tool,
        arguments=arguments,
        agent_id="",
        session_key=str(payload.get("session_id") or ""),
        turn_id=turn or "",
        earlier=tuple(
            EarlierAnswer(
                run.hook, "ask" if run.answer.asks else run.answer.action, run.answer.reason
            )
            for run in outcome.runs
        ),
        severity=severity_of(tool, arguments),
        deadline=now + timeout_s,
        timeout_s=timeout_s,
        on_timeout="deny",
        # Codex has its own review of a permission request, none of a PreToolUse
        agent_asks=LABEL if outcome.event == PERMISSION_REQUEST else "",
    )

    def deny() -> Resolution:
        return Resolution(
            False, approvals.no_answer(prompt, "on timeout: deny"), DENY_VERDICT, TIMEOUT
        )

    resolution = await approvals.ask(prompt, deny)
    if resolution is None:
        resolution = Resolution(False, "the inspector closed unanswered", DENY_VERDICT, CLOSED)
    if resolution.verdict == ASK_AGENT:
        return replace(outcome, by=(resolution.by,))
    if resolution.approved:
        verdict = ALLOW if outcome.event == PERMISSION_REQUEST else CONTINUE
        return replace(outcome, verdict=verdict, by=(resolution.by,))
    return replace(outcome, verdict=BLOCK, reason=resolution.reason, by=(resolution.by,))
