"""A relayed call's deadline: the agent stops waiting after its own timeout, so every hook, hold
and human prompt the call reaches must end in time for the inspector to answer first.

The deadline travels in a context variable, as APPROVAL_CHAIN does: asyncio copies it into the
call's tasks, the Hook protocol stays unchanged and concurrent calls never mix their deadlines.
Journal subscribers run in the task that appends, so a request held at the gate during the call
can be tied to it (and dropped when the deadline comes) without the gate knowing about relays."""

from __future__ import annotations

import contextvars
import time
from dataclasses import dataclass, field
from typing import Any

from inspector.journal.records import Exchange, Finding
from inspector.jsonrpc.stages import STAGE_FOR_METHOD
from inspector.relay.wire import answer_by_ms

# Room for the hop back to the relay, and then again for the pipeline to finish after its hooks
# are cut off: 5 % of the agent's deadline, between 10 and 100 ms.
MARGIN_FRACTION = 0.05
MARGIN_S = (0.01, 0.1)
FALLBACK = "deadline"  # decided_by / Decision.by of an answer the deadline forced
DEADLINE_CODE = "agent-deadline"


@dataclass(slots=True)
class CallDeadline:
    """The agent gives up `agent_ms` after it sent the request, and the relay answers by itself a
    little earlier (wire.answer_by_ms). We answer by `answer_by`, a margin before the relay; hooks
    and humans are cut off at `hooks_by`, a margin earlier still, so their own timeout rule (fail
    open, fail closed, a manual hook's on_timeout) decides rather than our fallback."""

    agent_ms: int
    kind: str  # "interceptor" or "approval": which of the agent's deadlines this is
    received: float = field(default_factory=time.monotonic)
    relay: str = ""  # the name the agent knows the relay by
    held: list[Exchange] = field(default_factory=list)  # requests of this call held at the gate
    cut_short: list[str] = field(default_factory=list)  # hooks the deadline stopped waiting for
    use: list[dict[str, Any]] = field(default_factory=list)  # each hook's share, in chain order
    # what the agent's answer owes to the inspector being kinder than the agent's own host
    kinder: list[Finding] = field(default_factory=list)

    @property
    def margin_s(self) -> float:
        low, high = MARGIN_S
        return max(low, min(high, self.agent_ms / 1000 * MARGIN_FRACTION))

    @property
    def answer_by(self) -> float:
        return self.received + answer_by_ms(self.agent_ms) / 1000 - self.margin_s

    @property
    def hooks_by(self) -> float:
        return self.answer_by - self.margin_s

    def left_s(self) -> float:
        """Time left to answer the agent: a held request's countdown."""
        return max(0.0, self.answer_by - time.monotonic())

    def hooks_left_ms(self) -> int:
        return max(0, int((self.hooks_by - time.monotonic()) * 1000))

    def describe(self) -> str:
        return f"the agent's {self.agent_ms} ms {self.kind} deadline"

    def passed(self) -> str:
        return f"deadline passed: hook-inspector's hooks did not answer within {self.describe()}"

    def note_use(self, hook: str, started: float, finished: float) -> None:
        left_ms = max(0.0, (self.hooks_by - finished) * 1000)
        used = {"hook": hook, "used_ms": _ms(finished - started), "left_ms": round(left_ms, 3)}
        self.use.append(used)


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def deadline_summary(exchange: Exchange) -> str | None:
    """One line per hook: its share of a relayed call's deadline, and what it left."""
    if exchange.deadline_ms is None or exchange.deadline_use is None:
        return None
    lines = [f"the agent's {exchange.deadline_ms} ms {_kind(exchange.method)} deadline"]
    for use in exchange.deadline_use:
        lines.append(f"  {use['hook']} used {use['used_ms']:.1f} ms, left {use['left_ms']:.0f} ms")
    return "\n".join(lines)


def _kind(method: str) -> str:
    return "approval" if STAGE_FOR_METHOD.get(method) == "approve_tool" else "interceptor"


CALL_DEADLINE: contextvars.ContextVar[CallDeadline | None] = contextvars.ContextVar(
    "call_deadline", default=None
)
