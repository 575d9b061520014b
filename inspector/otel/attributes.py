"""Each record's span attributes: the journal's names under `hook_inspector.`, the RPC and
GenAI conventions where they fit (`rpc.method`, `jsonrpc.request.id`, `gen_ai.tool.name`). Text
a hook wrote (an error, a decision's reason, a finding's message, which may quote its stderr)
goes through export's redaction, so no secret in it leaves the machine."""

from __future__ import annotations

from typing import Any

from inspector.journal.records import (
    STATUS_HELD,
    STATUS_OK,
    STATUS_PENDING,
    Decision,
    Event,
    Exchange,
    Finding,
)
from inspector.journal.redact import redact_line
from inspector.otel.plan import Attributes, SpanEvent

PREFIX = "hook_inspector"
UNFINISHED = frozenset({STATUS_PENDING, STATUS_HELD})
# Where each host's request names the tool call: Claude Code's stdin, an OpenClaw ctx, a
# PicoClaw call's params.
TOOL_CALL_KEYS = ("tool_use_id", "toolCallId", "tool_call_id", "call_id")
AGENT_KEYS = ("AgentID", "agentId", "agent_id")


def exchange_attributes(exchange: Exchange) -> Attributes:
    attributes: Attributes = {
        f"{PREFIX}.seq": exchange.seq,
        f"{PREFIX}.host": exchange.host,
        f"{PREFIX}.hook": exchange.hook,
        f"{PREFIX}.status": exchange.status,
        "rpc.method": exchange.method,
    }
    optional: dict[str, Any] = {
        f"{PREFIX}.action": exchange.action,
        f"{PREFIX}.source": exchange.source,
        f"{PREFIX}.turn": exchange.turn,
        f"{PREFIX}.duration_ms": exchange.duration_ms,
        f"{PREFIX}.error": redacted(exchange.error),
        "process.exit_code": exchange.exit_code,
        "http.response.status_code": exchange.http_status,
    }
    if not exchange.by_command:
        attributes["rpc.system"] = "jsonrpc"
        optional["jsonrpc.request.id"] = exchange.rpc_id
    tool = exchange.tool
    if isinstance(tool, str) and tool:
        attributes["gen_ai.operation.name"] = "execute_tool"
        attributes["gen_ai.tool.name"] = tool
        optional["gen_ai.tool.call.id"] = tool_call_id(exchange)
    attributes.update(present(optional))
    return attributes


def decision_attributes(decision: Decision) -> Attributes:
    return present(
        {
            f"{PREFIX}.stage": decision.stage,
            f"{PREFIX}.verdict": decision.verdict,
            f"{PREFIX}.decided_by": decision.by,
            f"{PREFIX}.reason": redacted(decision.reason),
            f"{PREFIX}.seq": decision.seq,
            "gen_ai.tool.name": decision.tool,
        }
    )


def approval_attributes(by: str, waited_ms: float | None) -> Attributes:
    """Who answered an approval (a person, a rule they made, the timeout, or a hook) and how
    long the call waited for it."""
    return present({f"{PREFIX}.approval.by": by, f"{PREFIX}.approval.wait_ms": waited_ms})


def approved_by(decision: Decision) -> str:
    """Who decided a stage: the one named, else the hooks of its chain (all let it through)."""
    return decision.by or ", ".join(str(link.get("hook", "")) for link in decision.chain)


def event_attributes(event: Event) -> Attributes:
    return present(
        {
            f"{PREFIX}.seq": event.seq,
            f"{PREFIX}.host": event.host,
            f"{PREFIX}.event": event.kind,
            f"{PREFIX}.severity": event.severity,
            f"{PREFIX}.source": event.source,
            f"{PREFIX}.delivered": [str(hook) for hook in event.delivered],
        }
    )


def finding_events(findings: list[Finding], ts: float) -> list[SpanEvent]:
    return [
        SpanEvent(
            name=finding.code,
            ts=ts,
            attributes=present(
                {
                    f"{PREFIX}.finding.severity": finding.severity,
                    f"{PREFIX}.finding.message": redacted(finding.message),
                    f"{PREFIX}.finding.host_does": finding.host_does,
                }
            ),
        )
        for finding in findings
    ]


def exchange_error(exchange: Exchange) -> str | None:
    """A call that got no answer (an error, a timeout, a hook that exited or refused, a call
    cancelled or dropped) has error status, described by its error or else its status."""
    if exchange.status == STATUS_OK or exchange.status in UNFINISHED:
        return None
    return redacted(exchange.error) or exchange.status


def tool_call_id(exchange: Exchange) -> str | None:
    for where in _request_parts(exchange):
        for key in TOOL_CALL_KEYS:
            value = where.get(key)
            if isinstance(value, str) and value:
                return value
    return None


def agent_name(exchange: Exchange) -> str | None:
    """The agent whose call it is, where the request says (PicoClaw's meta.AgentID, an OpenClaw
    ctx's agentId, a Claude Code subagent's agent_id)."""
    for where in _request_parts(exchange):
        for part in (where, where.get("meta")):
            if not isinstance(part, dict):
                continue
            for key in AGENT_KEYS:
                value = part.get(key)
                if isinstance(value, str) and value:
                    return value
    return None


def _request_parts(exchange: Exchange) -> list[dict[str, Any]]:
    params = exchange.params
    if not isinstance(params, dict):
        return []
    ctx = params.get("ctx")
    event = params.get("event")
    return [part for part in (params, ctx, event) if isinstance(part, dict)]


def redacted(text: str | None) -> str | None:
    return redact_line(text) if text else text


def present(values: dict[str, Any]) -> Attributes:
    """The values OpenTelemetry can carry: None and empty strings left out."""
    return {key: value for key, value in values.items() if value is not None and value != ""}
