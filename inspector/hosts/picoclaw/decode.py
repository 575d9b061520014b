"""One hook answer, read exactly as PicoClaw's host reads it (hook_process.go, hooks.go): the
typed answer, what HookManager does with it, the object it goes on with, and its logs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from inspector.findings.finding import Finding
from inspector.hosts.picoclaw.clone import clone, guard_before_llm
from inspector.hosts.picoclaw.findings import findings_for, mount_findings
from inspector.hosts.picoclaw.gojson.decode import GoDecodeError, decode_node, unmarshal
from inspector.hosts.picoclaw.gojson.fast_decode import NotPlain, decode_plain, read_plain
from inspector.hosts.picoclaw.gojson.schemas import (
    ANSWERS,
    HELLO_RESULT,
    PARAMS,
    REPLACEMENT_KEY,
    RPC_MESSAGE,
)
from inspector.hosts.picoclaw.gojson.syntax import GoSyntaxError
from inspector.hosts.picoclaw.gojson.types import zero
from inspector.hosts.picoclaw.outcome import (
    APPROVED,
    DENIED,
    DISCARDED,
    SKIPPED,
    TAKEN,
    Decoded,
    LogEntry,
    RpcLine,
)
from inspector.jsonrpc.stages import CONTINUE, RESPOND

MAX_LINE = 1 << 20  # bufio.Scanner's limit in PicoClaw's reader, the newline included


def read_line(line: bytes) -> RpcLine:
    """`line` is one line of hook stdout without its newline. An undecodable line is logged and
    skipped, one without an id (or id 0) is ignored, one over 1 MiB stops the reader for good."""
    if len(line) + 1 > MAX_LINE:
        return RpcLine("too-long", problem=f"line of {len(line) + 1} bytes is over {MAX_LINE}")
    return read_message(line)


def read_message(line: bytes, *, matched: bool = False) -> RpcLine:
    """`line` decoded as PicoClaw's reader decodes a line, whatever its length (the inspector
    reads on past a line over 1 MiB). `matched`: the line is a recorded answer already matched
    to its call, read again whatever its id (a person's approval has none)."""
    if line.endswith(b"\r"):
        line = line[:-1]  # bufio.ScanLines drops it
    try:
        message = decode_plain(read_plain(line), RPC_MESSAGE)
    except NotPlain:
        try:
            message = unmarshal(line, RPC_MESSAGE)
        except (GoSyntaxError, GoDecodeError) as error:
            return RpcLine("undecodable", problem=str(error))
    if message["id"] == 0 and not matched:
        return RpcLine("no-id", method=message["method"])
    return RpcLine(
        "answer",
        message["id"],
        message["method"],
        message["result"],
        message["error"],
        invalid_utf8=not line.isascii() and not _is_utf8(line),
    )


# Answers read off a hook's stdout, by their text, until read_recorded reads each again.
_READINGS: dict[str, RpcLine] = {}
_READINGS_KEPT = 64


def remember_reading(text: str, line: RpcLine) -> None:
    """`line` is read_message of the answer whose text (go_text of its bytes) is `text`: the
    chain reading the recorded answer (read_recorded) need not decode it again. Kept for a
    valid UTF-8 answer only, whose text gives back its very bytes."""
    if line.kind == "answer" and not line.invalid_utf8:
        _READINGS[text] = line
        if len(_READINGS) > _READINGS_KEPT:
            del _READINGS[next(iter(_READINGS))]


def read_recorded(text: str) -> RpcLine:
    """A recorded answer, already matched to its call, as PicoClaw's reader reads it."""
    line = _READINGS.pop(text, None)
    return line if line is not None else read_message(text.encode(), matched=True)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def typed_params(stage: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """A stage's params (plain JSON values) as HookManager holds them: decoded into the Go
    struct and cloned, as it is before the first hook is called."""
    try:
        typed = decode_plain(params, PARAMS[stage])
    except NotPlain:
        typed = unmarshal(json.dumps(params).encode(), PARAMS[stage])
    return clone(stage, typed)


def decode_answer(stage: str, line: RpcLine, current: dict[str, Any], hook: str) -> Decoded:
    """What PicoClaw does with `line`, the answer to the `stage` call that sent `current` (a
    typed value, see typed_params) to the hook named `hook`."""
    if stage == "approve_tool":
        decoded = _approval(line, hook)
    else:
        decoded = _interceptor(stage, line, current, hook)
    decoded.explain = lambda: findings_for(decoded, line, current)
    return decoded


def hello_failure(line: RpcLine, hook: str) -> str:
    """The mount error PicoClaw reports for this hook.hello answer, or "" when hello succeeds."""
    error, _ = _call(line, hook, "hook.hello", HELLO_RESULT)
    return f'start process hook "{hook}": {error}' if error else ""


def hello_findings(line: RpcLine, hook: str) -> list[Finding]:
    """Findings for a hook.hello answer: none unless PicoClaw fails to mount the hook."""
    return mount_findings(line, hello_failure(line, hook))


def _call(line: RpcLine, hook: str, method: str, answer_type: Any) -> tuple[str, Any]:
    """ProcessHook.call: the Go error, or the result decoded into a fresh `answer_type`."""
    if line.error is not None:
        return f'process hook "{hook}" {method} failed: {line.error["message"]}', None
    if line.result is None:
        return "", zero(answer_type)
    if line.result.plain is not None:
        try:
            return "", decode_plain(line.result.plain, answer_type)
        except NotPlain:
            pass
    try:
        return "", decode_node(line.result.node, answer_type)
    except GoDecodeError as error:
        return f'decode process hook "{hook}" {method} result: {error}', None


def _approval(line: RpcLine, hook: str) -> Decoded:
    error, answer = _call(line, hook, "hook.approve_tool", ANSWERS["approve_tool"])
    if error:
        log = LogEntry(
            "Approval hook failed", {"hook": hook, "stage": "approve_tool", "error": error}
        )
        reason = f'tool approval hook "{hook}" failed'
        return Decoded("approve_tool", hook, DENIED, reason=reason, error=error, logs=[log])
    said_reason = answer["reason"]
    if answer["approved"]:
        return Decoded("approve_tool", hook, APPROVED, said_reason=said_reason, answer=answer)
    return Decoded(
        "approve_tool", hook, DENIED, reason=said_reason, said_reason=said_reason, answer=answer
    )


def _interceptor(stage: str, line: RpcLine, current: dict[str, Any], hook: str) -> Decoded:
    error, answer = _call(line, hook, f"hook.{stage}", ANSWERS[stage])
    if error:
        log = LogEntry("Interceptor hook failed", {"hook": hook, "stage": stage, "error": error})
        return Decoded(stage, hook, SKIPPED, value=current, error=error, logs=[log])
    said, said_reason = answer["action"], answer["reason"]
    proposed = answer[REPLACEMENT_KEY[stage]] or current  # no object: the one it was sent
    if stage == "before_tool" and answer["result"] is not None:
        proposed = {**proposed, "hook_result": answer["result"]}
    taken = TAKEN[stage].get(said or CONTINUE, DISCARDED)
    decoded = Decoded(
        stage, hook, taken, said=said, said_reason=said_reason, value=current, answer=answer
    )
    if taken == CONTINUE:
        decoded.value = proposed
        if stage == "before_llm":
            _guard(decoded, current, proposed)
    elif taken == RESPOND:
        decoded.value = proposed  # without a hook_result PicoClaw then runs the original call
        decoded.hook_result = proposed["hook_result"]
        decoded.reason = said_reason
    elif taken == DISCARDED:
        fields = {"hook": hook, "stage": stage, "action": said}
        decoded.logs.append(LogEntry("Hook returned unsupported action for stage", fields))
    else:
        decoded.reason = said_reason
    return decoded


def _guard(decoded: Decoded, current: dict[str, Any], proposed: dict[str, Any]) -> None:
    guarded, messages_restored, tools_restored = guard_before_llm(current, proposed)
    decoded.value = guarded
    decoded.messages_restored = messages_restored
    decoded.tools_restored = tools_restored
    if messages_restored:
        message = "Hook attempted to modify system prompt; preserving original messages"
        decoded.logs.append(LogEntry(message, {"hook": decoded.hook}))
    if tools_restored:
        message = "Hook attempted to modify tool definitions; preserving original tools"
        decoded.logs.append(LogEntry(message, {"hook": decoded.hook}))
