"""Planned spans as the OpenTelemetry SDK's finished spans, which its OTLP exporter sends."""

from __future__ import annotations

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import (
    Link,
    SpanContext,
    SpanKind,
    Status,
    StatusCode,
    TraceFlags,
    TraceState,
)

from inspector import __version__
from inspector.otel.ids import SpanIds
from inspector.otel.plan import PlannedSpan
from inspector.otel.trace_context import RemoteSpan

SERVICE = "hook-inspector"
SCOPE = InstrumentationScope("hook-inspector", __version__)
SAMPLED = TraceFlags(TraceFlags.SAMPLED)


class SdkSpans:
    """One session's spans: its ids, and a resource per agent (service.name hook-inspector,
    and the agent's name where the requests give it)."""

    def __init__(self, ids: SpanIds | None = None) -> None:
        self.ids = ids or SpanIds()
        # create() reads OTEL_RESOURCE_ATTRIBUTES and runs the SDK's detectors: once, not per agent
        base = Resource.create({"service.name": SERVICE, "service.version": __version__})
        self._resources: dict[str | None, Resource] = {None: base}

    def readable(self, span: PlannedSpan) -> ReadableSpan:
        joined = span.joined
        trace_id = joined.trace_id if joined else self.ids.trace_id(span.trace)
        state = _trace_state(joined)  # a child carries on its host parent's tracestate
        parent = _remote_context(joined) if joined else None
        if span.parent is not None:
            parent = SpanContext(trace_id, self.ids.span_id(span.parent), False, SAMPLED, state)
        status = Status(StatusCode.ERROR, span.error) if span.error else Status(StatusCode.UNSET)
        return ReadableSpan(
            name=span.name,
            context=SpanContext(trace_id, self.ids.span_id(span.key), False, SAMPLED, state),
            parent=parent,
            links=[Link(_remote_context(span.link))] if span.link else (),
            resource=self._resource(span.agent),
            attributes=span.attributes,
            events=[Event(e.name, e.attributes, _nanoseconds(e.ts)) for e in span.events],
            kind=SpanKind.INTERNAL,
            status=status,
            start_time=_nanoseconds(span.start),
            end_time=_nanoseconds(max(span.end, span.start)),
            instrumentation_scope=SCOPE,
        )

    def _resource(self, agent: str | None) -> Resource:
        resource = self._resources.get(agent)
        if resource is None:
            named = Resource({"gen_ai.agent.name": agent or ""})
            resource = self._resources[agent] = self._resources[None].merge(named)
        return resource


def _remote_context(remote: RemoteSpan) -> SpanContext:
    flags = TraceFlags(TraceFlags.SAMPLED if remote.sampled else TraceFlags.DEFAULT)
    return SpanContext(remote.trace_id, remote.span_id, True, flags, _trace_state(remote))


def _trace_state(remote: RemoteSpan | None) -> TraceState | None:
    """The host's TRACESTATE; the SDK reads a malformed one as empty (and says so in its log,
    which is quiet while hook-inspector exports)."""
    if remote is None or remote.tracestate is None:
        return None
    return TraceState.from_header([remote.tracestate])


def _nanoseconds(seconds: float) -> int:
    return round(seconds * 1_000_000_000)
