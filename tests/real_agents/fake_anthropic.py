"""A fake Anthropic Messages API on 127.0.0.1 for running the real Claude Code CLI offline.

It answers `HEAD /` (Claude Code's connectivity probe) and `POST /v1/messages` (with or without
`?beta=true`) with the event stream the real API sends: message_start, then per content block
content_block_start / content_block_delta (text_delta, or input_json_delta for a tool_use) /
content_block_stop, then message_delta with the stop_reason and message_stop. A request without
`"stream": true` gets the same message as one JSON object.

A test scripts the model as a list of Replies, one per request of the agent's own loop (the
requests that offer `tools`); every request body is kept in `requests`, so a test can read what
reached the model (a hook's deny reason inside a tool_result, say). A request beyond the script
is answered with an API error, so a test that expected fewer rounds fails loudly instead of
looping. Side requests without `tools` (a title, a summary) get a short text answer.

The server runs on its own threads while the `with` block runs, and shuts itself down after
`lifetime_s` even if the test never leaves the block.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

JSONObject = dict[str, Any]

MODEL = "claude-fake-1"
LIFETIME_S = 120.0  # far longer than any one test; the server never outlives a hung run
JSON_CHUNK = 12  # characters of tool input per input_json_delta, so the CLI must join them
SIDE_ANSWER = "ok"


@dataclass(frozen=True)
class ToolCall:
    """One tool_use block: the tool's name, its input, and the id the model gives it."""

    name: str
    input: JSONObject
    id: str = ""


@dataclass(frozen=True)
class Reply:
    """One assistant message: optional text, then tool calls (stop_reason tool_use when there
    are any, else end_turn)."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()

    @property
    def stop_reason(self) -> str:
        return "tool_use" if self.tool_calls else "end_turn"


def bash(command: str, tool_id: str = "") -> ToolCall:
    return ToolCall("Bash", {"command": command, "description": "Run a shell command"}, tool_id)


@dataclass
class FakeAnthropic:
    """The server; `with FakeAnthropic([...]) as api:` gives `api.url` for ANTHROPIC_BASE_URL."""

    script: list[Reply]
    lifetime_s: float = LIFETIME_S
    requests: list[JSONObject] = field(default_factory=list)  # every POST body, in order
    unscripted: int = 0  # loop requests that came after the script ran out
    _served: int = 0
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _timer: threading.Timer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "the server is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def loop_requests(self) -> list[JSONObject]:
        """The requests of the agent's own loop: the ones the script answers."""
        with self._lock:
            return [body for body in self.requests if body.get("tools")]

    def tool_results(self) -> list[JSONObject]:
        """The tool_result blocks the model got in the last loop request, in order."""
        loop = self.loop_requests
        messages = loop[-1]["messages"] if loop else []
        return [
            block
            for message in messages
            if message["role"] == "user" and isinstance(message["content"], list)
            for block in message["content"]
            if block.get("type") == "tool_result"
        ]

    def __enter__(self) -> FakeAnthropic:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self._timer = threading.Timer(self.lifetime_s, self._server.shutdown)
        self._timer.daemon = True
        self._timer.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self._server is not None and self._timer is not None
        self._timer.cancel()
        self._server.shutdown()
        self._server.server_close()

    def answer(self, body: JSONObject) -> Reply | None:
        """Record `body` and choose its reply; None when the script has run out."""
        with self._lock:
            self.requests.append(body)
            if not body.get("tools"):
                return Reply(SIDE_ANSWER)
            if self._served >= len(self.script):
                self.unscripted += 1
                return None
            self._served += 1
            return self.script[self._served - 1]

    def message(self, reply: Reply, body: JSONObject) -> tuple[JSONObject, list[JSONObject]]:
        """The message `reply` stands for, and the stream events that build it."""
        with self._lock:
            number = next(self._ids)
        blocks: list[JSONObject] = []
        if reply.text:
            blocks.append({"type": "text", "text": reply.text})
        for index, call in enumerate(reply.tool_calls, 1):
            tool_id = call.id or f"toolu_fake{number:03d}{index:02d}"
            blocks.append(
                {"type": "tool_use", "id": tool_id, "name": call.name, "input": call.input}
            )
        usage = {"input_tokens": len(json.dumps(body)) // 4, "output_tokens": 1}
        head: JSONObject = {
            "id": f"msg_fake{number:04d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model") or MODEL,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {**usage, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
        }
        events: list[JSONObject] = [{"type": "message_start", "message": head}]
        for index, block in enumerate(blocks):
            events += _block_events(index, block)
        output_tokens = sum(len(json.dumps(block)) // 4 for block in blocks) or 1
        events.append(
            {
                "type": "message_delta",
                "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            }
        )
        events.append({"type": "message_stop"})
        whole = {
            **head,
            "content": blocks,
            "stop_reason": reply.stop_reason,
            "usage": {**head["usage"], "output_tokens": output_tokens},
        }
        return whole, events


def _block_events(index: int, block: JSONObject) -> list[JSONObject]:
    if block["type"] == "text":
        start = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": block["text"]}]
    else:
        start = {**block, "input": {}}
        text = json.dumps(block["input"])
        deltas = [
            {"type": "input_json_delta", "partial_json": text[at : at + JSON_CHUNK]}
            for at in range(0, len(text), JSON_CHUNK)
        ]
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *({"type": "content_block_delta", "index": index, "delta": delta} for delta in deltas),
        {"type": "content_block_stop", "index": index},
    ]


def _handler_for(api: FakeAnthropic) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_HEAD(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.split("?")[0] != "/v1/messages":
                self._send(404, "application/json", _error("not_found_error", self.path))
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._send(400, "application/json", _error("invalid_request_error", "not JSON"))
                return
            reply = api.answer(body)
            if reply is None:
                detail = f"the fake model's script has only {len(api.script)} replies"
                self._send(400, "application/json", _error("invalid_request_error", detail))
                return
            whole, events = api.message(reply, body)
            if not body.get("stream"):
                self._send(200, "application/json", json.dumps(whole).encode())
                return
            stream = "".join(
                f"event: {event['type']}\ndata: {json.dumps(event)}\n\n" for event in events
            )
            self._send(200, "text/event-stream", stream.encode())

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("request-id", f"req_fake{len(api.requests):04d}")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the requests are in `api.requests`."""

    return Handler


def _error(kind: str, message: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()
