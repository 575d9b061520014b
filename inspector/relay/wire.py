"""What the relay and the inspector say to each other. Kept free of Textual and of the engine:
the relay imports only this module and the standard library, so it starts fast.

A connection starts with one JSON line from the relay, the greeting:

    {"hook_inspector_relay": 2, "name": "<label>", "pid": <relay pid>, "proof": "<hex>" | null,
     "deadlines_ms": {"observer": 500, "interceptor": 5000, "approval": 60000}}

and one JSON line back from the inspector, the welcome or the refusal:

    {"hook_inspector": 2, "ok": true}
    {"hook_inspector": 2, "ok": false, "error": "<why>"}

The token (TCP; optional on a Unix socket) never crosses the wire: with one, the relay first
sends a challenge, and greets only once the inspector has proved it knows the token (proof.py):

    relay:     {"hook_inspector_relay": 2, "challenge": "<relay nonce, hex>"}
    inspector: {"hook_inspector": 2, "challenge": "<inspector nonce>", "proof": "<hex>"}
    relay:     the greeting, with "proof": its own proof over both nonces

A reply that proves nothing (a squatter on the port) gets nothing more: the relay hangs up and
answers the agent by itself, as when no inspector runs. An inspector with a token refuses a
greeting that does not carry the right proof; one without a token refuses a challenge. Version 1
sent the token itself in the greeting: each side refuses the other's version with a message
that names both.

After a welcome, both directions carry the agent's JSON-RPC lines exactly as they were, one per
line: agent -> relay -> inspector for requests and notifications, inspector -> relay -> agent for
answers. Nothing else is ever written to the agent's stdout.

Additions (all optional for the inspector to use):

- The greeting carries `"hello": <the agent's hook.hello request object>` when the relay saw it
  before this connection (it was answered earlier, by the relay itself or by an inspector that has
  since gone); the key is absent otherwise, and the hello then arrives as an ordinary line.
- Right after a welcome, the relay first sends the `hook.runtime_event` notifications it kept while
  no inspector was connected (the newest ones, in order), then live lines.
- The relay answers a request by itself (see `fallback` in `inspector.relay.answers`) when
  the inspector has not answered it `answer_by_ms(deadline)` ms after the relay read it, where the
  deadline is `deadlines_ms[deadline_kind(method)]`, or when the connection drops. An inspector
  answer that comes later is dropped by the relay, so the inspector should treat that moment as the
  end of a held request or of an approval countdown.
- When the agent closes the relay's stdin, the relay half-closes its side of the connection (the
  inspector reads EOF), keeps reading answers to pending requests until their deadlines, then
  closes.

The agent's pipes (since version 1; an inspector or relay that does not know this copies lines
as above). Over a Unix socket, a relay whose stdin and stdout are pipes may send them with its
greeting (SCM_RIGHTS: stdin, then stdout), saying `"pipes": true`; it stops reading stdin before
it greets. An inspector that takes them welcomes with `"pipes": true`, and touches them only once
the relay confirms with one line, `{"lent": N}`, followed by the N bytes of agent input it had
read and not passed on (runtime events kept while offline, a line begun): a relay that gave up
waiting for the welcome never confirms, and reads on itself. From the confirmation on the relay
neither reads stdin nor writes stdout: the inspector reads the agent's requests and writes its
answers itself, two process hops fewer on every call, and holds the agent's deadlines itself. The
relay waits on the socket. When the inspector lets go (it stops, or the agent closed stdin and
every call was answered), it closes its copies of the pipes and sends one line,
`{"returned": N, "unsent": M, "hello": <hook.hello request> | null}`, then the N bytes of agent
input it read and did not act on, then the M bytes of answers the agent had not taken yet, and
closes the connection; the relay writes those M bytes first and reads on from the N, answering
by itself until it connects again. When the relay's connection ends without that line (the
inspector died), the relay reads on likewise; calls the inspector had read and not answered end
at the agent's own timeout, as with any hook that dies. Without the welcome's `"pipes": true`
(refused, or an older inspector) the relay reads on and copies lines.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at every start
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, TypeGuard

WIRE_VERSION = 2
GREETING_KEY = "hook_inspector_relay"
WELCOME_KEY = "hook_inspector"
SOCKET_NAME = "relay.sock"
PIPES_KEY = "pipes"
RETURNED_KEY = "returned"
LENT_KEY = "lent"
# PicoClaw's defaults; the agent's own config may change them (relay --*-timeout-ms).
DEFAULT_DEADLINES_MS = {"observer": 500, "interceptor": 5000, "approval": 60000}
OBSERVER_METHODS = frozenset({"hook.runtime_event"})
INTERCEPTOR_METHODS = frozenset(
    {"hook.before_llm", "hook.after_llm", "hook.before_tool", "hook.after_tool"}
)
APPROVAL_METHODS = frozenset({"hook.approve_tool"})


def default_socket_path() -> Path:
    """A private per-user folder, so a relay started with no flags finds the inspector."""
    from pathlib import Path

    return Path(default_socket_location())


def default_socket_location() -> str:
    """default_socket_path() as text, for the command relay: it starts once per event, and
    pathlib (with the re, fnmatch and urllib it imports) is a fifth of that start."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "hook-inspector", SOCKET_NAME)
    import tempfile  # only here: this import is slow too

    return os.path.join(tempfile.gettempdir(), f"hook-inspector-{os.getuid()}", SOCKET_NAME)


def greeting(
    name: str,
    proof: str | None,
    deadlines_ms: dict[str, int],
    hello: dict[str, Any] | None = None,
    pipes: bool = False,
) -> bytes:
    """`proof`: the relay's (proof.py), after the inspector proved itself; None without a token.
    `pipes`: the relay sends the agent's pipes with this greeting."""
    message: dict[str, Any] = {
        GREETING_KEY: WIRE_VERSION,
        "name": name,
        "pid": os.getpid(),
        "proof": proof,
        "deadlines_ms": deadlines_ms,
    }
    if hello is not None:
        message["hello"] = hello
    if pipes:
        message[PIPES_KEY] = True
    return json.dumps(message).encode() + b"\n"


def deadline_kind(method: str) -> str:
    """Which of `deadlines_ms` bounds a method. PicoClaw puts no deadline on `hook.hello`; the
    relay gives it (and any method it does not know) the interceptor deadline, so a silent
    inspector cannot block the agent's start-up."""
    if method in OBSERVER_METHODS:
        return "observer"
    return "approval" if method in APPROVAL_METHODS else "interceptor"


def answer_by_ms(deadline_ms: int) -> int:
    """When the relay stops waiting for the inspector and answers by itself: a safety margin
    (10 % of the deadline, at most 200 ms, at least 20 ms) before the agent gives up."""
    margin = max(20, min(deadline_ms // 10, 200))
    return max(deadline_ms - margin, 0)


def welcome(ok: bool, error: str = "", *, pipes: bool = False) -> bytes:
    message: dict[str, Any] = {WELCOME_KEY: WIRE_VERSION, "ok": ok}
    if error:
        message["error"] = error
    if pipes:
        message[PIPES_KEY] = True
    return json.dumps(message).encode() + b"\n"


def takes_pipes(welcome_line: bytes) -> bool:
    """Whether a welcome (one that refusal() accepted) takes the pipes offered with the greeting."""
    return _field(welcome_line, PIPES_KEY) is True


def lent(already_read: bytes) -> bytes:
    """The relay's confirmation that the pipes are the inspector's, with the input it had read."""
    return json.dumps({LENT_KEY: len(already_read)}).encode() + b"\n" + already_read


def read_lent(line: bytes) -> int | None:
    """How many bytes of agent input follow the relay's confirmation; None if it is not one."""
    size = _field(line, LENT_KEY)
    return size if _size(size) else None


def returned(unread: bytes, unsent: bytes, hello: dict[str, Any] | None) -> bytes:
    """The inspector letting go of the agent's pipes: the line, the input it did not act on,
    then the answers the agent had not taken yet."""
    message = {RETURNED_KEY: len(unread), "unsent": len(unsent), "hello": hello}
    return json.dumps(message).encode() + b"\n" + unread + unsent


def read_returned(line: bytes) -> tuple[int, int, dict[str, Any] | None] | None:
    """(input bytes, output bytes, hello) from the inspector's `returned` line; None if it is
    not one."""
    message = _message(line)
    if message is None:
        return None
    unread, unsent, hello = (
        message.get(RETURNED_KEY),
        message.get("unsent", 0),
        message.get("hello"),
    )
    if _size(unread) and _size(unsent):
        return unread, unsent, hello if isinstance(hello, dict) else None
    return None


def refusal(line: bytes) -> str | None:
    """None when `line` is the inspector's welcome; else its refusal's reason, or what the line
    is instead."""
    if not line:
        return "it closed the connection without a welcome"
    message = _message(line)
    if message is None or WELCOME_KEY not in message:
        return f"not a hook-inspector welcome: {line[:120]!r}"
    if message.get("ok") is not True:
        return str(message.get("error") or "refused without a reason")
    return None


def _size(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _field(line: bytes, key: str) -> Any:
    return (_message(line) or {}).get(key)


def _message(line: bytes) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return message if isinstance(message, dict) else None


TOKEN_FILE_LIMIT = 64 * 1024


def read_token(path: str | Path) -> str:
    """A token file holds the token on its first line; surrounding whitespace is ignored.
    Raises ValueError naming the file. Only a small regular file is read: a FIFO or a device
    is refused, not waited on."""
    from inspector.safe_files import read_bytes_limited  # imports pathlib: only with a token

    try:
        data = read_bytes_limited(path, TOKEN_FILE_LIMIT)
    except OSError as error:
        raise ValueError(f"{path}: {error.strerror or error}") from None
    try:
        token = data.decode("utf-8").strip().splitlines()
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text: {error.reason}") from None
    if not token or not token[0].strip():
        raise ValueError(f"{path}: the token file is empty")
    return token[0].strip()
