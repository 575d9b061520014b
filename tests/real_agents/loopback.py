"""A test server on 127.0.0.1 that runs on its own threads and never outlives a hung test."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Loopback:
    """`handler` served on a free port from start() to stop(), or for `lifetime_s` at most."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], lifetime_s: float) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._timer = threading.Timer(lifetime_s, self._server.shutdown)
        self._timer.daemon = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self._timer.start()

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def stop(self) -> None:
        self._timer.cancel()
        self._server.shutdown()
        self._server.server_close()
