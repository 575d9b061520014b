"""An OpenClaw plugin's hooks, run in host mode: each hook fires the plugin's handlers the way
OpenClaw does (decision hooks one at a time, higher priority first, merged by host_mode_merge;
observation hooks all at once), every handler call is an exchange, every decision hook's
outcome a decision with its chain, and a requireApproval asks the person in the approval
prompt, with the tool's name and merged params."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Protocol

from inspector.config.plugin_folder import PluginFolder
from inspector.hosts.openclaw import NAME
from inspector.hosts.openclaw.findings import CONVERSATION_HOOKS, finding
from inspector.hosts.openclaw.merge import (
    ALLOW,
    APPROVAL,
    BEFORE_TOOL_CALL,
    BLOCK,
    FAILED,
    HandlerAnswer,
    Merge,
)
from inspector.hosts.openclaw.node_harness import Harness, HarnessError, Registration
from inspector.hosts.openclaw.templates import sample
from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_ERROR,
    STATUS_HELD,
    STATUS_NOT_SENT,
    STATUS_OK,
    STATUS_PENDING,
    STATUS_TIMEOUT,
    Decision,
    Event,
    Exchange,
    Finding,
)
from inspector.pipeline.gate import AT_HOOK, Gate

HOST = NAME
JSONObject = dict[str, Any]

# Hooks that may change what happens: their handlers run one after another.
DECISION_HOOKS = frozenset(
    {
        "before_tool_call",
        "message_sending",
        "before_model_resolve",
        "before_prompt_build",
        "before_agent_start",
        "before_agent_reply",
        "before_agent_finalize",
        "tool_result_persist",
        "before_message_write",
        "before_dispatch",
        "inbound_claim",
        "before_install",
    }
)
# Hooks the Gateway fires from its "full" registrations; agent runs use "discovery" ones.
GATEWAY_HOOKS = frozenset(
    {"gateway_start", "gateway_stop", "message_received", "message_sending", "message_sent"}
)
DEFAULT_TIMEOUT_MS = 15000  # a handler's when its registration names none
APPROVAL_TIMEOUT_MS = 120000  # requireApproval.timeoutMs when the plugin gives none
DENIED = "Denied by user"
TIMED_OUT = "Approval timed out"
NO_ROUTE = "Plugin approval unavailable (no approval route)"


@dataclass(frozen=True)
class ApprovalRequest:
    """A before_tool_call's requireApproval, for a person to answer."""

    plugin: str
    exchange: int  # seq of the handler's exchange that asked
    title: str
    tool: str
    params: JSONObject
    agent_id: str
    session_key: str
    turn: str
    timeout_ms: int
    allow_on_timeout: bool


@dataclass(frozen=True)
class ApprovalAnswer:
    allowed: bool
    reason: str
    timed_out: bool = False


class Approver(Protocol):
    async def approve(self, request: ApprovalRequest) -> ApprovalAnswer | None:
        """The person's answer; None when nobody can answer."""
        ...


def handler_answer(exchange: Exchange) -> JSONObject:
    """What a handler answered, as replay compares it: what it returned, or how it failed."""
    reply = exchange.response or {}
    if reply.get("timedOut"):
        return {"timed_out": True}
    if "threw" in reply:
        return {"threw": reply["threw"]}
    return {"result": reply.get("result")}


def run_failed(exchange: Exchange) -> bool:
    """A handler that threw or timed out; one OpenClaw never called is no failure of its own."""
    return exchange.status not in (STATUS_OK, STATUS_NOT_SENT)


def mode_for(hook_name: str) -> str:
    return "full" if hook_name in GATEWAY_HOOKS else "discovery"


class OpenClawPlugin:
    def __init__(
        self,
        plugin: PluginFolder,
        journal: Journal,
        approver: Approver | None = None,
        gate: Gate | None = None,
    ) -> None:
        self.plugin = plugin
        self.journal = journal
        self.approver = approver
        self.gate = gate  # the intercept: holds a hook at its entry, or each handler's call
        self.harness = Harness(plugin, journal)
        self._loaded = asyncio.Event()  # start() is over, whether the plugin loaded or not

    @property
    def registrations(self) -> list[Registration]:
        return self.harness.registrations

    @property
    def hook_names(self) -> list[str]:
        return sorted({registration.hook_name for registration in self.registrations})

    async def start(self) -> bool:
        """Load the plugin and journal what it registered; False when it did not load."""
        try:
            await self.harness.start()
        except HarnessError:
            return False
        finally:
            self._loaded.set()
        self.journal.append(
            Event(
                kind="plugin.registered",
                payload={
                    "plugin": self.plugin.id,
                    "registrations": [vars(item) for item in self.registrations],
                },
                source="harness",
                findings=self._registration_findings(),
                host=HOST,
            )
        )
        return True

    async def stop(self) -> None:
        await self.harness.stop()

    def handler_names(self) -> list[str]:
        """Every handler OpenClaw would call, by the name its exchanges carry."""
        return sorted(
            {self._name(r) for r in self.registrations if r.mode == mode_for(r.hook_name)}
        )

    def template(self, hook_name: str) -> JSONObject:
        """What the composer starts from: a sample {"event", "ctx"} for `hook_name`."""
        event, ctx = sample(hook_name)
        return {"event": event, "ctx": ctx}

    def has_handler(self, name: str, hook_name: str) -> bool:
        return any(self._name(r) == name for r in self.handlers(hook_name))

    async def send_to_handler(
        self, name: str, hook_name: str, request: JSONObject, *, source: str
    ) -> Exchange:
        """One handler (`name`, as its exchanges call it) with {"event", "ctx"}, by hand:
        outside OpenClaw's order and merge. KeyError when it has no handler for `hook_name`."""
        await self._loaded.wait()
        handler = next((r for r in self.handlers(hook_name) if self._name(r) == name), None)
        if handler is None:
            raise KeyError(f"{name} has no {hook_name} handler")
        event, ctx = request.get("event", {}), request.get("ctx", {})
        exchange, _answer = await self._call(handler, event, ctx, source, None)
        return exchange

    def handlers(self, hook_name: str) -> list[Registration]:
        """The handlers OpenClaw calls for `hook_name`, in its order: those of the mode that
        fires it, higher priority first, registration order among equals."""
        mode = mode_for(hook_name)
        chosen = [r for r in self.registrations if r.hook_name == hook_name and r.mode == mode]
        return sorted(chosen, key=lambda registration: -registration.priority)

    async def fire(
        self,
        hook_name: str,
        event: JSONObject,
        ctx: JSONObject | None = None,
        *,
        source: str,
        turn: str | None = None,
        answer_by: float | None = None,
    ) -> Merge:
        """Fire one hook with `event` and `ctx`; the merged outcome of its handlers. A call
        made while the plugin is still loading waits for its registrations. `answer_by`
        (time.monotonic()) is a live Gateway's deadline for a relayed call: a requireApproval
        is answered by then, and with nobody to answer it stays for the Gateway to ask. The
        intercept holds the hook at its entry (a relayed call was held there by the bridge)."""
        await self._loaded.wait()
        ctx = ctx or {}
        handlers = self.handlers(hook_name)
        if handlers and answer_by is None and self.gate is not None:
            request = {"event": event, "ctx": ctx}
            entered = await self.gate.enter_event(hook_name, request, source=source, turn=turn)
            if entered is None:
                return Merge(hook_name, event)  # dropped by hand: no handler is called
            event, ctx = _object(entered.get("event")), _object(entered.get("ctx"))
        merge = Merge(hook_name, event)
        if hook_name in CONVERSATION_HOOKS and not self.plugin.allow_conversation_access:
            for registration in handlers:
                self._not_sent(registration, event, ctx, source, turn)
            return merge
        if hook_name not in DECISION_HOOKS:
            await asyncio.gather(*(self._call(r, event, ctx, source, turn) for r in handlers))
            return merge
        chain: list[JSONObject] = []
        asked_by = 0  # the exchange whose requireApproval the person answers
        for registration in handlers:
            exchange, answer = await self._call(registration, merge.next_event(), ctx, source, turn)
            action, found = merge.add(answer)
            self.journal.amend(exchange, action=action, findings=[*exchange.findings, *found])
            chain.append({"hook": exchange.hook, "action": action, "status": exchange.status})
            if action == APPROVAL:
                asked_by = exchange.seq
            if merge.stopped:
                break
        if merge.verdict == APPROVAL:
            await self._ask(merge, ctx, turn, asked_by, answer_by)
        if handlers:
            self._decide(merge, chain, source, turn)
        return merge

    # ---- one handler -----------------------------------------------------------------------

    async def _call(
        self,
        registration: Registration,
        event: JSONObject,
        ctx: JSONObject,
        source: str,
        turn: str | None,
    ) -> tuple[Exchange, HandlerAnswer]:
        timeout_ms = self._timeout_ms(registration)
        candidate = Exchange(
            hook=self._name(registration),
            method=registration.hook_name,
            request={"event": event, "ctx": ctx},
            status=STATUS_HELD,
            source=source,
            turn=turn,
            host=HOST,
        )
        gate = self.gate
        if gate is not None and gate.at == AT_HOOK and gate.predicate and gate.predicate(candidate):
            held = await gate.hold(candidate, candidate.request)
            if held is None:
                return candidate, HandlerAnswer()  # dropped by hand: no answer, no decision
            exchange = held.exchange
            event, ctx = _object(held.params.get("event")), _object(held.params.get("ctx"))
            self.journal.amend(exchange, request={"event": event, "ctx": ctx})
        else:
            candidate.status = STATUS_PENDING
            exchange = self.journal.append(candidate)
        wire = await self.harness.call(registration.index, event, ctx, timeout_ms)
        reply = wire.message
        answer = HandlerAnswer(
            result=reply.get("result"),
            threw=reply.get("threw"),
            timed_out=bool(reply.get("timedOut")),
        )
        error: str | None
        if answer.timed_out:
            status, error = STATUS_TIMEOUT, f"no answer within {timeout_ms} ms"
        elif answer.threw is not None:
            status, error = STATUS_ERROR, answer.threw
        else:
            status, error = STATUS_OK, exchange.error
        changes: dict[str, Any] = {}
        if reply.get("dropped"):
            paths = ", ".join(reply["dropped"])
            dropped = finding("openclaw-dropped-values", f"functions at {paths}")
            changes["findings"] = [*exchange.findings, dropped]
        if registration.hook_name not in DECISION_HOOKS:
            changes["action"] = FAILED if status != STATUS_OK else None
        self.journal.amend(
            exchange,
            response=reply,
            raw_request=wire.sent,
            raw_response=wire.received,
            duration_ms=round(float(reply.get("durationMs", 0)), 3),
            status=status,
            error=error,
            **changes,
        )
        return exchange, answer

    def _not_sent(
        self,
        registration: Registration,
        event: JSONObject,
        ctx: JSONObject,
        source: str,
        turn: str | None,
    ) -> None:
        message = (
            f"set plugins.entries.{self.plugin.id}.hooks.allowConversationAccess: true "
            f"or OpenClaw never calls {registration.hook_name}"
        )
        self.journal.append(
            Exchange(
                hook=self._name(registration),
                method=registration.hook_name,
                request={"event": event, "ctx": ctx},
                status=STATUS_NOT_SENT,
                error="no conversation access",
                findings=[finding("openclaw-no-conversation-access", message)],
                source=source,
                turn=turn,
                host=HOST,
            )
        )

    def _timeout_ms(self, registration: Registration) -> int:
        """The operator's hooks.timeouts.<hook> over the handler's own timeoutMs (the harness
        applies OpenClaw's default when both are absent)."""
        configured = self.plugin.timeout_for(registration.hook_name)
        return configured or registration.timeout_ms or DEFAULT_TIMEOUT_MS

    def _name(self, registration: Registration) -> str:
        """The plugin's id and the handler's place among its api.on() calls in its mode, so
        the same handler has the same name in both modes and after a reload."""
        place = sum(
            1
            for other in self.registrations[: registration.index]
            if other.mode == registration.mode
        )
        return f"{self.plugin.id}#{place + 1}"

    # ---- the outcome -----------------------------------------------------------------------

    async def _ask(
        self,
        merge: Merge,
        ctx: JSONObject,
        turn: str | None,
        exchange: int,
        answer_by: float | None,
    ) -> None:
        """requireApproval: the person decides (allow: the tool runs with the merged params;
        deny or no answer: blocked); nobody to ask (a headless run) blocks, as a run OpenClaw
        has no approval route for, unless a live Gateway (`answer_by`) can ask instead."""
        approval = merge.approval or {}
        timeout_ms = approval.get("timeoutMs")
        timeout_ms = timeout_ms if isinstance(timeout_ms, int) else APPROVAL_TIMEOUT_MS
        if answer_by is not None:
            timeout_ms = min(timeout_ms, max(0, int((answer_by - time.monotonic()) * 1000)))
        request = ApprovalRequest(
            plugin=self.plugin.id,
            exchange=exchange,
            title=str(approval.get("title") or ""),
            tool=str(merge.event.get("toolName") or ""),
            params=merge.tool_params(),
            agent_id=str(ctx.get("agentId") or ""),
            session_key=str(ctx.get("sessionKey") or ""),
            turn=turn or "",
            timeout_ms=timeout_ms,
            allow_on_timeout=approval.get("timeoutBehavior") == "allow",
        )
        answer = await self.approver.approve(request) if self.approver else None
        if answer is None and answer_by is not None:
            return  # the Gateway gets the requireApproval and asks its own approvers
        if answer is None:
            merge.verdict, merge.reason = BLOCK, NO_ROUTE
        elif answer.allowed:
            merge.verdict, merge.reason = ALLOW, answer.reason
        else:
            merge.verdict, merge.reason = BLOCK, TIMED_OUT if answer.timed_out else DENIED

    def _decide(self, merge: Merge, chain: list[JSONObject], source: str, turn: str | None) -> None:
        tool = merge.event.get("toolName") if merge.hook_name == BEFORE_TOOL_CALL else None
        self.journal.append(
            Decision(
                stage=merge.hook_name,
                verdict=merge.verdict,
                by=next((step["hook"] for step in reversed(chain) if step["action"] != "none"), ""),
                reason=merge.reason,
                source=source,
                turn=turn,
                tool=tool if isinstance(tool, str) else None,
                chain=chain,
                host=HOST,
            )
        )

    def _registration_findings(self) -> list[Finding]:
        found = [
            finding("openclaw-register-threw", f"{error['mode']}: {error['message']}")
            for error in self.harness.register_errors
        ]
        modes: dict[str, set[str]] = {}
        for registration in self.registrations:
            modes.setdefault(registration.hook_name, set()).add(registration.mode)
        for hook_name, seen in sorted(modes.items()):
            wanted = mode_for(hook_name)
            if wanted not in seen:
                message = f"{hook_name} only in '{seen.pop()}' mode: it fires from '{wanted}'"
                found.append(finding("openclaw-one-registration-mode", message))
        needs_access = CONVERSATION_HOOKS.intersection(modes)
        if needs_access and not self.plugin.allow_conversation_access:
            names = ", ".join(sorted(needs_access))
            message = f"OpenClaw never calls {names} without hooks.allowConversationAccess"
            found.append(finding("openclaw-no-conversation-access", message))
        return found


def _object(value: Any) -> JSONObject:
    return value if isinstance(value, dict) else {}
