"""The inspector as Claude Code's own HTTP hook: `install claude --http` writes `http` handlers
that POST each event here, on loopback, with the inspector's token in a header (see
inspector/hosts/http_endpoint.py), so no relay process starts per event.

A request without the token, or with another, is refused (401, compared in constant time) and
the refusal journaled. An event is answered as the command relay's are (relayed_call.py: the
intercept, the handler's deadline, the journal), from the Claude Code hooks of the inspector's
config; the answer is the body of a 200, the JSON a Claude Code hook prints. Claude Code reads a
block only from that JSON (`permissionDecision: deny`, `decision: block`): any other status is a
non-blocking error to it and the action goes ahead (2.1.332), and so is an inspector that is not
there. An empty body is a hook that said nothing, which is also the answer to a request from
inside an inspector (an inspector whose config is the project install changed runs these
handlers behind itself: they must not call it again)."""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from aiohttp import web

from inspector.bridge.refusals import RefusalLog
from inspector.bridge.relayed_call import (
    HEAD,
    NotAnEvent,
    RelayedCall,
    RelayedEvent,
    event_payload,
    read_event,
)
from inspector.hooks.run_http import INSIDE_HEADER
from inspector.hosts.host import ABSENT, HookOutput
from inspector.hosts.http_endpoint import LOOPBACK, PATH, TOKEN_HEADER, Endpoint, token_matches
from inspector.hosts.registry import posting_host
from inspector.journal.records import Lifecycle
from inspector.jsonrpc.framing import KEEP_LIMIT

if TYPE_CHECKING:
    from inspector.engine import Engine

HOST = posting_host()
LABEL = HOST.name  # the exchanges' hook, as the command relay's: `hook:claude` finds both
NO_TOKEN = "an HTTP hook request without hook-inspector's token"
WRONG_TOKEN = "an HTTP hook request with a token that is not hook-inspector's"
JSON_TYPE = "application/json"


class HttpHooks:
    """Claude Code's HTTP hooks' door for `engine`, on `endpoint`'s loopback port."""

    def __init__(self, engine: Engine, endpoint: Endpoint, *, max_body: int = KEEP_LIMIT) -> None:
        self.engine = engine
        self.endpoint = endpoint
        self.url = f"http://{LOOPBACK}:{endpoint.port}{PATH}"
        self.calls: set[HttpCall] = set()
        self._max_body = max_body
        self._refusals = RefusalLog(engine.journal)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Raises OSError when the port cannot be had (another inspector holds it)."""
        app = web.Application()
        app.router.add_post(PATH, self._request)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, LOOPBACK, self.endpoint.port, reuse_address=True).start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self.engine.journal.append(
            Lifecycle(hook=LABEL, state="ready", detail=f"Claude Code's HTTP hooks: {self.url}")
        )

    async def close(self) -> None:
        """Every call still deciding gets the answer of an absent hook, then the port closes."""
        await asyncio.gather(*(call.close() for call in list(self.calls)))
        if self._runner is not None:
            await self._runner.cleanup()

    async def _request(self, request: web.Request) -> web.StreamResponse:
        given = request.headers.get(TOKEN_HEADER)
        if not token_matches(self.endpoint, given):
            peer = request.remote or "an unknown peer"
            self._refusals.refused(LABEL, NO_TOKEN if given is None else WRONG_TOKEN, peer)
            raise web.HTTPUnauthorized(text="hook-inspector: no valid token\n")
        if INSIDE_HEADER in request.headers:  # this inspector's own hook, pointed at itself
            return web.Response(content_type=JSON_TYPE)
        call = HttpCall(self.engine, request, _timeout_ms(request), self._max_body)
        self.calls.add(call)
        try:
            return await call.serve()
        finally:
            self.calls.discard(call)


class HttpCall(RelayedCall):
    """One event POSTed by one of Claude Code's HTTP hooks."""

    def __init__(
        self, engine: Engine, request: web.Request, timeout_ms: int, max_body: int
    ) -> None:
        super().__init__(engine, HOST.name, LABEL, timeout_ms)
        self._request = request
        self._max_body = max_body
        self._response: web.StreamResponse | None = None

    async def serve(self) -> web.StreamResponse:
        try:
            try:
                event = self._event(await read_event(self._request.content.read, self._max_body))
            except NotAnEvent as problem:
                self._noise(problem.raw, str(problem))
                await self._reply(ABSENT)
            else:
                await self._answer(event)
        finally:
            self._done.set()
        return self._response or web.Response()

    def _event(self, body: bytes) -> RelayedEvent:
        try:
            text = body.decode()
        except UnicodeDecodeError as error:
            raise NotAnEvent(f"the host's stdin is not JSON: {error}", body[:HEAD]) from None
        payload = event_payload(HOST.name, text, body[:HEAD])
        cwd = payload.get("cwd")
        folder = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None
        return RelayedEvent(payload, text, {}, folder)

    async def _reply(self, output: HookOutput) -> bool:
        """The answer as a 200 whose body is the hook's JSON, sent now; False when Claude Code
        is already gone."""
        response = web.Response(body=output.stdout.encode(), content_type=JSON_TYPE)
        try:
            await response.prepare(self._request)
            await response.write_eof()
        except (ConnectionError, OSError):
            return False
        self._response = response
        return True


def _timeout_ms(request: web.Request) -> int:
    """The handler's timeout, which install puts in the URL; Claude Code's default without."""
    given = request.query.get("timeout", "")
    return int(given) * 1000 if given.isdigit() and int(given) > 0 else HOST.default_timeout_ms
