"""Journal records: the public JSONL contract. Every record has `type` and `ts`."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, ClassVar

from inspector.findings.finding import Finding
from inspector.journal.record_fields import (
    RecordFieldError,
    check_field,
    described,
    fits_by_field,
    shapes,
)

__all__ = ["Finding"]  # records carry findings; most readers import both from here

# Exchange statuses. `ok` means a result arrived; everything else says why not.
STATUS_OK = "ok"
STATUS_ERROR = "error"  # the hook answered with a JSON-RPC error
STATUS_TIMEOUT = "timeout"
STATUS_EXITED = "exited"  # the process exited while the call was pending
STATUS_INVALID = "invalid"  # an answer arrived but PicoClaw could not decode it
STATUS_NOT_SENT = "not_sent"  # the hook was not running
STATUS_DROPPED = "dropped"  # held by intercept and dropped by hand
STATUS_PENDING = "pending"
STATUS_HELD = "held"  # stopped by intercept, waiting for the human
STATUS_CANCELLED = "cancelled"  # the caller stopped waiting (the turn or the app ended)

# The states a hook's Lifecycle record can say: a process's (a manual hook and a plugin harness
# use some of them). `exited` is one that ended on its own; `stopped`, one the inspector stopped.
STARTING, READY, FAILED, EXITED, RESTARTING, STOPPING, STOPPED = (
    "starting",
    "ready",
    "failed",
    "exited",
    "restarting",
    "stopping",
    "stopped",
)
HOOK_STATES = (STARTING, READY, FAILED, EXITED, RESTARTING, STOPPING, STOPPED)


def now() -> float:
    return time.time()


@cache
def field_names(cls: type) -> tuple[str, ...]:
    """A record class's fields in order; dataclasses.fields is too slow for every record."""
    return tuple(f.name for f in fields(cls))


@dataclass(slots=True)
class Record:
    type: ClassVar[str] = "record"
    ts: float = field(default_factory=now)
    seq: int = 0  # position in the journal, set on append
    # Whose rules the record follows (a host's name: inspector/hosts/registry.py); set by its
    # maker, or by the journal on append to the session's host.
    host: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        # mypy takes classes for unhashable when matching Hashable (python/mypy#20409)
        for name in field_names(type(self)):  # type: ignore[arg-type]
            value = getattr(self, name)
            if name == "findings":
                value = [finding.to_json() for finding in value]
            data[name] = value
        return data

    @property
    def findings_list(self) -> list[Finding]:
        return getattr(self, "findings", [])


@dataclass(slots=True)
class Exchange(Record):
    """One request to one hook and what came of it."""

    type: ClassVar[str] = "exchange"
    hook: str = ""
    method: str = ""
    request: dict[str, Any] | None = None  # the JSON-RPC message as sent
    response: dict[str, Any] | None = None  # the JSON-RPC message as received
    error: str | None = None
    status: str = STATUS_PENDING
    duration_ms: float | None = None
    findings: list[Finding] = field(default_factory=list)
    source: str = ""  # scenario, composer, replay, check, relay:<name>
    turn: str | None = None
    action: str | None = None  # the action or verdict the host took from the answer
    rpc_id: int | None = None
    raw_request: str | None = None  # the exact line on the wire, without its newline
    raw_response: str | None = None
    edited: bool = False  # changed by hand while held
    deadline: float | None = None  # when a live agent stops waiting (a relayed request)
    # a relayed request: the agent's one deadline for the whole chain behind the relay, and each
    # hook's share of it in chain order, {"hook", "used_ms", "left_ms" (for the next hook)}
    deadline_ms: int | None = None
    deadline_use: list[dict[str, Any]] | None = None
    # held at the agent's entry to a stage, before any hook (no hook: every hook gets the call)
    stage_entry: bool = False
    # command hooks only: raw_request is the stdin, raw_response the stdout
    exit_code: int | None = None
    stderr: str | None = None
    cwd: str | None = None  # the folder it ran in (a relayed event: the live agent's hook's)
    # a relayed event: the W3C trace context the host gave its hook (TRACEPARENT, TRACESTATE),
    # the span in the host's own trace that the exchange's spans join (otel/)
    traceparent: str | None = None
    tracestate: str | None = None
    # an http hook's run: raw_request is the body POSTed, raw_response the answer's body
    http_status: int | None = None

    @property
    def by_command(self) -> bool:
        """A command hook's run (one process per call): its method is the host's event name,
        never a `hook.` JSON-RPC method."""
        return not self.method.startswith("hook.")

    @property
    def params(self) -> Any:
        """What was sent: a JSON-RPC request's params, or a command hook's whole stdin context."""
        request = self.request or {}
        return request if self.by_command else request.get("params")

    @property
    def tool(self) -> Any:
        """The tool the request is about: `tool` in JSON-RPC params, `tool_name` in a command
        hook's context (j-cli and Claude Code both call it that), `toolName` in an OpenClaw
        handler's ctx; None when there is none."""
        request = self.request
        if not isinstance(request, dict):
            return None
        if not self.method.startswith("hook."):  # by_command, inlined: filters call this a lot
            tool = request.get("tool_name")
            ctx = request.get("ctx") if tool is None else None
            return ctx.get("toolName") if isinstance(ctx, dict) else tool
        params = request.get("params")
        return params.get("tool") if isinstance(params, dict) else None


@dataclass(slots=True)
class Event(Record):
    """A runtime event the host emitted to observers."""

    type: ClassVar[str] = "event"
    kind: str = ""
    severity: str = "info"
    payload: dict[str, Any] = field(default_factory=dict)  # the full events.Event envelope
    source: str = ""
    delivered: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


@dataclass(slots=True)
class Stderr(Record):
    type: ClassVar[str] = "stderr"
    hook: str = ""
    line: str = ""
    pid: int | None = None


@dataclass(slots=True)
class Noise(Record):
    """A stdout line from a hook that answered no pending call."""

    type: ClassVar[str] = "noise"
    hook: str = ""
    line: str = ""
    size: int = 0  # bytes on the wire, without the newline
    pid: int | None = None
    exchange: int | None = None  # seq of the exchange it belonged to, for late answers
    findings: list[Finding] = field(default_factory=list)


@dataclass(slots=True)
class Lifecycle(Record):
    type: ClassVar[str] = "lifecycle"
    hook: str = ""
    state: str = ""  # starting, ready, failed, exited, restarting, stopping, stopped
    pid: int | None = None
    detail: str = ""
    exit_code: int | None = None
    picoclaw: str = ""


@dataclass(slots=True)
class Decision(Record):
    """What a stage of the pipeline decided, and who decided it."""

    type: ClassVar[str] = "decision"
    stage: str = ""
    verdict: str = ""
    by: str = ""  # the hook that decided, "human", or "" when nobody objected
    reason: str = ""
    source: str = ""
    turn: str | None = None
    tool: str | None = None
    chain: list[dict[str, Any]] = field(default_factory=list)  # [{"hook", "action", "status"}]


@dataclass(slots=True)
class Reload(Record):
    """A config or hook script changed on disk and the running hooks followed (or did not)."""

    type: ClassVar[str] = "reload"
    files: list[str] = field(default_factory=list)  # what changed, as the watcher saw it
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    restarted: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    duration_ms: float = 0.0
    error: str | None = None  # the config error; the running hooks were left as they were
    trigger: str = "watch"  # watch, or hand
    failed: list[str] = field(default_factory=list)  # added or restarted, but did not start

    @property
    def changes(self) -> str:
        """What the reload did to the hooks, in one line ("" when it changed none)."""
        return "; ".join(
            f"{label} {', '.join(names)}"
            for label, names in (
                ("added", self.added),
                ("removed", self.removed),
                ("restarted", self.restarted),
                ("failed to start", self.failed),
            )
            if names
        )


RECORD_TYPES: dict[str, type[Record]] = {
    cls.type: cls for cls in (Exchange, Event, Stderr, Noise, Lifecycle, Decision, Reload)
}


def record_from_json(data: object) -> Record:
    """Rebuild a record from its JSON form; unknown keys are ignored so newer files still load.
    A value of the wrong type is a RecordFieldError (a ValueError) naming its key."""
    if type(data) is not dict:
        raise RecordFieldError(
            None, f"not a journal record: expected an object, got {described(data)}"
        )
    kind = data.get("type")
    cls = RECORD_TYPES.get(kind) if type(kind) is str else None
    if cls is None:
        known = ", ".join(sorted(RECORD_TYPES))
        if "type" not in data:
            raise RecordFieldError(
                None, f'not a journal record: no "type" key (expected one of: {known})'
            )
        shown = json.dumps(kind) if type(kind) is str and len(kind) <= 40 else described(kind)
        message = f"unknown record type {shown} (expected one of: {known})"
        raise RecordFieldError("type", message)
    # mypy takes classes for unhashable when matching Hashable (python/mypy#20409)
    tests = fits_by_field(cls)  # type: ignore[arg-type]
    kwargs = {}
    for key, value in data.items():
        fits = tests.get(key)
        if fits is not None:
            if not fits(value):
                shape = shapes(cls)[key]  # type: ignore[arg-type]  # python/mypy#20409 again
                check_field(shape, key, value)  # raises, naming the key
            kwargs[key] = value
    if "findings" in kwargs:
        kwargs["findings"] = [Finding.from_json(item) for item in kwargs["findings"]]
    return cls(**kwargs)
