"""Runtime event kinds PicoClaw accepts in `observe`, and their severities."""

from __future__ import annotations

from typing import Any

RUNTIME_EVENT_KINDS = frozenset(
    {
        "agent.turn.start",
        "agent.turn.end",
        "agent.llm.request",
        "agent.llm.delta",
        "agent.llm.response",
        "agent.llm.retry",
        "agent.context.compress",
        "agent.session.summarize",
        "agent.tool.exec_start",
        "agent.tool.exec_end",
        "agent.tool.exec_skipped",
        "agent.steering.injected",
        "agent.follow_up.queued",
        "agent.interrupt.received",
        "agent.subturn.spawn",
        "agent.subturn.end",
        "agent.subturn.result_delivered",
        "agent.subturn.orphan",
        "agent.error",
        "channel.lifecycle.started",
        "channel.lifecycle.initialized",
        "channel.lifecycle.start_failed",
        "channel.lifecycle.stopped",
        "channel.webhook.registered",
        "channel.webhook.unregistered",
        "channel.message.outbound_queued",
        "channel.message.outbound_sent",
        "channel.message.outbound_failed",
        "channel.rate_limited",
        "bus.publish.failed",
        "bus.close.started",
        "bus.close.completed",
        "bus.close.drained",
        "gateway.start",
        "gateway.ready",
        "gateway.shutdown",
        "gateway.reload.started",
        "gateway.reload.completed",
        "gateway.reload.failed",
        "mcp.server.connected",
        "mcp.server.connecting",
        "mcp.server.failed",
        "mcp.tool.discovered",
        "mcp.tool.call.start",
        "mcp.tool.call.end",
    }
)

LEGACY_EVENT_ALIASES = {
    "turn_start": "agent.turn.start",
    "turn_end": "agent.turn.end",
    "llm_request": "agent.llm.request",
    "llm_delta": "agent.llm.delta",
    "llm_response": "agent.llm.response",
    "llm_retry": "agent.llm.retry",
    "context_compress": "agent.context.compress",
    "session_summarize": "agent.session.summarize",
    "tool_exec_start": "agent.tool.exec_start",
    "tool_exec_end": "agent.tool.exec_end",
    "tool_exec_skipped": "agent.tool.exec_skipped",
    "steering_injected": "agent.steering.injected",
    "follow_up_queued": "agent.follow_up.queued",
    "interrupt_received": "agent.interrupt.received",
    "subturn_spawn": "agent.subturn.spawn",
    "subturn_end": "agent.subturn.end",
    "subturn_result_delivered": "agent.subturn.result_delivered",
    "subturn_orphan": "agent.subturn.orphan",
    "error": "agent.error",
}

OBSERVE_ALL = frozenset({"", "*", "all"})


def normalize_kind(name: str) -> str | None:
    """The runtime kind an observe entry names, or None when PicoClaw would reject it."""
    if name in RUNTIME_EVENT_KINDS:
        return name
    return LEGACY_EVENT_ALIASES.get(name)


def agent_event_severity(kind: str, payload: dict[str, Any]) -> str:
    """Severity PicoClaw gives agent events (events_runtime.go)."""
    if kind in ("agent.error", "agent.subturn.orphan"):
        return "error"
    if kind == "agent.turn.end":
        status = payload.get("Status")
        return "error" if status == "error" else "warn" if status == "aborted" else "info"
    if kind in ("agent.llm.retry", "agent.context.compress", "agent.tool.exec_skipped"):
        return "warn"
    if kind == "agent.tool.exec_end" and payload.get("IsError"):
        return "warn"
    return "info"
