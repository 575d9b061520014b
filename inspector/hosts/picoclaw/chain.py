"""PicoClaw's hook chain: ordering, actions, fail-open interceptors, fail-closed approval."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from inspector.config.model import Defaults, HookSpec
from inspector.hosts.after_answer import after_answer, catch_up
from inspector.hosts.picoclaw.answers import label_for, read_answer, settle, verdict_label
from inspector.hosts.picoclaw.decode import typed_params
from inspector.hosts.picoclaw.gojson.plain import ParamsWriter, plain_tool_result
from inspector.hosts.picoclaw.gojson.types import deep_equal, same_value
from inspector.hosts.picoclaw.manual import APPROVAL_CHAIN
from inspector.hosts.picoclaw.outcome import APPROVED, Decoded
from inspector.hosts.picoclaw.results import ApprovalResult, StageResult
from inspector.journal.journal import Journal
from inspector.journal.records import Decision, Event, Finding
from inspector.jsonrpc.event_kinds import normalize_kind
from inspector.jsonrpc.stages import (
    ABORT_TURN,
    CONTINUE,
    METHOD_FOR_STAGE,
    RUNTIME_EVENT,
)
from inspector.pipeline.hook import ENTRY_STOP, Hook, StageEntry

OBSERVER_QUEUE = (
    64  # PicoClaw's runtime subscription buffer; when full, the newest event is dropped
)


STOPPED_AT_ENTRY = "stopped by hand at the inspector, before any hook saw it"
STOPPED_BY = "human"


class Pipeline:
    def __init__(
        self,
        journal: Journal,
        defaults: Defaults,
        hooks: Callable[[], Iterable[Hook]],
        entry: StageEntry | None = None,
    ) -> None:
        self.journal = journal
        self.defaults = defaults
        self._hooks = hooks
        self._entry = entry
        self._events: asyncio.Queue[Event] = asyncio.Queue(OBSERVER_QUEUE)
        self._dispatcher: asyncio.Task[None] | None = None

    def ordered(self) -> list[Hook]:
        """Lower priority first, ties by name (PicoClaw's rebuildOrdered for process hooks)."""
        return sorted(self._hooks(), key=lambda hook: (hook.spec.priority, hook.spec.name))

    def interceptors(self, stage: str) -> list[Hook]:
        return [hook for hook in self.ordered() if hook.spec.intercepts(stage)]

    # ---- interceptor stages ----------------------------------------------------------------

    async def before_llm(self, request: dict[str, Any], *, source: str, turn: str) -> StageResult:
        return await self._intercept("before_llm", request, source=source, turn=turn)

    async def after_llm(self, envelope: dict[str, Any], *, source: str, turn: str) -> StageResult:
        return await self._intercept("after_llm", envelope, source=source, turn=turn)

    async def before_tool(self, call: dict[str, Any], *, source: str, turn: str) -> StageResult:
        return await self._intercept("before_tool", call, source=source, turn=turn)

    async def after_tool(self, envelope: dict[str, Any], *, source: str, turn: str) -> StageResult:
        return await self._intercept("after_tool", envelope, source=source, turn=turn)

    async def _intercept(
        self, stage: str, value: dict[str, Any], *, source: str, turn: str | None
    ) -> StageResult:
        """HookManager's chain on typed values: each hook is sent the object as PicoClaw writes
        it, and its answer is read by PicoClaw's decoder (which applies the before_llm guard)."""
        chain: list[dict[str, Any]] = []
        entered = await self._enter(stage, value, source, turn)
        if entered is None:
            stop = ENTRY_STOP.get(stage, ABORT_TURN)
            stopped = StageResult(stop, value, reason=STOPPED_AT_ENTRY, decided_by=STOPPED_BY)
            self._decide(stage, stopped, source, turn, _tool_of(stage, value))
            return stopped
        hooks = self.interceptors(stage)
        if not hooks:
            return StageResult(CONTINUE, entered, chain=chain, changed=entered is not value)
        sent = typed_params(stage, value)  # what the agent sent: an edit at the entry changes it
        current = sent if entered is value else typed_params(stage, entered)
        result: StageResult | None = None
        writer = ParamsWriter(stage)
        for hook in hooks:
            catch_up()  # the last hook's reading on record before the next is asked
            exchange = await hook.call(
                METHOD_FOR_STAGE[stage],
                writer.plain(current),
                timeout_ms=self.defaults.interceptor_timeout_ms,
                source=source,
                turn=turn,
            )
            decoded = read_answer(stage, exchange, current)
            after_answer(partial(settle, self.journal, exchange, decoded))
            chain.append(_link(hook.name, decoded))
            if decoded.stops:
                stopped_with = decoded.value or current
                result = StageResult(
                    decoded.taken,
                    writer.plain(stopped_with),
                    reason=decoded.reason,
                    decided_by=hook.name,
                    hook_result=plain_tool_result(decoded.hook_result),
                    chain=chain,
                    changed=stopped_with is not sent and not deep_equal(stopped_with, sent),
                )
                break
            if decoded.value is not None and not same_value(decoded.value, current):
                current = decoded.value  # the same value kept as it was: encoded once
        if result is None:
            changed = current is not sent and not deep_equal(current, sent)
            result = StageResult(CONTINUE, writer.plain(current), chain=chain, changed=changed)
        after_answer(partial(self._decide, stage, result, source, turn, _tool_of(stage, value)))
        return result

    # ---- approvals -------------------------------------------------------------------------

    async def approve_tool(
        self, request: dict[str, Any], *, source: str, turn: str
    ) -> ApprovalResult:
        chain: list[dict[str, Any]] = []
        entered = await self._enter("approve_tool", request, source, turn)
        if entered is None:
            return self._denied_at_entry(request, source, turn)
        chain_seen_by_manual_hooks = APPROVAL_CHAIN.set(chain)
        outcome = ApprovalResult(True, chain=chain)
        hooks = self.interceptors("approve_tool")
        typed = typed_params("approve_tool", entered)
        writer = ParamsWriter("approve_tool")
        for hook in hooks:
            catch_up()
            exchange = await hook.call(
                METHOD_FOR_STAGE["approve_tool"],
                writer.plain(typed),
                timeout_ms=self.defaults.approval_timeout_ms,
                source=source,
                turn=turn,
            )
            decoded = read_answer("approve_tool", exchange, typed)
            after_answer(partial(settle, self.journal, exchange, decoded))
            reason = decoded.reason or decoded.said_reason  # an approval's reason is only said
            chain.append({"hook": hook.name, "action": decoded.taken, "reason": reason})
            if decoded.taken != APPROVED:
                outcome = ApprovalResult(False, decoded.reason, decided_by=hook.name, chain=chain)
                break
        APPROVAL_CHAIN.reset(chain_seen_by_manual_hooks)
        if hooks:
            decision = Decision(
                stage="approve_tool",
                verdict=verdict_label(outcome.approved),
                by=outcome.decided_by or "",
                reason=outcome.reason,
                source=source,
                turn=turn,
                tool=request.get("tool"),
                chain=chain,
            )
            after_answer(partial(self.journal.append, decision))
        return outcome

    async def _enter(
        self, stage: str, value: dict[str, Any], source: str, turn: str | None
    ) -> dict[str, Any] | None:
        if self._entry is None:
            return value
        return await self._entry(stage, value, source=source, turn=turn)

    def _denied_at_entry(
        self, request: dict[str, Any], source: str, turn: str | None
    ) -> ApprovalResult:
        tool = request.get("tool")
        self.journal.append(
            Decision(
                stage="approve_tool",
                verdict=verdict_label(False),
                by=STOPPED_BY,
                reason=STOPPED_AT_ENTRY,
                source=source,
                turn=turn,
                tool=tool if isinstance(tool, str) else None,
            )
        )
        return ApprovalResult(False, STOPPED_AT_ENTRY, decided_by=STOPPED_BY)

    # ---- observers -------------------------------------------------------------------------

    async def emit_event(self, event: dict[str, Any], *, source: str) -> None:
        """Queue a runtime event for observers; delivery runs behind the turn, as in PicoClaw."""
        record = self.journal.append(
            Event(
                kind=str(event.get("kind", "")),
                severity=str(event.get("severity") or "info"),
                payload=event,
                source=source,
            )
        )
        if not self._observers_of(record.kind):
            return
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._dispatch())
        try:
            self._events.put_nowait(record)
        except asyncio.QueueFull:
            dropped = Finding(
                "event-dropped",
                "warning",
                f"observer queue full ({OBSERVER_QUEUE} events): {record.kind} not delivered",
                "PicoClaw drops the newest event silently when observers fall behind",
            )
            self.journal.amend(record, findings=[*record.findings, dropped])

    async def drain_events(self) -> None:
        """Wait until every queued event has been offered to its observers."""
        await self._events.join()

    async def close(self) -> None:
        if self._dispatcher is not None:
            self._dispatcher.cancel()

    def _observers_of(self, kind: str) -> list[Hook]:
        return [hook for hook in self.ordered() if _observes(hook.spec, kind)]

    async def _dispatch(self) -> None:
        while True:
            record = await self._events.get()
            try:
                delivered, failed = [], []
                for hook in self._observers_of(record.kind):
                    error = await hook.notify(RUNTIME_EVENT, record.payload)
                    if error is None:
                        delivered.append(hook.name)
                    else:
                        failed.append(
                            Finding(
                                "observer-failed",
                                "warning",
                                f"{hook.name}: {error}",
                                "PicoClaw logs a warning and goes on",
                            )
                        )
                self.journal.amend(
                    record,
                    delivered=[*record.delivered, *delivered],
                    findings=[*record.findings, *failed],
                )
            finally:
                self._events.task_done()

    # ---- records ---------------------------------------------------------------------------

    def _decide(
        self, stage: str, result: StageResult, source: str, turn: str | None, tool: str | None
    ) -> None:
        self.journal.append(
            Decision(
                stage=stage,
                verdict=result.action,
                by=result.decided_by or "",
                reason=result.reason,
                source=source,
                turn=turn,
                tool=tool,
                chain=result.chain,
            )
        )


def _link(hook: str, decoded: Decoded) -> dict[str, Any]:
    link: dict[str, Any] = {"hook": hook, "action": label_for(decoded)}
    reason = decoded.reason or decoded.error
    if reason:
        link["reason"] = reason
    return link


def _observes(spec: HookSpec, kind: str) -> bool:
    if not spec.observe:
        return False
    if spec.observes_all:
        return True
    return any(normalize_kind(name) == kind for name in spec.observe)


def _tool_of(stage: str, value: dict[str, Any]) -> str | None:
    tool = value.get("tool") if stage in ("before_tool", "after_tool") else None
    return tool if isinstance(tool, str) else None
