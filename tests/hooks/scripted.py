#!/usr/bin/env python3
"""A fake process hook whose every answer is scripted, for tests of the host side.

The script is a JSON object, given as argv[1] or in env HOOK_SCRIPT (default `{}`):

    {"<method>": <behaviour> | [<behaviour>, ...], ..., "on_eof": <eof behaviour>}

A method key is a full name ("hook.before_tool"), a short one ("before_tool") or "*" (any
request without its own key). A list gives the behaviour of the 1st, 2nd, ... call of that method;
the last entry repeats. A behaviour is an object with at most one answer key:

    result: <json>         answer with this result
    echo: "<action>"       answer {"action": <action>, <key>: params}; <key> is request,
                           response, call, result for before_llm, after_llm, before_tool, after_tool
    error: {code, message} answer with this JSON-RPC error
    never: true            never answer this call
    exit: <code>           exit with this code instead of answering (a crash mid-call)

and no answer key means the default answer: hello {}, approve_tool {"approved": true}, the other
stages {"action": "continue"}, anything else error -32601 "method not found".
Modifiers, applied in this order:

    stderr: "<line>" | [...]       lines written to stderr first
    delay_ms: <ms>                 wait before the rest (on a thread: later calls may overtake it)
    print_before: "<line>" | [...] raw lines written to stdout before the answer (e.g. not JSON)
    print_bytes_before: "<base64>" | [...]
                                   exact bytes written to stdout before the answer (each ends
                                   its own lines; e.g. bytes that are not UTF-8)
    oversize_before: <bytes>       a JSON line {"padding":"xx..."} this long (newline not counted)
    patch: <object>                with echo: deep-merged into the echoed params
    id: "wrong" | "string" | "zero" | "null" | "missing" | <int>
                                   the answer's id: id+1000, "<id>", 0, null, no id key, literal
    duplicate: true                send the answer twice
    then_exit: <code>              exit with this code right after answering

"on_eof" takes stderr, delay_ms and exit (default 0): what happens when stdin closes. Delayed
answers still pending are sent before the process ends.

If env HOOK_RECORD names a file, every line received is appended to it, as received.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import sys
import threading
import time
from typing import IO, Any

ANSWER_KEYS = {"result", "echo", "error", "never", "exit"}
MODIFIER_KEYS = {
    "stderr",
    "delay_ms",
    "print_before",
    "print_bytes_before",
    "oversize_before",
    "patch",
    "id",
    "duplicate",
    "then_exit",
}
EOF_KEYS = {"stderr", "delay_ms", "exit"}
STAGE_KEYS = {
    "hook.before_llm": "request",
    "hook.after_llm": "response",
    "hook.before_tool": "call",
    "hook.after_tool": "result",
}
ID_MODES = {
    "wrong": lambda rpc_id: rpc_id + 1000,
    "string": str,
    "zero": lambda rpc_id: 0,
    "null": lambda rpc_id: None,
}

Behaviour = dict[str, Any]
stdout_lock = threading.Lock()


class ScriptError(Exception):
    pass


def load_script(text: str) -> tuple[dict[str, list[Behaviour]], Behaviour]:
    """The behaviours per full method name, and the on_eof behaviour."""
    script = json.loads(text)
    if not isinstance(script, dict):
        raise ScriptError("the script must be a JSON object")
    on_eof = script.pop("on_eof", {})
    check_keys("on_eof", on_eof, EOF_KEYS)
    methods: dict[str, list[Behaviour]] = {}
    for key, value in script.items():
        method = key if key == "*" or key.startswith("hook.") else f"hook.{key}"
        behaviours = value if isinstance(value, list) and value else [value]
        for behaviour in behaviours:
            check_keys(key, behaviour, ANSWER_KEYS | MODIFIER_KEYS)
            answers = ANSWER_KEYS & behaviour.keys()
            if len(answers) > 1:
                raise ScriptError(f"{key}: more than one answer key: {sorted(answers)}")
            if "echo" in behaviour and method not in STAGE_KEYS:
                raise ScriptError(f"{key}: echo needs before/after llm/tool")
        methods[method] = behaviours
    return methods, on_eof


def check_keys(where: str, behaviour: Any, allowed: set[str]) -> None:
    if not isinstance(behaviour, dict):
        raise ScriptError(f"{where}: a behaviour must be a JSON object, not {behaviour!r}")
    unknown = behaviour.keys() - allowed
    if unknown:
        raise ScriptError(f"{where}: unknown keys {sorted(unknown)}")


def write_stdout(text: str) -> None:
    with stdout_lock:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def as_lines(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else value


def write_stderr(lines: str | list[str]) -> None:
    for line in as_lines(lines):
        print(line, file=sys.stderr, flush=True)


def hard_exit(code: int) -> None:
    """Exit now, from any thread, like a crashing process (no cleanup, nothing more answered)."""
    sys.stderr.flush()
    with stdout_lock:
        sys.stdout.flush()
        os._exit(code)


def deep_merge(base: Any, patch: Any) -> Any:
    if not (isinstance(base, dict) and isinstance(patch, dict)):
        return patch
    merged = dict(base)
    for key, value in patch.items():
        merged[key] = deep_merge(base.get(key), value)
    return merged


def default_result(method: str) -> dict[str, Any] | None:
    """What a well-behaved hook answers; None means method not found."""
    if method == "hook.hello":
        return {}
    if method == "hook.approve_tool":
        return {"approved": True}
    if method in STAGE_KEYS:
        return {"action": "continue"}
    return None


def reply_body(method: str, params: Any, behaviour: Behaviour) -> dict[str, Any]:
    """The result or error part of the answer."""
    if "error" in behaviour:
        return {"error": behaviour["error"]}
    if "result" in behaviour:
        return {"result": behaviour["result"]}
    if "echo" in behaviour:
        echoed = deep_merge(params, behaviour.get("patch", {}))
        return {"result": {"action": behaviour["echo"], STAGE_KEYS[method]: echoed}}
    result = default_result(method)
    if result is None:
        return {"error": {"code": -32601, "message": "method not found"}}
    return {"result": result}


def answer(message: dict[str, Any], behaviour: Behaviour) -> None:
    """Carry out one behaviour for one request."""
    if "stderr" in behaviour:
        write_stderr(behaviour["stderr"])
    if behaviour.get("delay_ms"):
        time.sleep(behaviour["delay_ms"] / 1000)
    for line in as_lines(behaviour.get("print_before", [])):
        write_stdout(line)
    for chunk in as_lines(behaviour.get("print_bytes_before", [])):
        with stdout_lock:
            sys.stdout.flush()
            sys.stdout.buffer.write(base64.b64decode(chunk))
            sys.stdout.buffer.flush()
    if "oversize_before" in behaviour:
        padding = "x" * (behaviour["oversize_before"] - len('{"padding":""}'))
        write_stdout(json.dumps({"padding": padding}, separators=(",", ":")))
    if "exit" in behaviour:
        hard_exit(behaviour["exit"])
    if behaviour.get("never"):
        return
    reply: dict[str, Any] = {"jsonrpc": "2.0"}
    id_mode = behaviour.get("id")
    if isinstance(id_mode, int):
        reply["id"] = id_mode
    elif id_mode in ID_MODES:
        reply["id"] = ID_MODES[id_mode](message["id"])
    elif id_mode != "missing":
        reply["id"] = message["id"]
    reply.update(reply_body(message["method"], message.get("params"), behaviour))
    line = json.dumps(reply, separators=(",", ":"))
    write_stdout(line)
    if behaviour.get("duplicate"):
        write_stdout(line)
    if "then_exit" in behaviour:
        hard_exit(behaviour["then_exit"])


def serve(methods: dict[str, list[Behaviour]], record: IO[bytes] | None) -> None:
    """Answer requests until stdin closes."""
    calls: dict[str, int] = {}
    for raw in sys.stdin.buffer:
        if record:
            record.write(raw.rstrip(b"\n") + b"\n")
            record.flush()
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message or "method" not in message:
            continue  # notifications are only recorded
        key = message["method"] if message["method"] in methods else "*"
        behaviours = methods.get(key, [{}])
        calls[key] = calls.get(key, 0) + 1
        behaviour = behaviours[min(calls[key], len(behaviours)) - 1]
        if behaviour.get("delay_ms"):
            threading.Thread(target=answer, args=(message, behaviour)).start()
        else:
            answer(message, behaviour)


def main() -> int:
    text = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HOOK_SCRIPT", "{}")
    try:
        methods, on_eof = load_script(text)
    except (ValueError, ScriptError) as exc:
        print(f"scripted: bad script: {exc}", file=sys.stderr)
        return 2
    record_path = os.environ.get("HOOK_RECORD")
    with open(record_path, "ab") if record_path else contextlib.nullcontext() as record:
        serve(methods, record)
    if "stderr" in on_eof:
        write_stderr(on_eof["stderr"])
    time.sleep(on_eof.get("delay_ms", 0) / 1000)
    return on_eof.get("exit", 0)


if __name__ == "__main__":
    sys.exit(main())
