"""OpenTelemetry's trace and span ids, made from a session's own salt and the planned keys, so
a span's parent has its id before the parent itself is sent (a stage span ends after its
hooks' spans)."""

from __future__ import annotations

import secrets
from hashlib import blake2b


class SpanIds:
    def __init__(self, salt: str | None = None) -> None:
        self.salt = salt if salt is not None else secrets.token_hex(16)

    def trace_id(self, trace: str) -> int:
        return self._id("trace", trace, 16)

    def span_id(self, key: str) -> int:
        return self._id("span", key, 8)

    def _id(self, kind: str, key: str, size: int) -> int:
        digest = blake2b(f"{self.salt}\0{kind}\0{key}".encode(), digest_size=size).digest()
        return int.from_bytes(digest, "big") or 1  # zero is OpenTelemetry's invalid id
