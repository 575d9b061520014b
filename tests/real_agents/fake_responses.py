"""A fake OpenAI Responses API on 127.0.0.1 for running the real Codex CLI offline.

Codex speaks the Responses API to the provider its config.toml names (`base_url`): it POSTs
`/v1/responses` with `"stream": true` and reads server-sent events. This server answers each
such request with one scripted Reply as the real API streams it: response.created, then per
output item response.output_item.added / (text: response.output_text.delta) /
response.output_item.done, then response.completed with the usage.

A test scripts the model as a list of Replies, one per request: a text, and tool calls such as
`exec_command` (Codex's shell tool, arguments `{"cmd": ...}`). Every request body is kept in
`requests`, so a test reads what reached the model: `outputs()` gives the function_call_output
items of the last request (a hook's refusal, say). A request beyond the script is answered with
an error status 400 and counted in `unscripted`, so a run that went further than the test
expected fails loudly instead of looping (Codex retries a 500, not a 400).

The server runs on its own threads while the `with` block runs, and shuts itself down after
`lifetime_s` even if the test never leaves the block.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any

from loopback import Loopback

JSONObject = dict[str, Any]

MODEL = "gpt-fake-1"
LIFETIME_S = 120.0  # far longer than any one test; the server never outlives a hung run
TEXT_CHUNK = 12  # characters per output_text.delta, so the CLI must join them
AGENTS_NAMESPACE = "multi_agent_v1"


@dataclass(frozen=True)
class ToolCall:
    """One function_call item: the tool's name, its arguments, the call id, and the namespace of
    a namespaced tool (spawn_agent is multi_agent_v1's)."""

    name: str
    arguments: JSONObject
    call_id: str = ""
    namespace: str = ""


@dataclass(frozen=True)
class Reply:
    """One model turn: optional text, then tool calls. `tokens`, when set, is the total token
    usage response.completed reports (Codex compacts mid-turn from model_auto_compact_token_limit
    on); else the usage is estimated from the sizes of the request and the reply."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tokens: int | None = None


def exec_command(cmd: str, call_id: str = "") -> ToolCall:
    """Codex's shell tool, as the model calls it."""
    return ToolCall("exec_command", {"cmd": cmd}, call_id)


def spawn_agent(task: str, call_id: str = "") -> ToolCall:
    """Codex's tool that starts a subagent on `task`."""
    return ToolCall("spawn_agent", {"message": task}, call_id, namespace=AGENTS_NAMESPACE)


def wait_agent(call_id: str = "") -> ToolCall:
    """Codex's tool that waits for subagents: the server names every one spawned so far."""
    arguments = {"targets": [], "timeout_ms": 30000}
    return ToolCall("wait_agent", arguments, call_id, namespace=AGENTS_NAMESPACE)


@dataclass
class FakeResponses:
    """The server; `with FakeResponses([...]) as api:` gives `api.url` for base_url."""

    script: list[Reply]
    lifetime_s: float = LIFETIME_S
    # a subagent's own requests (their user message holds its task) take replies from here
    subagents: dict[str, list[Reply]] = field(default_factory=dict)
    requests: list[JSONObject] = field(default_factory=list)  # every POST body, in order
    unscripted: int = 0
    _served: int = 0
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: Loopback | None = None

    @property
    def url(self) -> str:
        """The provider's base_url (Codex adds /responses)."""
        assert self._server is not None, "the server is not running"
        return f"{self._server.origin}/v1"

    def outputs(self) -> list[JSONObject]:
        """The function_call_output items the model got in the last request, in order."""
        with self._lock:
            last = self.requests[-1] if self.requests else {}
        return [
            item for item in last.get("input", []) if item.get("type") == "function_call_output"
        ]

    def told(self, call_id: str) -> str:
        """What the model was told about the call `call_id` (its output's text)."""
        for item in self.outputs():
            if item.get("call_id") == call_id:
                output = item.get("output")
                return output if isinstance(output, str) else json.dumps(output)
        raise AssertionError(f"no function_call_output for {call_id} in {self.outputs()}")

    def told_at(self, request: int, call_id: str) -> str:
        """What request number `request` (from 0) told the model about the call `call_id`."""
        for item in self.requests[request].get("input", []):
            if item.get("type") == "function_call_output" and item.get("call_id") == call_id:
                return str(item.get("output"))
        raise AssertionError(f"no function_call_output for {call_id} in request {request}")

    def texts(self, request: int, role: str) -> list[str]:
        """The texts of the `role` messages of request number `request`, in order."""
        return _texts(self.requests[request], role)

    def __enter__(self) -> FakeResponses:
        self._server = Loopback(_handler_for(self), self.lifetime_s)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.stop()

    def answer(self, body: JSONObject) -> Reply | None:
        """Record `body` and choose its reply; None when the script has run out."""
        with self._lock:
            self.requests.append(body)
            for task, replies in self.subagents.items():
                if any(task in text for text in _texts(body, "user")):
                    return replies.pop(0) if replies else None
            if self._served >= len(self.script):
                self.unscripted += 1
                return None
            self._served += 1
            return self.script[self._served - 1]

    def events(self, reply: Reply, body: JSONObject) -> list[JSONObject]:
        """The stream of events that gives `reply`."""
        with self._lock:
            number = next(self._ids)
        response_id = f"resp_fake{number:04d}"
        items: list[JSONObject] = []
        if reply.text:
            content = [{"type": "output_text", "text": reply.text, "annotations": []}]
            items.append(
                {
                    "type": "message",
                    "id": f"msg_fake{number:04d}",
                    "role": "assistant",
                    "status": "completed",
                    "content": content,
                }
            )
        for index, call in enumerate(reply.tool_calls, 1):
            arguments = call.arguments
            if call.name == "wait_agent" and not arguments.get("targets"):
                arguments = {**arguments, "targets": _spawned(body)}
            items.append(
                {
                    "type": "function_call",
                    "id": f"fc_fake{number:04d}{index:02d}",
                    "call_id": call.call_id or f"call_fake{number:03d}{index:02d}",
                    "name": call.name,
                    **({"namespace": call.namespace} if call.namespace else {}),
                    "arguments": json.dumps(arguments),
                    "status": "completed",
                }
            )
        head = {"id": response_id, "object": "response", "model": body.get("model") or MODEL}
        events: list[JSONObject] = [
            {"type": "response.created", "response": {**head, "status": "in_progress"}}
        ]
        for index, item in enumerate(items):
            events += _item_events(index, item)
        usage = {
            "input_tokens": len(json.dumps(body)) // 4,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 1 + sum(len(json.dumps(item)) // 4 for item in items),
            "output_tokens_details": {"reasoning_tokens": 0},
        }
        if reply.tokens is not None:
            usage["input_tokens"] = max(0, reply.tokens - usage["output_tokens"])
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        completed = {**head, "status": "completed", "output": items, "usage": usage}
        events.append({"type": "response.completed", "response": completed})
        return [{**event, "sequence_number": at} for at, event in enumerate(events)]


def _spawned(body: JSONObject) -> list[str]:
    """The ids of the agents spawn_agent started, from its outputs in the request."""
    ids = []
    for item in body.get("input", []):
        if item.get("type") == "function_call_output" and "agent_id" in str(item.get("output")):
            ids.append(json.loads(item["output"])["agent_id"])
    return ids


def _texts(body: JSONObject, role: str) -> list[str]:
    return [
        part.get("text", "")
        for item in body.get("input", [])
        if item.get("type") == "message" and item.get("role") == role
        for part in item.get("content", [])
    ]


def _item_events(index: int, item: JSONObject) -> list[JSONObject]:
    events: list[JSONObject] = []
    if item["type"] == "message":
        text = item["content"][0]["text"]
        events.append(
            {
                "type": "response.output_item.added",
                "output_index": index,
                "item": {**item, "content": []},
            }
        )
        events += [
            {
                "type": "response.output_text.delta",
                "item_id": item["id"],
                "output_index": index,
                "content_index": 0,
                "delta": text[at : at + TEXT_CHUNK],
            }
            for at in range(0, len(text), TEXT_CHUNK)
        ]
    else:
        events.append({"type": "response.output_item.added", "output_index": index, "item": item})
    events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    return events


def _handler_for(api: FakeResponses) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self._send(404, "application/json", _error(f"no GET {self.path} here"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.split("?")[0] != "/v1/responses":
                self._send(404, "application/json", _error(f"no POST {self.path} here"))
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._send(400, "application/json", _error("the body is not JSON"))
                return
            reply = api.answer(body)
            if reply is None:
                detail = f"the fake model's script has only {len(api.script)} replies"
                self._send(400, "application/json", _error(detail))
                return
            stream = "".join(
                f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"
                for event in api.events(reply, body)
            )
            self._send(200, "text/event-stream", stream.encode())

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the requests are in `api.requests`."""

    return Handler


def _error(message: str) -> bytes:
    return json.dumps({"error": {"type": "invalid_request_error", "message": message}}).encode()
