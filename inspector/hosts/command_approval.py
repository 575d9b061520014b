"""The inspector's approval prompt for a command host's event, as each of them opens it: the
asking hooks, the tool and its arguments, what every hook answered, counting down to the sooner
of the inspector's own timeout and a live agent's deadline, denied when the time is up or the
inspector closes unanswered. Who counts as asking, what the person is shown, and what the
answer does to the event are each host's own."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from inspector.hooks.approvals import DENY as DENY_VERDICT
from inspector.hooks.approvals import (
    TIMEOUT,
    ApprovalPrompt,
    Approvals,
    EarlierAnswer,
    Resolution,
)
from inspector.hooks.severity import severity_of
from inspector.journal.records import Exchange

JSONObject = dict[str, Any]
CLOSED = "closed"


class RunAnswer(Protocol):
    @property
    def action(self) -> str: ...
    @property
    def reason(self) -> str: ...


class AskingRun(Protocol):
    """One hook's run of the event."""

    @property
    def hook(self) -> str: ...
    @property
    def exchange(self) -> Exchange: ...


class AnsweredRun(AskingRun, Protocol):
    @property
    def answer(self) -> RunAnswer: ...


def earlier_answers(runs: Iterable[AnsweredRun]) -> tuple[EarlierAnswer, ...]:
    """What each run answered, its reason with it (an asker's reason is what the person sees)."""
    return tuple(EarlierAnswer(run.hook, run.answer.action, run.answer.reason) for run in runs)


async def ask_the_person(
    approvals: Approvals,
    *,
    event: str,
    payload: JSONObject,
    askers: Sequence[AskingRun],
    tool: str,
    arguments: object,
    earlier: tuple[EarlierAnswer, ...],
    turn: str | None,
    timeout_ms: int,
    ask_by: float | None,
    agent_asks: str,
) -> Resolution:
    """The person's answer about `event`'s call of `tool` with `arguments` (not an object:
    none), which `askers` asked about; `agent_asks` the agent whose own dialog may ask instead
    ("" for none); `ask_by` (time.monotonic()) cuts the prompt's time short."""
    arguments = arguments if isinstance(arguments, dict) else {}
    now = time.monotonic()
    timeout_s = timeout_ms / 1000
    if ask_by is not None:
        timeout_s = max(0.0, min(timeout_s, ask_by - now))
    prompt = ApprovalPrompt(
        id=approvals.new_prompt_id(),
        exchange=askers[0].exchange.seq if askers else 0,
        hook=", ".join(run.hook for run in askers) or event,
        tool=tool,
        arguments=arguments,
        agent_id="",
        session_key=str(payload.get("session_id") or ""),
        turn_id=turn or "",
        earlier=earlier,
        severity=severity_of(tool, arguments),
        deadline=now + timeout_s,
        timeout_s=timeout_s,
        on_timeout="deny",
        agent_asks=agent_asks,
    )

    def deny() -> Resolution:
        reason = approvals.no_answer(prompt, "on timeout: deny")
        return Resolution(False, reason, DENY_VERDICT, TIMEOUT)

    resolution = await approvals.ask(prompt, deny)
    if resolution is None:
        return Resolution(False, "the inspector closed unanswered", DENY_VERDICT, CLOSED)
    return resolution
