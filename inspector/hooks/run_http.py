"""One POST per call: the context JSON as the body, the answer's status and body back. This
module only makes the request and reports what happened; what a status or a body means is the
host's business (Claude Code's http handlers)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.relay.command_wire import INSIDE_INSPECTOR

JSON_TYPE = "application/json"
# Sent from inside a listening inspector, as its relay would see INSIDE_INSPECTOR: an http
# handler that points at that inspector itself (install claude --http) is answered at once.
INSIDE_HEADER = "X-Hook-Inspector-Inside"
# Claude Code works out the length itself; these from the settings are dropped (2.1.332).
_OWN_HEADERS = frozenset({"content-length", "transfer-encoding"})

if TYPE_CHECKING:
    import aiohttp


@dataclass(frozen=True, slots=True)
class HttpRun:
    """Everything one request left behind, as the Raw tab shows it."""

    url: str
    body: str  # what was POSTed
    status: int | None  # the HTTP status; None when no answer came
    answer: str  # the answer's body ("" when none came)
    error: str | None  # why no answer came (no connection, cut off, never sent)
    timed_out: bool
    duration_ms: float
    reached: bool = True  # a connection was made (False: the request never left)

    @property
    def answered(self) -> bool:
        return self.status is not None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def request_headers(headers: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The headers sent: JSON's content type, then the handler's own (their own length and
    transfer encoding dropped)."""
    sent = {"Content-Type": JSON_TYPE}
    if os.environ.get(INSIDE_INSPECTOR):
        sent[INSIDE_HEADER] = "1"
    for name, value in headers:
        if name.strip().lower() not in _OWN_HEADERS:
            sent[name] = value
    return sent


async def post_json(
    url: str, body: str, *, headers: Sequence[tuple[str, str]] = (), timeout_s: float
) -> HttpRun:
    """POST `body` to `url`; give up at the timeout. Redirects are not followed."""
    import aiohttp  # lazily: a fifth of every command's start-up, and only http hooks need it

    started = time.perf_counter()

    def ended(
        status: int | None = None,
        answer: str = "",
        error: str | None = None,
        timed_out: bool = False,
        reached: bool = True,
    ) -> HttpRun:
        duration = round((time.perf_counter() - started) * 1000, 3)
        return HttpRun(url, body, status, answer, error, timed_out, duration, reached)

    timeout = aiohttp.ClientTimeout(total=timeout_s)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.post(
                url,
                data=body.encode("utf-8", "backslashreplace"),
                headers=request_headers(headers),
                allow_redirects=False,
            ) as response,
        ):
            data = await response.read()
            return ended(response.status, data.decode("utf-8", errors="replace"))
    except TimeoutError:
        return ended(error=f"no answer after {timeout_s:g} s", timed_out=True)
    except aiohttp.ClientConnectorError as exc:
        why = f"could not connect to {exc.host}:{exc.port} ({_why(exc)})"
        return ended(error=why, reached=False)
    except (aiohttp.ClientError, ValueError) as exc:
        return ended(error=f"the request failed: {str(exc) or type(exc).__name__}")


def _why(exc: aiohttp.ClientConnectorError) -> str:
    return exc.os_error.strerror or str(exc.os_error)
