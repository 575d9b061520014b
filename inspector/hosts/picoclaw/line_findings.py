"""Findings about one stdout line as PicoClaw's reader takes it (decode.read_line): a line it
cannot decode, one it ignores, an answer with bytes that are not UTF-8."""

from __future__ import annotations

import re

from inspector.hosts.picoclaw.outcome import RpcLine
from inspector.protocol import findings
from inspector.protocol.finding import Finding

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
    return [findings.finding(code, f"stdout: {line.problem}")]


def ignored(line: RpcLine) -> list[Finding]:
    """A line without an id (or id 0): a notification or request from the hook, or an answer
    that lost its id."""
    if line.method:
        return findings.hook_initiated_request(line.method)
    return findings.missing_id()


def invalid_utf8(line: RpcLine) -> list[Finding]:
    if not line.invalid_utf8:
        return []
    return [findings.finding("invalid-utf8", "the answer has bytes that are not UTF-8")]
