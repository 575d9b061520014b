"""Findings about a hook's stdout lines as PicoClaw's reader takes them (decode.read_line) that
need no decoding of the answer: a line it cannot decode or ignores, an answer with bytes that are
not UTF-8, lines that answer no call, oversized lines, slow answers."""

from __future__ import annotations

import re

from inspector.findings.finding import Finding
from inspector.hosts.picoclaw import catalogue
from inspector.hosts.picoclaw.codes import finding
from inspector.hosts.picoclaw.outcome import RpcLine
from inspector.jsonrpc.framing import PICOCLAW_MAX_LINE

# Go names the message field whose value it could not decode: ...processHookRPCMessage.id ...
_BAD_FIELD = re.compile(r"processHookRPCMessage\.(\w+)")
_CODE_FOR_FIELD = {"id": "bad-id", "error": "bad-error"}


def unread(line: RpcLine) -> list[Finding]:
    """A line the reader skips (undecodable) or ignores (no id)."""
    return ignored(line) if line.kind == "no-id" else undecodable(line)


def undecodable(line: RpcLine) -> list[Finding]:
    """A line the reader logs ('Failed to decode process hook message') and skips."""
    code = "stdout-not-json"  # Go's syntax error: not JSON at all
    if line.problem.startswith("json: cannot unmarshal"):
        field = _BAD_FIELD.search(line.problem)
        if field is None:
            code = "not-object"  # into Go value of type agent.processHookRPCMessage
        else:
            code = _CODE_FOR_FIELD.get(field.group(1), "stdout-not-json")
    return [finding(code, f"stdout: {line.problem}")]


def ignored(line: RpcLine) -> list[Finding]:
    """A line without an id (or id 0): a notification or request from the hook, or an answer
    that lost its id."""
    if line.method:
        return hook_initiated_request(line.method)
    return missing_id()


def invalid_utf8(line: RpcLine) -> list[Finding]:
    if not line.invalid_utf8:
        return []
    return [finding("invalid-utf8", "the answer has bytes that are not UTF-8")]


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
