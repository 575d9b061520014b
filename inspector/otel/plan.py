"""A span as the journal gives it, before any OpenTelemetry object exists: what to send, in
plain data, so the shape is built and tested without the optional SDK."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from inspector.otel.trace_context import RemoteSpan

AttributeValue = str | bool | int | float | Sequence[str]
Attributes = dict[str, AttributeValue]


@dataclass(frozen=True, slots=True)
class SpanEvent:
    """Something that happened at one instant of a span (a finding)."""

    name: str
    ts: float
    attributes: Attributes = field(default_factory=dict)


@dataclass(slots=True)
class PlannedSpan:
    """`trace` names the agent turn the span belongs to, `key` the span and `parent` its parent's
    key, all unique within one session: ids.py makes OpenTelemetry's ids of them. Times are the
    journal's (seconds since the epoch)."""

    name: str
    trace: str
    key: str
    parent: str | None
    start: float
    end: float
    attributes: Attributes = field(default_factory=dict)
    events: list[SpanEvent] = field(default_factory=list)
    error: str | None = None  # the span's error status and its description
    agent: str | None = None  # the agent whose turn it is, where the request names it
    # the host's span the turn joined (trace_context.py): every span of the turn is in the
    # host's trace, and the turn's own span (no `parent`) is that span's child
    joined: RemoteSpan | None = None
    link: RemoteSpan | None = None  # an exchange's host span, where the turn joined another
