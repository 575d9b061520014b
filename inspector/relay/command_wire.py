"""What a command relay and the inspector say to each other: one event per connection.

A command hook (Claude Code, j-cli, ...) is one process per event, so a command relay connects,
greets as wire.py says with one more key,

    {"hook_inspector_relay": 2, "name": ..., "pid": ..., "proof": ...,
     "command": {"host": "<a host's name>", "timeout_ms": <the handler's timeout, or null>}}

reads the welcome, which says what the relay does not know of its host (the relay knows no
host: the inspector's registry does):

    {"hook_inspector": 2, "ok": true,
     "command": {"timeout_ms": <the handler's timeout>, "env_prefixes": ["CLAUDE", ...]}}

sends one JSON object and closes its sending side:

    {"stdin": "<what the host wrote to the hook's stdin>", "env": {"CLAUDE_...": "..."},
     "cwd": "<the hook's working directory>"}

(`env`: the variables named by the welcome's prefixes, and TRACEPARENT and TRACESTATE when set)

and the inspector answers with one JSON line before `answer_by_ms(timeout_ms)` and closes:

    {"stdout": "...", "stderr": "...", "exit_code": 0}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from inspector.relay.wire import GREETING_KEY, WELCOME_KEY, WIRE_VERSION

COMMAND_KEY = "command"
# How long a relay started without --timeout gives itself to read the event and be welcomed,
# before the welcome says its host's timeout: the shortest any host gives a handler.
UNTIL_WELCOMED_MS = 10_000
ANSWER_LIMIT = 64 * 1024 * 1024
# Set in the inspector's own environment while it listens, so every hook it starts inherits it:
# a relay that finds it was started by the inspector's own hooks (the settings.json install
# changed is also the inspector's config) and must not call the inspector again.
INSIDE_INSPECTOR = "HOOK_INSPECTOR_LISTENING"
# The W3C trace context a host may give its hooks (Claude Code does with its tracing on,
# docs/opentelemetry.md): carried with every event, so the inspector's spans of the event join
# the host's own trace.
TRACEPARENT, TRACESTATE = "TRACEPARENT", "TRACESTATE"
TRACE_CONTEXT = (TRACEPARENT, TRACESTATE)


def greeting(name: str, pid: int, proof: str | None, host: str, timeout_ms: int | None) -> bytes:
    message = {
        GREETING_KEY: WIRE_VERSION,
        "name": name,
        "pid": pid,
        "proof": proof,
        COMMAND_KEY: {"host": host, "timeout_ms": timeout_ms},
    }
    return json.dumps(message).encode() + b"\n"


def welcome(timeout_ms: int, env_prefixes: Sequence[str]) -> bytes:
    facts = {"timeout_ms": timeout_ms, "env_prefixes": list(env_prefixes)}
    return json.dumps({WELCOME_KEY: WIRE_VERSION, "ok": True, COMMAND_KEY: facts}).encode() + b"\n"


def welcomed_facts(line: bytes) -> tuple[int | None, tuple[str, ...]]:
    """The host's handler timeout (None if not said) and the prefixes of the variables it sets
    for its hooks, from a welcome that wire.refusal() accepted."""
    facts = json.loads(line).get(COMMAND_KEY)
    if not isinstance(facts, dict):
        return None, ()
    timeout_ms, prefixes = facts.get("timeout_ms"), facts.get("env_prefixes")
    if not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool) or timeout_ms <= 0:
        timeout_ms = None
    if not isinstance(prefixes, list):
        return timeout_ms, ()
    return timeout_ms, tuple(prefix for prefix in prefixes if isinstance(prefix, str) and prefix)


def host_env(prefixes: Sequence[str], environ: Mapping[str, str]) -> dict[str, str]:
    """The variables of `environ` a host set for its hooks, by their names' `prefixes`, and the
    W3C trace context (TRACE_CONTEXT) whatever the prefixes."""
    wanted = tuple(prefixes)
    env = {key: value for key, value in environ.items() if key.startswith(wanted)} if wanted else {}
    env.update((name, environ[name]) for name in TRACE_CONTEXT if name in environ)
    return env


def event(stdin: bytes, env: Mapping[str, str], cwd: str) -> bytes:
    text = stdin.decode("utf-8", errors="surrogateescape")
    message = {"stdin": text, "env": dict(env), "cwd": cwd}
    return json.dumps(message, ensure_ascii=False).encode("utf-8", "surrogateescape")


def answer(stdout: str, stderr: str, exit_code: int) -> bytes:
    message = {"stdout": stdout, "stderr": stderr, "exit_code": exit_code}
    return json.dumps(message, ensure_ascii=False).encode("utf-8", "backslashreplace") + b"\n"


class BadAnswer(ValueError):
    """The inspector's line is not an answer; the message says why."""


def read_answer(line: bytes) -> tuple[str, str, int]:
    try:
        message: object = json.loads(line)
    except (ValueError, RecursionError):
        raise BadAnswer("not JSON") from None
    if not isinstance(message, dict):
        raise BadAnswer("not a JSON object")
    stdout, stderr, code = message.get("stdout"), message.get("stderr"), message.get("exit_code")
    if not isinstance(stdout, str) or not isinstance(stderr, str):
        raise BadAnswer("stdout and stderr must be strings")
    if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code <= 255:
        raise BadAnswer("exit_code must be a whole number from 0 to 255")
    return stdout, stderr, code
