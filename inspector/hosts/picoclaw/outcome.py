"""What PicoClaw makes of one hook answer: the line as its reader takes it, and the decision."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from inspector.findings.finding import Finding
from inspector.hosts.picoclaw.gojson.decode import RawValue
from inspector.hosts.picoclaw.gojson.encode import marshal
from inspector.hosts.picoclaw.gojson.schemas import PARAMS
from inspector.jsonrpc.stages import (
    ABORT_TURN,
    CONTINUE,
    DENY_TOOL,
    HARD_ABORT,
    MODIFY,
    RESPOND,
)

SKIPPED = "skipped"  # the call failed: an interceptor is skipped (fail open)
DISCARDED = "discarded"  # an action the stage does not take: warned about and ignored
APPROVED = "approved"
DENIED = "denied"
STOPS = frozenset({RESPOND, DENY_TOOL, ABORT_TURN, HARD_ABORT, DENIED})
# What HookManager does with each action per interceptor stage; anything else is DISCARDED.
TAKEN = {
    "before_llm": {
        CONTINUE: CONTINUE,
        MODIFY: CONTINUE,
        ABORT_TURN: ABORT_TURN,
        HARD_ABORT: HARD_ABORT,
    },
    "after_llm": {
        CONTINUE: CONTINUE,
        MODIFY: CONTINUE,
        ABORT_TURN: ABORT_TURN,
        HARD_ABORT: HARD_ABORT,
    },
    "before_tool": {
        CONTINUE: CONTINUE,
        MODIFY: CONTINUE,
        RESPOND: RESPOND,
        DENY_TOOL: DENY_TOOL,
        ABORT_TURN: ABORT_TURN,
        HARD_ABORT: HARD_ABORT,
    },
    "after_tool": {
        CONTINUE: CONTINUE,
        MODIFY: CONTINUE,
        ABORT_TURN: ABORT_TURN,
        HARD_ABORT: HARD_ABORT,
    },
}

LineKind = Literal["answer", "undecodable", "no-id", "too-long"]


@dataclass(frozen=True, slots=True)
class RpcLine:
    """One stdout line as PicoClaw's reader takes it (processHookRPCMessage)."""

    kind: LineKind
    rpc_id: int = 0
    method: str = ""
    result: RawValue | None = None  # None: no result member
    error: dict[str, Any] | None = None  # {code, message}
    problem: str = ""  # Go's decode error, for an undecodable line
    invalid_utf8: bool = False  # bytes that are not UTF-8, read as U+FFFD one byte each


@dataclass(frozen=True, slots=True)
class LogEntry:
    """A logger.WarnCF call PicoClaw makes (component "hooks")."""

    message: str
    fields: dict[str, str]


@dataclass(slots=True)
class Decoded:
    """What PicoClaw's HookManager makes of one hook's answer at one stage."""

    stage: str
    hook: str
    taken: str  # continue, respond, deny_tool, abort_turn, hard_abort, skipped, discarded,
    # approved or denied
    said: str = ""  # the action as decoded from the answer ("" when absent or undecodable)
    reason: str = ""  # the reason PicoClaw goes on with (a stop's or a denial's)
    said_reason: str = ""  # the reason as decoded from the answer
    value: dict[str, Any] | None = None  # the typed object passed on (interceptors)
    hook_result: dict[str, Any] | None = None  # a before_tool ToolResult (respond)
    answer: dict[str, Any] | None = None  # the typed answer; None when the call failed
    error: str = ""  # the Go error of a failed call
    messages_restored: bool = False  # the before_llm guard put the messages back
    tools_restored: bool = False  # ... and the tool definitions
    logs: list[LogEntry] = field(default_factory=list)
    # works out the findings (answer_findings.findings_for), the first time they are asked for
    explain: Callable[[], list[Finding]] | None = field(default=None, repr=False, compare=False)
    _findings: list[Finding] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def findings(self) -> list[Finding]:
        if self._findings is None:
            self._findings = self.explain() if self.explain is not None else []
        return self._findings

    @property
    def stops(self) -> bool:
        """Whether the chain ends here (the approval chain at the first denial)."""
        return self.taken in STOPS

    def value_json(self) -> str:
        """The passed-on object as Go's json.Marshal writes it."""
        return marshal(self.value, PARAMS[self.stage])
