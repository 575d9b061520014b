"""The human side of manual approval hooks: prompts waiting for a person, their verdicts
(OpenClaw's allow once / allow always / deny, and for an agent with a permission dialog of its own,
leave it to that dialog) and the session rules that allow-always creates."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from inspector.hooks.severity import Severity

VerdictKind = Literal["allow_once", "allow_always", "deny", "ask"]
Scope = Literal["exact", "tool"]  # this tool with exactly these arguments, or with any
ALLOW_ONCE: VerdictKind = "allow_once"
ALLOW_ALWAYS: VerdictKind = "allow_always"
DENY: VerdictKind = "deny"
ASK_AGENT: VerdictKind = "ask"  # the agent asks its own user instead
HUMAN = "human"
TIMEOUT = "timeout"

Subscriber = Callable[[], None]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the person chose."""

    kind: VerdictKind
    scope: Scope | None = None  # allow_always only; None means exact
    reason: str = ""  # deny only; empty gives a default reason


@dataclass(frozen=True, slots=True)
class EarlierAnswer:
    """What an approver before the manual hook answered, in this chain."""

    hook: str
    verdict: str  # approved or denied
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ApprovalPrompt:
    """Everything the approval modal shows."""

    id: str
    exchange: int  # seq of the hook.approve_tool exchange waiting for this answer
    hook: str
    tool: str
    arguments: dict[str, Any]
    agent_id: str
    session_key: str
    turn_id: str
    earlier: tuple[EarlierAnswer, ...]
    severity: Severity
    deadline: float  # time.monotonic() when on_timeout applies
    timeout_s: float
    on_timeout: Literal["deny", "allow"]
    agent_asks: str = ""  # the agent whose own dialog can ask instead (a live Claude Code)


@dataclass(slots=True)
class Rule:
    """An allow-always for the rest of the session."""

    id: str
    tool: str
    arguments: dict[str, Any] | None  # None: any arguments
    created: float = field(default_factory=time.time)
    uses: int = 0

    def matches(self, tool: str, arguments: dict[str, Any]) -> bool:
        return tool == self.tool and (self.arguments is None or arguments == self.arguments)

    def describe(self) -> str:
        which = "any arguments" if self.arguments is None else "these exact arguments"
        return f"{self.tool} with {which}"


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a prompt ended: the answer the manual hook gives, and who gave it."""

    approved: bool
    reason: str
    verdict: VerdictKind
    by: str  # "human", "rule:<id>" or "timeout"


class Approvals:
    """The queue of prompts (arrival order; none is ever lost) and the session rules."""

    def __init__(self) -> None:
        # Nobody can answer (a headless run or serve): prompts go straight to their timeout
        # behaviour instead of making the caller wait for no one.
        self.unattended = False
        self._waiting: dict[str, tuple[ApprovalPrompt, asyncio.Future[Resolution | None]]] = {}
        self._rules: dict[str, Rule] = {}
        self._subscribers: list[Subscriber] = []
        self._prompt_ids = itertools.count(1)
        self._rule_ids = itertools.count(1)

    @property
    def pending(self) -> list[ApprovalPrompt]:
        return [prompt for prompt, _future in self._waiting.values()]

    @property
    def rules(self) -> list[Rule]:
        return list(self._rules.values())

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call `subscriber` after every change to `pending` or `rules`; returns the unsubscribe."""
        self._subscribers.append(subscriber)
        return lambda: self.unsubscribe(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        if subscriber in self._subscribers:
            self._subscribers.remove(subscriber)

    # ---- the person ------------------------------------------------------------------------

    def decide(self, prompt_id: str, verdict: Verdict) -> bool:
        """Answer a prompt. False when it no longer waits (it timed out or was answered), or
        when the verdict leaves it to an agent that has no dialog of its own."""
        entry = self._waiting.get(prompt_id)
        if entry is None or (verdict.kind == ASK_AGENT and not entry[0].agent_asks):
            return False
        prompt, future = self._waiting.pop(prompt_id)
        if verdict.kind == ALLOW_ALWAYS:
            rule = self._add_rule(prompt, verdict.scope or "exact")
            reason = f"allowed always by the user (rule {rule.id}: {rule.describe()})"
            future.set_result(Resolution(True, reason, ALLOW_ALWAYS, HUMAN))
            self._answer_by_rule(rule)
        elif verdict.kind == ALLOW_ONCE:
            future.set_result(Resolution(True, "allowed once by the user", ALLOW_ONCE, HUMAN))
        elif verdict.kind == ASK_AGENT:
            reason = f"left to {prompt.agent_asks}'s own permission dialog by the user"
            future.set_result(Resolution(False, reason, ASK_AGENT, HUMAN))
        else:
            reason = verdict.reason.strip() or "denied by the user"
            future.set_result(Resolution(False, reason, DENY, HUMAN))
        self._changed()
        return True

    def revoke(self, rule_id: str) -> bool:
        if self._rules.pop(rule_id, None) is None:
            return False
        self._changed()
        return True

    # ---- the manual hook -------------------------------------------------------------------

    def new_prompt_id(self) -> str:
        return f"p{next(self._prompt_ids)}"

    def request(self, prompt: ApprovalPrompt) -> asyncio.Future[Resolution | None]:
        """Queue a prompt, or answer it at once when a rule allows it. The future's result is
        None when the approvals were closed before anyone answered."""
        future: asyncio.Future[Resolution | None] = asyncio.get_running_loop().create_future()
        rule = self._rule_for(prompt)
        if rule is not None:
            future.set_result(self._use(rule))
        else:
            self._waiting[prompt.id] = (prompt, future)
        self._changed()
        return future

    async def ask(
        self, prompt: ApprovalPrompt, on_timeout: Callable[[], Resolution]
    ) -> Resolution | None:
        """Queue `prompt` and wait for the person (or a rule) until its timeout, then take
        `on_timeout()`. None when the approvals were closed before anyone answered."""
        future = self.request(prompt)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.patience(prompt))
        except TimeoutError:
            # a decision in the same loop turn as the timeout still counts
            if future.done():
                return future.result()
            self.withdraw(prompt.id)
            return on_timeout()
        except asyncio.CancelledError:
            self.withdraw(prompt.id)
            raise

    def patience(self, prompt: ApprovalPrompt) -> float:
        """How long to wait for a person: the prompt's timeout, or nothing when unattended."""
        return 0.0 if self.unattended else prompt.timeout_s

    def no_answer(self, prompt: ApprovalPrompt, rule: str) -> str:
        """Why a prompt got no answer, for the reason the agent sees; `rule` says what then
        happens (e.g. "on_timeout: deny")."""
        if self.unattended:
            return f"nobody at the inspector to answer (a headless run; {rule})"
        return f"no decision within {prompt.timeout_s:g} s ({rule})"

    def withdraw(self, prompt_id: str) -> None:
        """The prompt stops waiting (its timeout passed or its caller gave up)."""
        if self._waiting.pop(prompt_id, None) is not None:
            self._changed()

    def close(self) -> None:
        """Release every waiting prompt unanswered (the session is ending)."""
        waiting, self._waiting = self._waiting, {}
        for _prompt, future in waiting.values():
            future.set_result(None)
        if waiting:
            self._changed()

    # ---- rules -----------------------------------------------------------------------------

    def _add_rule(self, prompt: ApprovalPrompt, scope: Scope) -> Rule:
        arguments = prompt.arguments if scope == "exact" else None
        rule = Rule(f"r{next(self._rule_ids)}", prompt.tool, arguments)
        self._rules[rule.id] = rule
        return rule

    def _rule_for(self, prompt: ApprovalPrompt) -> Rule | None:
        return next(
            (rule for rule in self._rules.values() if rule.matches(prompt.tool, prompt.arguments)),
            None,
        )

    def _use(self, rule: Rule) -> Resolution:
        rule.uses += 1
        return Resolution(
            True, f"allowed by rule {rule.id} ({rule.describe()})", ALLOW_ALWAYS, f"rule:{rule.id}"
        )

    def _answer_by_rule(self, rule: Rule) -> None:
        """Prompts already waiting that the new rule covers need no second answer."""
        for prompt_id, (prompt, future) in list(self._waiting.items()):
            if rule.matches(prompt.tool, prompt.arguments):
                del self._waiting[prompt_id]
                future.set_result(self._use(rule))

    def _changed(self) -> None:
        for subscriber in list(self._subscribers):
            subscriber()
