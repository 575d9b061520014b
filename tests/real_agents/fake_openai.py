"""A fake OpenAI chat-completions server on 127.0.0.1 for running the real OpenClaw Gateway offline.

It answers `POST /v1/chat/completions` (a stream of `chat.completion.chunk` events ending with
`data: [DONE]` when the body says `"stream": true`, else one `chat.completion` object) and
`GET /v1/models`. OpenClaw reaches it through a custom provider with `api: "openai-completions"`.

The model is scripted by the last message of each request:

- from the user, in a request that offers the `exec` tool: one call to `exec` with the command
  the test set in `command` (`{"command": ...}`, the shape OpenClaw's `exec` schema asks for);
- from a tool: final text that quotes the tool result, `tool said: <result text>`;
  OpenClaw appends a user message of its own context after each tool result
  (`<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>...`), and that one is passed over;
- anything else (a title or summary side request, or no `exec` tool offered): a short text.

Every request body is kept in `requests`, so a test can read the tool result the model received
(a hook's block reason, say). The server runs on its own threads while the `with` block runs and
shuts itself down after `lifetime_s` even if the test never leaves the block.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

JSONObject = dict[str, Any]

MODEL = "fake-model-1"
EXEC_TOOL = "exec"
LIFETIME_S = 1800.0  # one Gateway serves a whole test module; this only ends a forgotten server
ARGUMENT_CHUNK = 16  # characters of tool arguments per chunk, so the client must join them
SIDE_ANSWER = "ok"
FINAL_PREFIX = "tool said: "
INTERNAL_CONTEXT = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"


@dataclass
class FakeOpenAI:
    """The server; `with FakeOpenAI() as api:` gives `api.url` (ending in /v1) for `baseUrl`."""

    command: str = "true"  # what the next `exec` call runs; a test sets it before each turn
    lifetime_s: float = LIFETIME_S
    requests: list[JSONObject] = field(default_factory=list)  # every POST body, in order
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _timer: threading.Timer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "the server is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def snapshot(self) -> list[JSONObject]:
        """The request bodies so far (a copy of the list)."""
        with self._lock:
            return list(self.requests)

    def tool_messages(self, since: int = 0) -> list[JSONObject]:
        """The `role: tool` messages of the requests from index `since` on, without repeats."""
        seen: list[JSONObject] = []
        for body in self.snapshot()[since:]:
            for message in body.get("messages", []):
                if message.get("role") == "tool" and message not in seen:
                    seen.append(message)
        return seen

    def __enter__(self) -> FakeOpenAI:
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

    def answer(self, body: JSONObject) -> JSONObject:
        """The assistant message for one request: `content` and maybe `tool_calls`."""
        with self._lock:
            self.requests.append(body)
            number = next(self._ids)
        last = _deciding_message(body.get("messages") or [])
        if last.get("role") == "tool":
            return {"content": FINAL_PREFIX + text_of(last.get("content")), "tool_calls": []}
        offered = {tool.get("function", {}).get("name") for tool in body.get("tools") or []}
        if last.get("role") == "user" and EXEC_TOOL in offered:
            arguments = json.dumps({"command": self.command})
            call = {"id": f"call_{number}", "name": EXEC_TOOL, "arguments": arguments}
            return {"content": "", "tool_calls": [call]}
        return {"content": SIDE_ANSWER, "tool_calls": []}


def _deciding_message(messages: list[JSONObject]) -> JSONObject:
    """The last message, passing over the context OpenClaw appends as a user message after
    each tool result (`<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>...`)."""
    for message in reversed(messages):
        if message.get("role") == "user" and text_of(message.get("content")).startswith(
            INTERNAL_CONTEXT
        ):
            continue
        return message
    return {}


def text_of(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [part.get("text", "") for part in content if isinstance(part, dict)]
        return "".join(parts)
    return ""


def _chunks(answer: JSONObject, number: int) -> list[JSONObject]:
    base = {"id": f"chatcmpl-{number}", "object": "chat.completion.chunk", "model": MODEL}
    base["created"] = int(time.time())

    def chunk(delta: JSONObject, finish: str | None = None) -> JSONObject:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    out = [chunk({"role": "assistant", "content": ""})]
    if answer["content"]:
        out.append(chunk({"content": answer["content"]}))
    for index, call in enumerate(answer["tool_calls"]):
        head = {"id": call["id"], "type": "function", "function": {"name": call["name"]}}
        head["function"]["arguments"] = ""
        out.append(chunk({"tool_calls": [{"index": index, **head}]}))
        text = call["arguments"]
        for start in range(0, len(text), ARGUMENT_CHUNK):
            piece = {
                "index": index,
                "function": {"arguments": text[start : start + ARGUMENT_CHUNK]},
            }
            out.append(chunk({"tool_calls": [piece]}))
    out.append(chunk({}, "tool_calls" if answer["tool_calls"] else "stop"))
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    out.append({**base, "choices": [], "usage": usage})
    return out


def _completion(answer: JSONObject, number: int) -> JSONObject:
    message: JSONObject = {"role": "assistant", "content": answer["content"] or None}
    if answer["tool_calls"]:
        message["tool_calls"] = [
            {
                "id": call["id"],
                "type": "function",
                "function": {"name": call["name"], "arguments": call["arguments"]},
            }
            for call in answer["tool_calls"]
        ]
    finish = "tool_calls" if answer["tool_calls"] else "stop"
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _handler_for(api: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    numbers = itertools.count(1)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                listing = {"object": "list", "data": [{"id": MODEL, "object": "model"}]}
                self._send_json(200, listing)
            else:
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if not self.path.split("?")[0].endswith("/chat/completions"):
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._send_json(400, {"error": {"message": "body is not JSON"}})
                return
            answer = api.answer(body)
            number = next(numbers)
            if not body.get("stream"):
                self._send_json(200, _completion(answer, number))
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            for event in _chunks(answer, number):
                self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
            self.close_connection = True

        def _send_json(self, status: int, payload: JSONObject) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
