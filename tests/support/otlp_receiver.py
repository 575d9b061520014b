"""A real OTLP/HTTP receiver for tests: it takes what an exporter POSTs to /v1/traces and
decodes it with opentelemetry-proto, keeping the raw bytes too (to look for secrets in them).
`hang=True` makes a collector that accepts and never answers (the benchmark's)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue


@dataclass(frozen=True)
class ReceivedSpan:
    name: str
    trace_id: str
    span_id: str
    parent_id: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Any]
    events: list[tuple[str, dict[str, Any]]]
    error: str | None  # the status message when the status is ERROR
    resource: dict[str, Any]


@dataclass
class Received:
    bodies: list[bytes] = field(default_factory=list)
    spans: list[ReceivedSpan] = field(default_factory=list)
    posts: int = 0  # requests that arrived, answered or not
    headers: list[dict[str, str]] = field(default_factory=list)  # each request's
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self) -> int:
        with self.lock:
            return len(self.spans)


def value_of(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [value_of(item) for item in value.array_value.values]
    return getattr(value, kind) if kind else None


def decoded(body: bytes) -> list[ReceivedSpan]:
    request = ExportTraceServiceRequest.FromString(body)
    spans = []
    for resource_spans in request.resource_spans:
        resource = {a.key: value_of(a.value) for a in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                spans.append(
                    ReceivedSpan(
                        name=span.name,
                        trace_id=span.trace_id.hex(),
                        span_id=span.span_id.hex(),
                        parent_id=span.parent_span_id.hex(),
                        start_ns=span.start_time_unix_nano,
                        end_ns=span.end_time_unix_nano,
                        attributes={a.key: value_of(a.value) for a in span.attributes},
                        events=[
                            (e.name, {a.key: value_of(a.value) for a in e.attributes})
                            for e in span.events
                        ],
                        error=span.status.message if span.status.code == 2 else None,
                        resource=resource,
                    )
                )
    return spans


@contextmanager
def otlp_receiver(*, hang: bool = False) -> Iterator[tuple[str, Received]]:
    """The base URL of a receiver on loopback, and what it received so far."""
    received = Received()
    release = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self._body()
            with received.lock:
                received.posts += 1
                received.headers.append({k.lower(): v for k, v in self.headers.items()})
            if hang:
                release.wait()  # accepted, never answered while the test runs
                return
            spans = decoded(body)
            with received.lock:
                received.bodies.append(body)
                received.spans.extend(spans)
            answer = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def _body(self) -> bytes:
            # Node's exporter (Claude Code's) sends its body chunked, without a Content-Length
            if self.headers.get("Transfer-Encoding", "").lower() != "chunked":
                return self.rfile.read(int(self.headers.get("Content-Length", 0)))
            chunks = []
            while size := int(self.rfile.readline().split(b";")[0], 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()  # the CRLF after each chunk
            self.rfile.readline()  # the CRLF after the last, empty chunk (no trailers)
            return b"".join(chunks)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        release.set()
        server.shutdown()
        server.server_close()
