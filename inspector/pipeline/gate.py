"""Intercept, mitmproxy style: calls that match a predicate wait until a person forwards them (as
they were, or edited) or drops them. Where they wait is the intercept's target:

- at the stage (the default): the agent's call waits at its entry to a stage, before the whole
  chain, so an edit changes what every hook and the agent get, and a drop stops the call;
- at each hook (`@hook`): a request waits on its way to one hook, so an edit changes only what
  that hook gets, and a drop is a timeout to the host.

A request sent straight to one hook (the composer, replay) has no chain: it waits in either
mode. Command hooks (j-cli, Claude Code) follow the same two targets: the host's event (its stdin
context) waits at its entry, before any hook runs, or each hook's run waits on its own."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_CANCELLED,
    STATUS_DROPPED,
    STATUS_HELD,
    STATUS_OK,
    STATUS_PENDING,
    Decision,
    Exchange,
    Finding,
)
from inspector.jsonrpc.stages import ABORT_TURN, HELLO, METHOD_FOR_STAGE, STAGE_FOR_METHOD
from inspector.pipeline.hook import ENTRY_STOP, Hook

HUMAN = "human"
FORWARDED, FORWARDED_EDITED, DROPPED = "forwarded", "forwarded edited", "dropped"
AT_STAGE, AT_HOOK = "stage", "hook"
TARGET_PREFIX = "@"  # `@hook EXPR` or `@stage EXPR` in the intercept field
HELD_AT_STAGE, HELD_AT_HOOK = "held-at-stage", "held-at-hook"

Predicate = Callable[[Exchange], bool]
Run = TypeVar("Run", covariant=True)


class OneShotHook(Protocol[Run]):
    """A hook that runs once per call, no process kept between calls: a command (CommandHook,
    its run a CommandRun) or an HTTP request (HttpHook, an HttpRun)."""

    def exchange_for(
        self, context: Mapping[str, Any], *, source: str, turn: str | None, cwd: str | None = None
    ) -> Exchange: ...

    def never_ran(self, exchange: Exchange) -> Run: ...

    async def call(
        self,
        context: Mapping[str, Any],
        *,
        source: str,
        turn: str | None = None,
        timeout_ms: int | None = None,
        env: Mapping[str, str] | None = None,
        exchange: Exchange | None = None,
        cwd: str | None = None,
    ) -> tuple[Exchange, Run]: ...


class InterceptTargetError(ValueError):
    """An intercept expression starts with `@` but names no target."""


def split_target(expression: str) -> tuple[str, str]:
    """`@hook tool:exec` -> ("hook", "tool:exec"); without a prefix the target is the stage."""
    stripped = expression.strip()
    if not stripped.startswith(TARGET_PREFIX):
        return AT_STAGE, stripped
    word, _, rest = stripped[1:].partition(" ")
    if word not in (AT_STAGE, AT_HOOK):
        raise InterceptTargetError(
            f"unknown intercept target '@{word}' (use @stage, the default, or @hook)"
        )
    return word, rest.strip()


def edit_effect(exchange: Exchange) -> str:
    """What forwarding an edit of this held call changes, in words the UI shows."""
    stage = STAGE_FOR_METHOD.get(exchange.method, exchange.method)
    if exchange.stage_entry and exchange.by_command:
        return (
            f"held at the agent's entry to {stage}, before any hook: an edit changes what every "
            "hook gets (a PreToolUse's tool_input also reaches the tool, as updatedInput); drop: "
            "no hook runs, as if none listened"
        )
    if exchange.stage_entry:
        if stage == "approve_tool":
            return (
                f"held at the agent's entry to {stage}, before any hook: an edit changes what "
                "every approver sees (the agent runs its own call); drop denies it"
            )
        return (
            f"held at the agent's entry to {stage}, before any hook: an edit changes what every "
            f"hook and the agent get; drop stops the call ({ENTRY_STOP.get(stage, ABORT_TURN)})"
        )
    return (
        f"held on its way to {exchange.hook}: an edit changes only what {exchange.hook} gets; "
        "the hooks after it and the agent get what it answers (a continue keeps the host's own "
        "value); drop is a timeout to the host"
    )


@dataclass(slots=True)
class Held:
    """One request waiting at the gate."""

    exchange: Exchange  # in the journal with status "held"; the real call fills it in
    params: Any  # as the host sent them
    release: asyncio.Future[bool] = field(repr=False)  # True: forward, False: it ended here
    held_since: float = field(default_factory=time.monotonic)

    @property
    def seq(self) -> int:
        return self.exchange.seq

    @property
    def age_s(self) -> float:
        return time.monotonic() - self.held_since


class Gate:
    """Holds what `predicate` matches. Every change goes through the journal, so views refresh."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.predicate: Predicate | None = None
        self.at = AT_STAGE
        self.originals: dict[int, Any] = {}  # seq -> params as first sent, when forwarded edited
        self._held: dict[int, Held] = {}

    @property
    def held(self) -> list[Held]:
        """Held requests, oldest first."""
        return list(self._held.values())

    async def pass_through(
        self,
        hook: Hook,
        method: str,
        params: Any,
        *,
        timeout_ms: int,
        source: str,
        turn: str | None,
        in_chain: bool = True,
    ) -> Exchange:
        """Call `hook`, first holding the request when the predicate matches it: in a chain only
        when intercepting at each hook, sent to this hook alone in either mode."""
        holds_here = self.at == AT_HOOK or not in_chain
        if method != HELLO and self.predicate is not None and holds_here:
            candidate = Exchange(
                hook=hook.name,
                method=method,
                request={"jsonrpc": "2.0", "id": None, "method": method, "params": params},
                source=source,
                turn=turn,
                status=STATUS_HELD,
            )
            if self.predicate(candidate):
                held = await self.hold(candidate, params)
                if held is None:
                    return candidate
                return await hook.call(
                    method,
                    held.params,
                    timeout_ms=timeout_ms,
                    source=source,
                    turn=turn,
                    exchange=held.exchange,
                )
        return await hook.call(method, params, timeout_ms=timeout_ms, source=source, turn=turn)

    async def enter_stage(
        self, stage: str, params: dict[str, Any], *, source: str, turn: str | None
    ) -> dict[str, Any] | None:
        """The agent's call entering `stage`: held before any hook when intercepting at the
        stage and the predicate matches. The params the chain gets (edited or not), or None
        when the person dropped the call."""
        if self.predicate is None or self.at != AT_STAGE:
            return params
        method = METHOD_FOR_STAGE[stage]
        candidate = Exchange(
            method=method,
            request={"jsonrpc": "2.0", "id": None, "method": method, "params": params},
            source=source,
            turn=turn,
            status=STATUS_HELD,
            stage_entry=True,
        )
        return await self._entry(candidate, params)

    async def enter_event(
        self, event: str, context: dict[str, Any], *, source: str, turn: str | None
    ) -> dict[str, Any] | None:
        """A command host's event (its hooks' stdin context) entering its hooks: held before
        any of them runs when intercepting at the stage and the predicate matches. The context
        every hook gets (edited or not), or None when the person dropped it."""
        if self.predicate is None or self.at != AT_STAGE:
            return context
        candidate = Exchange(
            method=event,
            request=dict(context),
            raw_request=json.dumps(context, separators=(",", ":"), ensure_ascii=False),
            source=source,
            turn=turn,
            status=STATUS_HELD,
            stage_entry=True,
        )
        return await self._entry(candidate, context)

    async def _entry(self, candidate: Exchange, params: dict[str, Any]) -> dict[str, Any] | None:
        if not self.predicate or not self.predicate(candidate):
            return params
        held = await self.hold(candidate, params)
        if held is None:
            return None
        exchange = held.exchange
        forwarded: dict[str, Any] = held.params
        sent: dict[str, Any] = {}
        if exchange.by_command and exchange.edited:  # its request is what every hook got
            raw = json.dumps(forwarded, separators=(",", ":"), ensure_ascii=False)
            sent = {"request": forwarded, "raw_request": raw}
        self.journal.amend(
            exchange,
            status=STATUS_OK,
            action=FORWARDED_EDITED if exchange.edited else FORWARDED,
            duration_ms=round(held.age_s * 1000, 3),
            **sent,
        )
        return forwarded

    async def hold(self, candidate: Exchange, params: Any) -> Held | None:
        """Journal `candidate` as held and wait for the person: the Held, with the params to
        send (edited or not), once forwarded; None once dropped or closed (the exchange says
        which)."""
        code = HELD_AT_STAGE if candidate.stage_entry else HELD_AT_HOOK
        candidate.findings.append(Finding(code, "info", edit_effect(candidate)))
        loop = asyncio.get_running_loop()
        held = Held(self.journal.append(candidate), params, loop.create_future())
        self._held[held.seq] = held
        try:
            forwarded = await held.release
        except asyncio.CancelledError:
            self._held.pop(held.seq, None)
            if held.exchange.status in (STATUS_HELD, STATUS_PENDING):
                self._end(held, STATUS_CANCELLED, "the caller gave up while it was held")
            raise
        return held if forwarded else None

    # ---- what the person does --------------------------------------------------------------

    def forward(self, seq: int, params: Any = None) -> bool:
        """Send a held request on, with `params` in place of the host's when given.
        False when nothing with that seq is held."""
        held = self._held.pop(seq, None)
        if held is None:
            return False
        verdict = FORWARDED
        if params is not None and params != held.params:
            self.originals[seq] = held.params
            held.params = params
            verdict = FORWARDED_EDITED
        edited = held.exchange.edited or verdict == FORWARDED_EDITED
        self.journal.amend(held.exchange, edited=edited, status=STATUS_PENDING)
        self._decide(held, verdict)
        held.release.set_result(True)
        return True

    def drop(self, seq: int) -> bool:
        """The hook never sees it; the caller sees a timeout (interceptors skip, approvals deny)."""
        held = self._held.pop(seq, None)
        if held is None:
            return False
        action = DROPPED if held.exchange.stage_entry else None
        self._end(held, STATUS_DROPPED, "dropped by hand", action=action)
        self._decide(held, DROPPED)
        held.release.set_result(False)
        return True

    def forward_all(self) -> int:
        seqs = list(self._held)
        for seq in seqs:
            self.forward(seq)
        return len(seqs)

    def clear(self) -> int:
        """Stop intercepting and send on everything held."""
        self.predicate = None
        return self.forward_all()

    def close(self) -> None:
        """The session ends: nothing held will be sent."""
        held_now, self._held = list(self._held.values()), {}
        for held in held_now:
            self._end(held, STATUS_CANCELLED, "the inspector stopped while it was held")
            held.release.set_result(False)

    def _end(self, held: Held, status: str, error: str, **changes: Any) -> None:
        duration_ms = round(held.age_s * 1000, 3)
        self.journal.amend(
            held.exchange, status=status, error=error, duration_ms=duration_ms, **changes
        )

    def _decide(self, held: Held, verdict: str) -> None:
        exchange = held.exchange
        tool = exchange.tool
        self.journal.append(
            Decision(
                stage=STAGE_FOR_METHOD.get(exchange.method, exchange.method),
                verdict=verdict,
                by=HUMAN,
                source=exchange.source,
                turn=exchange.turn,
                tool=tool if isinstance(tool, str) else None,
                chain=[
                    {
                        "hook": exchange.hook or f"{AT_STAGE} entry",
                        "action": verdict,
                        "exchange": exchange.seq,
                    }
                ],
            )
        )


class GatedHook:
    """A hook behind the gate: the same Hook protocol, calls pass through `gate` first.
    `in_chain` False: requests sent to this hook alone, held whatever the intercept's target."""

    def __init__(self, inner: Hook, gate: Gate, *, in_chain: bool = True) -> None:
        self.inner = inner
        self.gate = gate
        self.spec = inner.spec
        self.in_chain = in_chain

    @property
    def name(self) -> str:
        return self.inner.name

    async def call(
        self,
        method: str,
        params: Any,
        *,
        timeout_ms: int,
        source: str,
        turn: str | None = None,
        exchange: Exchange | None = None,
    ) -> Exchange:
        if exchange is not None:  # already held once, or otherwise recorded: straight through
            return await self.inner.call(
                method, params, timeout_ms=timeout_ms, source=source, turn=turn, exchange=exchange
            )
        return await self.gate.pass_through(
            self.inner,
            method,
            params,
            timeout_ms=timeout_ms,
            source=source,
            turn=turn,
            in_chain=self.in_chain,
        )

    async def notify(self, method: str, params: Any) -> str | None:
        return await self.inner.notify(method, params)


class GatedCommandHook(Generic[Run]):
    """A command or HTTP hook behind the gate: a run the predicate matches is journalled as
    held, with its context as the request, before its process starts or its request is sent;
    in a chain only when intercepting at each hook (at the stage, the event was held before its
    hooks). Dropped, it never starts, and the host reads it as a run that failed."""

    def __init__(self, inner: OneShotHook[Run], gate: Gate, *, in_chain: bool = True) -> None:
        self.inner = inner
        self.gate = gate
        self.in_chain = in_chain

    async def call(
        self,
        context: Mapping[str, Any],
        *,
        source: str,
        turn: str | None = None,
        timeout_ms: int | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> tuple[Exchange, Run]:
        exchange = None
        holds_here = self.gate.at == AT_HOOK or not self.in_chain
        if self.gate.predicate is not None and holds_here:
            candidate = self.inner.exchange_for(context, source=source, turn=turn, cwd=cwd)
            candidate.status = STATUS_HELD
            if self.gate.predicate(candidate):
                held = await self.gate.hold(candidate, candidate.params)
                if held is None:
                    return candidate, self.inner.never_ran(candidate)
                context, exchange = held.params, held.exchange  # the person's edit, if any
        return await self.inner.call(
            context,
            source=source,
            turn=turn,
            timeout_ms=timeout_ms,
            env=env,
            exchange=exchange,
            cwd=cwd,
        )
