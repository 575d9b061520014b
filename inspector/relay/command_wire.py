"""What a command relay and the inspector say to each other: one event per connection.

A command hook (Claude Code, j-cli) is one process per event, so a command relay connects, greets
as wire.py says with one more key,

    {"hook_inspector_relay": 2, "name": ..., "pid": ..., "proof": ...,
     "command": {"host": "claude" | "jcli", "timeout_ms": <the host's timeout for the handler>}}

reads the welcome, sends one JSON object and closes its sending side:

    {"stdin": "<what the host wrote to the hook's stdin>", "env": {"CLAUDE_...": "..."},
     "cwd": "<the hook's working directory>"}

and the inspector answers with one JSON line before `answer_by_ms(timeout_ms)` and closes:

    {"stdout": "...", "stderr": "...", "exit_code": 0}
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from inspector.relay.wire import GREETING_KEY, WIRE_VERSION

COMMAND_KEY = "command"
CLAUDE, JCLI = "claude", "jcli"
# The variables each host sets for its hooks (Claude Code: CLAUDE_PROJECT_DIR, CLAUDECODE,
# CLAUDE_CODE_*...; j-cli: JCLI_*), sent along with the event.
ENV_PREFIXES = {CLAUDE: ("CLAUDE",), JCLI: ("JCLI_",)}
# A handler's timeout when its config names none: Claude Code's 600 s, j-cli's 10 s.
DEFAULT_TIMEOUT_MS = {CLAUDE: 600_000, JCLI: 10_000}
ANSWER_LIMIT = 64 * 1024 * 1024
# Set in the inspector's own environment while it listens, so every hook it starts inherits it:
# a relay that finds it was started by the inspector's own hooks (the settings.json install
# changed is also the inspector's config) and must not call the inspector again.
INSIDE_INSPECTOR = "HOOK_INSPECTOR_LISTENING"


def greeting(name: str, pid: int, proof: str | None, host: str, timeout_ms: int) -> bytes:
    message = {
        GREETING_KEY: WIRE_VERSION,
        "name": name,
        "pid": pid,
        "proof": proof,
        COMMAND_KEY: {"host": host, "timeout_ms": timeout_ms},
    }
    return json.dumps(message).encode() + b"\n"


def host_env(host: str, environ: Mapping[str, str]) -> dict[str, str]:
    prefixes = ENV_PREFIXES[host]
    return {key: value for key, value in environ.items() if key.startswith(prefixes)}


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
