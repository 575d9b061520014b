"""OpenTelemetry: the journal's records as spans over OTLP/HTTP, for a team's trace viewer.

Only `exporter.py` and what it imports (`sdk_spans.py`, `span_queue.py`) import the optional
`opentelemetry` packages, and only the commands given --otlp import those modules: the core
stays as small and as quick to start without the extra."""
