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

The agent's stdin, lent (an inspector or relay that does not do this copies lines as above).
Over a Unix socket, a relay whose stdin is a pipe or a socket may send it with its greeting
(SCM_RIGHTS, one descriptor), saying `"pipes": true`; it stops reading stdin before it greets.
An inspector that takes it welcomes with `"pipes": true`, and touches it only once the relay
confirms with one line,
`{"lent": N, "alive_ms": A}`, followed by the N bytes of agent input it had read and not passed
on (runtime events kept while offline, a line begun): a relay that gave up waiting for the
welcome never confirms, and reads on itself. From the confirmation on, the inspector reads the
agent's requests from the pipe itself (a process hop fewer on every call) and the relay does not
read stdin. Answers still come over the socket, and only the relay writes the agent's stdout: no
other process holds it, so the agent sees its hook exit when the relay exits, whatever state the
inspector is in, and a line is never cut short by an inspector that dies while writing it.

While it holds the pipe the inspector sends, besides its answers:

- `{"took": [[<id as JSON text>, "<method>"], ...]}` as it reads requests and before it acts on
  them (a line it has begun to read counts too, when the read that began it holds the head that
  names the call; it may then be announced twice, and counts once). The relay tracks
  each with the agent's deadline as it tracks the lines it copies: it answers by itself whatever
  the inspector has not answered `answer_by_ms` after the notice, and, the moment the connection
  ends without the pipe given back (the inspector died), everything still pending;
- `{"alive": 1}` every A ms, whatever else it sends. When the relay
  hears nothing for ALIVE_MISSES x A ms (the inspector is stopped, or its loop is stuck), it takes
  the pipe back: it half-closes the connection, answers by itself what it tracks, and reads stdin
  again; it lends again only once that connection has ended. The inspector checks that its
  connection has not ended before every read of the pipe, so one that wakes up (after SIGSTOP, a
  long pause) reads no more of it. (One stopped between that check and its read still takes one
  read's worth once woken: it announces the calls in it as above, and the relay, no longer
  lending, answers them at once; the piece of a line it leaves the relay is not a call and is
  dropped.)

When the inspector lets go (it stops, or the agent closed stdin and every call was answered), it
closes its copy of the pipe and sends one line, `{"returned": N, "hello": <hook.hello request> |
null}`, then the N bytes of agent input it read and did not act on, and closes the connection;
the relay reads on from those bytes, answering by itself until it connects again. Without the
welcome's `"pipes": true` (refused, or an inspector that does not lend) the relay reads on and
copies lines.
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
TOOK_KEY = "took"
ALIVE_LINE = b'{"alive": 1}\n'
ALIVE_MISSES = 4  # heartbeats missed in a row before the relay takes its stdin back
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
    `pipes`: the relay sends the agent's stdin with this greeting."""
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
    """Whether a welcome (one that refusal() accepted) takes the stdin offered with the greeting."""
    return _field(welcome_line, PIPES_KEY) is True


def lent(already_read: bytes, alive_ms: int) -> bytes:
    """The relay's confirmation that the stdin is the inspector's, with the input it had read
    and how often it must hear from the inspector."""
    message = {LENT_KEY: len(already_read), "alive_ms": alive_ms}
    return json.dumps(message).encode() + b"\n" + already_read


def read_lent(line: bytes) -> tuple[int, int] | None:
    """(bytes of agent input that follow, alive_ms) from the relay's confirmation; None if it
    is not one."""
    message = _message(line) or {}
    size, alive_ms = message.get(LENT_KEY), message.get("alive_ms")
    return (size, alive_ms) if _size(size) and _size(alive_ms) and alive_ms > 0 else None


def alive_ms(deadlines_ms: dict[str, int]) -> int:
    """How often the relay must hear from an inspector holding its stdin: often enough that a
    call arriving while the inspector is stopped is answered within the agent's deadline (half
    of it at most goes to noticing), and at least once a second. Using that whole half keeps a
    busy inspector whose loop stalls for a second or two (a loaded machine, a large redraw) from
    being taken for a stopped one: with PicoClaw's defaults, 600 ms, and silence noticed in 2.4
    to 3 s."""
    shortest = min(answer_by_ms(deadlines_ms[kind]) for kind in ("interceptor", "approval"))
    return max(25, min(shortest // (2 * ALIVE_MISSES), 1000))


def took(calls: list[tuple[str, str]]) -> bytes:
    """The inspector's notice of the calls (id as JSON text, method) it read from the pipe."""
    return json.dumps({TOOK_KEY: calls}, separators=(",", ":")).encode() + b"\n"


def read_took(line: bytes) -> list[tuple[str, str]] | None:
    """The calls in a `took` notice; None if the line is not one."""
    calls = (_message(line) or {}).get(TOOK_KEY)
    if not isinstance(calls, list):
        return None
    return [
        (call[0], call[1])
        for call in calls
        if isinstance(call, list)
        and len(call) == 2
        and isinstance(call[0], str)
        and isinstance(call[1], str)
    ]


def returned(unread: bytes, hello: dict[str, Any] | None) -> bytes:
    """The inspector letting go of the agent's stdin: the line, then the input it did not act
    on."""
    message = {RETURNED_KEY: len(unread), "hello": hello}
    return json.dumps(message).encode() + b"\n" + unread


def read_returned(line: bytes) -> tuple[int, dict[str, Any] | None] | None:
    """(input bytes, hello) from the inspector's `returned` line; None if it is not one."""
    message = _message(line)
    if message is None:
        return None
    unread, hello = message.get(RETURNED_KEY), message.get("hello")
    if _size(unread):
        return unread, hello if isinstance(hello, dict) else None
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
