"""The W3C trace context a host gave its hook (TRACEPARENT, TRACESTATE in its environment,
kept on the exchange's record): the span of the host's own trace that the exchange belongs
under. Read without the optional SDK, so the planner stays testable without it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.journal.records import Exchange

# version-traceid-parentid-flags, lower-case hex (www.w3.org/TR/trace-context/#traceparent-header)
_TRACEPARENT = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?")
_INVALID_VERSION = "ff"
_SAMPLED = 0x01


@dataclass(frozen=True, slots=True)
class RemoteSpan:
    """A span of another program's trace (Claude Code's `claude_code.interaction`)."""

    trace_id: int
    span_id: int
    sampled: bool
    tracestate: str | None = None


def remote_span(exchange: Exchange) -> RemoteSpan | None:
    """The span the host named in the hook's TRACEPARENT; None when it gave none, or one that
    is not a valid traceparent (then the exchange's spans stay in hook-inspector's own trace)."""
    if exchange.traceparent is None:
        return None
    found = _TRACEPARENT.fullmatch(exchange.traceparent.strip())
    if found is None:
        return None
    version, trace_id, span_id, flags, more = found.groups()
    if version == _INVALID_VERSION or (version == "00" and more):
        return None
    trace, span = int(trace_id, 16), int(span_id, 16)
    if not trace or not span:
        return None
    return RemoteSpan(trace, span, bool(int(flags, 16) & _SAMPLED), exchange.tracestate or None)
