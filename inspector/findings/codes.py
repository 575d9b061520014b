"""The entry each host's table of finding codes is written in, and a finding made from one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from inspector.findings.finding import Finding, Severity


@dataclass(frozen=True, slots=True)
class CodeInfo:
    severity: Severity  # the usual severity; a finding may raise or lower it
    title: str
    host: str  # what the host does


def coded(
    codes: Mapping[str, CodeInfo],
    code: str,
    message: str,
    *,
    severity: Severity | None = None,
    host_does: str | None = None,
) -> Finding:
    """A finding of `code` from `codes`, with its usual severity and what the host does unless
    given."""
    info = codes[code]
    return Finding(code, severity or info.severity, message, host_does or info.host)
