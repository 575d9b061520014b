"""Request and answer bodies as span attributes: only when asked for (--otlp-bodies), and then
always through export's redaction, so no secret the journal holds leaves the machine."""

from __future__ import annotations

from typing import Any

from inspector.journal.records import Exchange
from inspector.journal.redact import redact
from inspector.otel.attributes import PREFIX
from inspector.otel.plan import Attributes
from inspector.safe_text import json_dumps

MAX_BODY = 16 * 1024  # characters; a backend drops or cuts longer attribute values anyway


def body_attributes(exchange: Exchange) -> Attributes:
    redacted = redact(exchange)  # a new record of the exchange's own type
    bodies = {name: getattr(redacted, name) for name in ("request", "response")}
    return {
        f"{PREFIX}.{name}.body": _capped(body) for name, body in bodies.items() if body is not None
    }


def _capped(body: Any) -> str:
    text = json_dumps(body)
    return text if len(text) <= MAX_BODY else text[:MAX_BODY] + "…"
