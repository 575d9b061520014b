"""A hook that is a person: it answers hook.approve_tool by asking the human at the inspector."""

from __future__ import annotations

import asyncio
import contextvars
import time
from typing import Any

from inspector.config.model import Defaults, HookSpec
from inspector.hooks.approvals import (
    ALLOW_ONCE,
    DENY,
    TIMEOUT,
    ApprovalPrompt,
    Approvals,
    EarlierAnswer,
    Resolution,
)
from inspector.hooks.severity import severity_of
from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_CANCELLED,
    STATUS_ERROR,
    STATUS_OK,
    STATUS_PENDING,
    Decision,
    Exchange,
    Lifecycle,
)

APPROVE_TOOL = "hook.approve_tool"
METHOD_NOT_FOUND = -32601
READY, STOPPED = "ready", "stopped"

# The pipeline's approval chain so far ([{"hook", "action", "reason"}], one per approver that
# already answered), set by Pipeline.approve_tool for the hooks it calls. A context variable
# keeps the Hook protocol unchanged and is per task, so concurrent turns never mix chains.
APPROVAL_CHAIN: contextvars.ContextVar[list[dict[str, Any]] | None] = contextvars.ContextVar(
    "approval_chain", default=None
)


class ManualHook:
    """Each approve_tool call becomes a prompt in `approvals`; the answer is a synthesized
    JSON-RPC result. Nobody answering (a headless run) is a timeout: `spec.on_timeout` applies."""

    def __init__(self, spec: HookSpec, journal: Journal, approvals: Approvals) -> None:
        self.spec = spec
        self.journal = journal
        self.approvals = approvals
        self.state = STOPPED

    @property
    def name(self) -> str:
        return self.spec.name

    async def start(self) -> bool:
        self._set_state(READY, f"asks the user; no answer in time: {self.spec.on_timeout}")
        return True

    def follow(self, defaults: Defaults) -> None:
        """A person's time to answer comes with each call (the approval timeout), so new
        defaults change nothing here."""

    async def stop(self) -> None:
        self._set_state(STOPPED, "")

    async def notify(self, method: str, params: Any) -> str | None:
        return "a manual hook observes no events"

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
        request = {"jsonrpc": "2.0", "id": None, "method": method, "params": params}
        if exchange is None:
            exchange = self.journal.append(
                Exchange(
                    hook=self.name,
                    method=method,
                    request=request,
                    source=source,
                    turn=turn,
                    status=STATUS_PENDING,
                )
            )
        else:
            self.journal.amend(
                exchange,
                hook=self.name,
                method=method,
                request=request,
                source=source,
                turn=turn,
                status=STATUS_PENDING,
            )
        started = time.perf_counter()
        if method != APPROVE_TOOL:
            error = {"code": METHOD_NOT_FOUND, "message": "method not found"}
            response = {"jsonrpc": "2.0", "id": None, "error": error}
            why = f"{method} failed: method not found"
            self._finish(exchange, started, STATUS_ERROR, why, response=response)
            return exchange
        prompt = self._prompt(exchange, params if isinstance(params, dict) else {}, timeout_ms)
        try:
            resolution = await self.approvals.ask(prompt, lambda: self._timed_out(prompt))
        except asyncio.CancelledError:
            self._finish(exchange, started, STATUS_CANCELLED, "the caller gave up")
            raise
        if resolution is None:
            self._finish(exchange, started, STATUS_CANCELLED, "the inspector closed unanswered")
            return exchange
        result = {"approved": resolution.approved, "reason": resolution.reason}
        response = {"jsonrpc": "2.0", "id": None, "result": result}
        self._finish(exchange, started, STATUS_OK, None, response=response)
        if not (self.approvals.unattended and APPROVAL_CHAIN.get() is not None):
            # Unattended, nobody decided: the stage's own decision, with this reason, is the one
            # line to show, not a second one by "timeout" at the same instant.
            self._record_decision(exchange, prompt, resolution)
        return exchange

    def _prompt(
        self, exchange: Exchange, params: dict[str, Any], timeout_ms: int
    ) -> ApprovalPrompt:
        tool = params.get("tool")
        tool = tool if isinstance(tool, str) else ""
        arguments = params.get("arguments")
        arguments = arguments if isinstance(arguments, dict) else {}
        meta = params.get("meta")
        meta = meta if isinstance(meta, dict) else {}
        timeout_s = timeout_ms / 1000
        return ApprovalPrompt(
            id=self.approvals.new_prompt_id(),
            exchange=exchange.seq,
            hook=self.name,
            tool=tool,
            arguments=arguments,
            agent_id=str(meta.get("AgentID") or ""),
            session_key=str(meta.get("SessionKey") or ""),
            turn_id=str(meta.get("TurnID") or ""),
            earlier=tuple(
                EarlierAnswer(str(link["hook"]), str(link["action"]), str(link.get("reason") or ""))
                for link in APPROVAL_CHAIN.get() or []
            ),
            severity=severity_of(tool, arguments),
            deadline=time.monotonic() + timeout_s,
            timeout_s=timeout_s,
            on_timeout=self.spec.on_timeout,
        )

    def _timed_out(self, prompt: ApprovalPrompt) -> Resolution:
        allow = self.spec.on_timeout == "allow"
        reason = self.approvals.no_answer(prompt, f"on_timeout: {self.spec.on_timeout}")
        return Resolution(allow, reason, ALLOW_ONCE if allow else DENY, TIMEOUT)

    def _finish(
        self,
        exchange: Exchange,
        started: float,
        status: str,
        error: str | None,
        **changes: Any,
    ) -> None:
        duration_ms = round((time.perf_counter() - started) * 1000, 3)
        self.journal.amend(exchange, duration_ms=duration_ms, status=status, error=error, **changes)

    def _record_decision(
        self, exchange: Exchange, prompt: ApprovalPrompt, resolution: Resolution
    ) -> None:
        effect = "approved" if resolution.approved else "denied"
        self.journal.append(
            Decision(
                stage="approve_tool",
                verdict=resolution.verdict,
                by=resolution.by,
                reason=resolution.reason,
                source=exchange.source,
                turn=exchange.turn,
                tool=prompt.tool,
                chain=[{"hook": self.name, "action": effect, "exchange": exchange.seq}],
            )
        )

    def _set_state(self, state: str, detail: str) -> None:
        self.state = state
        self.journal.append(Lifecycle(hook=self.name, state=state, detail=detail))
