"""A real HTTP server on 127.0.0.1 standing in for a Claude Code http hook: it records every
request (path, headers, body) and answers each path as told (a status and a body, or no answer
until the server closes). It runs on a thread of its own, so a test's event loop or a `check`
subprocess can call it alike."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Answer:
    status: int = 200
    body: str | dict[str, Any] = ""
    hang: bool = False  # never answer (until the server closes): the caller's timeout fires

    @property
    def text(self) -> str:
        return json.dumps(self.body) if isinstance(self.body, dict) else self.body


@dataclass(frozen=True)
class Seen:
    path: str
    headers: dict[str, str]
    body: str

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class HookServer:
    port: int
    answers: dict[str, Answer] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    closing: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def answer(self, path: str, answer: Answer) -> str:
        """Answer `path` with `answer` from now on; returns its URL."""
        self.answers[path] = answer
        return self.url(path)


@contextmanager
def hook_server() -> Iterator[HookServer]:
    """A server that answers 200 with an empty body on every path not told otherwise."""
    state = HookServer(0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length).decode("utf-8", "replace")
            state.seen.append(Seen(self.path, dict(self.headers.items()), body))
            answer = state.answers.get(self.path, Answer())
            if answer.hang:
                state.closing.wait()
                return
            data = answer.text.encode()
            self.send_response(answer.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.closing.set()
        server.shutdown()
        server.server_close()
