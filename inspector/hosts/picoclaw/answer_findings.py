"""Conformance findings for one decoded answer."""

from __future__ import annotations

from typing import Any

from inspector.hosts.picoclaw.outcome import Decoded, RpcLine
from inspector.protocol.finding import Finding


def findings_for(decoded: Decoded, line: RpcLine, current: dict[str, Any]) -> list[Finding]:
    return []
