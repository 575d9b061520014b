"""Colours of statuses, verdicts and severities, shared by the journal views."""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style

from inspector.findings.finding import Finding

STATUS_STYLE: dict[str, Style] = {
    "ok": Style(color="green"),
    "pending": Style(color="cyan"),
    "held": Style(color="magenta", bold=True),
    "error": Style(color="red"),
    "invalid": Style(color="red"),
    "not_sent": Style(color="red"),
    "timeout": Style(color="red", bold=True),
    "exited": Style(color="red", bold=True),
    "dropped": Style(color="yellow"),
    "cancelled": Style(dim=True),
}

VERDICT_STYLE: dict[str, Style] = {
    "approved": Style(color="green"),
    "modify": Style(color="cyan"),
    "respond": Style(color="magenta"),
    "skipped": Style(color="yellow"),
    "discarded": Style(color="yellow"),
    "denied": Style(color="red", bold=True),
    "deny_tool": Style(color="red", bold=True),
    "abort_turn": Style(color="red", bold=True),
    "hard_abort": Style(color="red", bold=True),
}

# Events say "warn", findings say "warning": both map to the same colour and rank.
SEVERITY_STYLE: dict[str, Style] = {
    "info": Style(color="cyan"),
    "warn": Style(color="yellow"),
    "warning": Style(color="yellow"),
    "error": Style(color="red", bold=True),
}
_SEVERITY_RANK = {"info": 0, "warn": 1, "warning": 1, "error": 2}

DIM = Style(dim=True)
RELOAD_STYLE = Style(color="magenta", italic=True)
BOLD = Style(bold=True)


def severity_style(severity: str) -> Style:
    return SEVERITY_STYLE.get(severity, Style.null())


def worst_severity(findings: Iterable[Finding]) -> str:
    return max(
        (finding.severity for finding in findings),
        key=lambda severity: _SEVERITY_RANK.get(severity, 0),
        default="info",
    )
