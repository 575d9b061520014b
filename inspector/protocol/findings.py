"""Conformance findings about a hook's stdout lines and answers that need no host's decoder: lines
that answer no call, oversized lines, slow answers. Every finding carries a stable code from
CODES and says what PicoClaw would do; a host's answer findings live in its folder."""

from __future__ import annotations

from inspector.protocol import catalogue
from inspector.protocol.finding import Finding, Severity
from inspector.protocol.finding_codes import CODES
from inspector.protocol.framing import PICOCLAW_MAX_LINE

__all__ = ["CODES"]  # line findings and the catalogue of codes are read from here


def finding(
    code: str, message: str, *, severity: Severity | None = None, host_does: str | None = None
) -> Finding:
    """A finding of `code`, with its usual severity and what PicoClaw does unless given."""
    info = CODES[code]
    return Finding(code, severity or info.severity, message, host_does or info.picoclaw)


# ---------------------------------------------------------------------------------------------
# stdout lines


def stdout_not_json(problem: str) -> list[Finding]:
    return [finding("stdout-not-json", f"stdout: {problem}")]


def oversized_line(size: int) -> list[Finding]:
    """`size` is the line's length on the wire without its newline, as framing.Line has it."""
    message = (
        f"stdout line of {size + 1:,} bytes with its newline is over PicoClaw's "
        f"{PICOCLAW_MAX_LINE:,}-byte limit"
    )
    return [finding("oversized-line", message)]


def unknown_id(rpc_id: int) -> list[Finding]:
    return [finding("unknown-id", f"answer with id {rpc_id}, which was never sent")]


def from_earlier_run(rpc_id: int, pid: int | None) -> list[Finding]:
    """An answer from a process the hook has since replaced (a grandchild that outlived it)."""
    message = f"answer with id {rpc_id} from an earlier process (pid {pid}), not matched"
    return [finding("unknown-id", message)]


def late_answer(rpc_id: int, exchange_seq: int) -> list[Finding]:
    message = f"answer to id {rpc_id} (exchange #{exchange_seq}) arrived after the call timed out"
    return [finding("late-answer", message)]


def duplicate_id(rpc_id: int) -> list[Finding]:
    return [finding("duplicate-id", f"id {rpc_id} was already answered")]


def missing_id() -> list[Finding]:
    return [finding("no-id", "line has no id (or id 0)")]


def hook_initiated_request(method: str) -> list[Finding]:
    return [finding("hook-initiated-request", f"hook sent method {method!r} to the host")]


def slow_answer(method: str, duration_ms: float | None, timeout_ms: float | None) -> list[Finding]:
    """An answer that took over 80 % of its timeout: a little slower and PicoClaw gives up."""
    if not timeout_ms or duration_ms is None or duration_ms <= 0.8 * timeout_ms:
        return []
    share = duration_ms / timeout_ms
    message = f"answered in {duration_ms:.0f} ms, {share:.0%} of its {timeout_ms:.0f} ms timeout"
    spec = catalogue.get(method)
    picoclaw = f"Gives up at {timeout_ms:.0f} ms. {spec.on_failure}" if spec else None
    return [finding("slow-answer", message, host_does=picoclaw)]
