"""A fake Gemini API on 127.0.0.1 for running the real Gemini CLI offline.

Gemini CLI (with `GOOGLE_GEMINI_BASE_URL` at this server and an API key) sends two kinds of
request: `POST /v1beta/models/MODEL:generateContent`, the router's question of how hard the
prompt is (it wants JSON with `complexity_reasoning` and `complexity_score`), and `POST
/v1beta/models/MODEL:streamGenerateContent?alt=sse`, the agent's own loop, answered here as
server-sent events each holding one GenerateContentResponse chunk.

A test scripts the model as a list of Replies, one per streamed request; every request is kept in
`requests` (path and body), so a test can read what reached the model (a hook's block reason
inside a functionResponse, a BeforeModel hook's rewrite of the contents). A streamed request past
the end of the script gets a 400, which the CLI reports and ends on, so a run that went further
than the test expected fails instead of looping. Other non-streamed requests (the router, a
summary) get a short JSON or text answer.

The server runs on its own threads while the `with` block runs, and shuts itself down after
`lifetime_s` even if the test never leaves the block.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

JSONObject = dict[str, Any]

LIFETIME_S = 120.0  # far longer than any one test; the server never outlives a hung run
ROUTER_ANSWER = {"complexity_reasoning": "A short, simple request.", "complexity_score": 1}
TEXT_CHUNK = 16  # characters of text per streamed chunk, so the CLI must join them
SHELL = "run_shell_command"


@dataclass(frozen=True)
class FunctionCall:
    """One functionCall part: the tool's name and its arguments."""

    name: str
    args: JSONObject


@dataclass(frozen=True)
class Reply:
    """One model turn: optional text, then function calls (finishReason STOP either way, as
    the real API sends). The text streams in `chunks` when given (then they are the text), else
    in pieces of TEXT_CHUNK characters."""

    text: str = ""
    calls: tuple[FunctionCall, ...] = ()
    chunks: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.chunks is not None:
            object.__setattr__(self, "text", "".join(self.chunks))

    @property
    def pieces(self) -> tuple[str, ...]:
        """The text as it streams, one piece per chunk."""
        if self.chunks is not None:
            return self.chunks
        return tuple(self.text[at : at + TEXT_CHUNK] for at in range(0, len(self.text), TEXT_CHUNK))


def shell(command: str, description: str = "Run a shell command") -> FunctionCall:
    return FunctionCall(SHELL, {"command": command, "description": description})


@dataclass(frozen=True)
class Request:
    path: str
    body: JSONObject

    @property
    def streamed(self) -> bool:
        return ":streamGenerateContent" in self.path

    @property
    def model(self) -> str:
        return self.path.split("/models/")[-1].split(":")[0]


@dataclass
class FakeGemini:
    """The server; `with FakeGemini([...]) as api:` gives `api.url` for GOOGLE_GEMINI_BASE_URL."""

    script: list[Reply]
    lifetime_s: float = LIFETIME_S
    requests: list[Request] = field(default_factory=list)
    unscripted: int = 0  # streamed requests that came after the script ran out
    _served: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _timer: threading.Timer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "the server is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def loop_requests(self) -> list[Request]:
        """The agent loop's requests: the streamed ones, which the script answers."""
        with self._lock:
            return [request for request in self.requests if request.streamed]

    def function_responses(self) -> list[JSONObject]:
        """The functionResponse parts of the last loop request: what the model was told."""
        loop = self.loop_requests
        contents = loop[-1].body.get("contents", []) if loop else []
        return [
            part["functionResponse"]
            for content in contents
            for part in content.get("parts", [])
            if "functionResponse" in part
        ]

    def texts(self, request: Request) -> list[str]:
        """Every text part of `request`'s contents, in order."""
        return [
            part["text"]
            for content in request.body.get("contents", [])
            for part in content.get("parts", [])
            if isinstance(part.get("text"), str)
        ]

    def __enter__(self) -> FakeGemini:
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

    def answer(self, request: Request) -> Reply | None:
        """Record `request` and choose its reply; None when the script has run out."""
        with self._lock:
            self.requests.append(request)
            if not request.streamed:
                return Reply(json.dumps(ROUTER_ANSWER))
            if self._served >= len(self.script):
                self.unscripted += 1
                return None
            self._served += 1
            return self.script[self._served - 1]


def chunks(reply: Reply) -> list[JSONObject]:
    """The GenerateContentResponse chunks that stream `reply`: its text in pieces, then each
    function call in a chunk of its own, the last chunk with finishReason STOP and the usage."""
    parts: list[JSONObject] = [{"text": piece} for piece in reply.pieces]
    parts += [{"functionCall": {"name": call.name, "args": call.args}} for call in reply.calls]
    if not parts:
        parts = [{"text": ""}]
    answers = [_response([part]) for part in parts]
    answers[-1]["candidates"][0]["finishReason"] = "STOP"
    answers[-1]["usageMetadata"] = {
        "promptTokenCount": 10,
        "candidatesTokenCount": len(parts),
        "totalTokenCount": 10 + len(parts),
    }
    return answers


def whole(reply: Reply) -> JSONObject:
    """`reply` as one non-streamed GenerateContentResponse."""
    answer = _response([{"text": reply.text}])
    answer["candidates"][0]["finishReason"] = "STOP"
    return answer


def _response(parts: list[JSONObject]) -> JSONObject:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}],
        "modelVersion": "gemini-fake",
    }


def _handler_for(api: FakeGemini) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self._send(404, "application/json", _error(404, f"no such resource: {self.path}"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw)
            except ValueError:
                self._send(400, "application/json", _error(400, "not JSON"))
                return
            request = Request(self.path, body)
            reply = api.answer(request)
            if reply is None:
                detail = f"the fake model's script has only {len(api.script)} replies"
                self._send(400, "application/json", _error(400, detail))
                return
            if not request.streamed:
                self._send(200, "application/json", json.dumps(whole(reply)).encode())
                return
            stream = "".join(f"data: {json.dumps(chunk)}\r\n\r\n" for chunk in chunks(reply))
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


def _error(status: int, message: str) -> bytes:
    return json.dumps(
        {"error": {"code": status, "message": message, "status": "INVALID_ARGUMENT"}}
    ).encode()
