"""What the relay needs to know about a line: the method and id of an agent line, the id of an
inspector answer. Lines are never rewritten; they are only looked at."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

# PicoClaw writes `{"jsonrpc":"2.0","id":N,"method":"...","params":...}` in this key order, so the
# head of the line names the call and a large before_llm line need not be decoded at all.
_GO_HEAD = re.compile(rb'\{"jsonrpc":"2\.0",(?:"id":(\d+),)?"method":"([^"\\]+)"')
# The inspector answers `{"jsonrpc":"2.0","id":N,...` likewise: a 1 MB answer's id without
# decoding the whole line.
_ANSWER_HEAD = re.compile(rb'\{"jsonrpc":"2\.0","id":(0|[1-9]\d*)[,}]')


@dataclass(frozen=True, slots=True)
class AgentLine:
    method: str  # "": not a JSON-RPC call; forwarded as it is, never answered
    id_json: str | None = None  # the id as JSON text; None for a notification


NOT_A_CALL = AgentLine("")


def classify(line: bytes) -> AgentLine:
    head = _GO_HEAD.match(line)
    if head:
        number, method = head.groups()
        return AgentLine(method.decode(), number.decode() if number else None)
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return NOT_A_CALL
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return NOT_A_CALL
    rpc_id = message.get("id")
    return AgentLine(message["method"], None if rpc_id is None else _id_json(rpc_id))


class NotAnAnswer(ValueError):
    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def answer_id(line: bytes) -> str:
    """The id of an inspector line as JSON text, comparable with `AgentLine.id_json`."""
    head = _ANSWER_HEAD.match(line)
    if head and line.rstrip().endswith(b"}"):
        return head.group(1).decode()
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        raise NotAnAnswer("not JSON") from None
    if not isinstance(message, dict) or message.get("id") is None:
        raise NotAnAnswer("not an answer (no id)")
    return _id_json(message["id"])


def _id_json(rpc_id: object) -> str:
    return json.dumps(rpc_id, separators=(",", ":"))
