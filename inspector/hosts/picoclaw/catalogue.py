"""One entry per method of PicoClaw's process-hook protocol: what it is, when it is sent, what
a hook must answer, and what PicoClaw does when the answer fails."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inspector.jsonrpc import stages

MethodKind = Literal["request", "notification"]

_FAIL_OPEN = (
    "PicoClaw logs a warning and skips this hook (fail open); the chain goes on with the "
    "object unchanged."
)


@dataclass(frozen=True, slots=True)
class MethodSpec:
    name: str
    stage: str | None
    kind: MethodKind
    summary: str
    result_key: str | None  # the result field that carries the replacement object
    allowed_actions: frozenset[str]
    result_shape: str
    sent_when: str
    mode: str | None  # the hello mode that turns the method on
    on_failure: str  # what PicoClaw does on a JSON-RPC error, a decode failure or a timeout
    removed: bool = False
    note: str = ""


def _stage(
    stage: str, *, summary: str, result_shape: str, sent_when: str, mode: str, on_failure: str
) -> MethodSpec:
    return MethodSpec(
        name=stages.METHOD_FOR_STAGE[stage],
        stage=stage,
        kind="request",
        summary=summary,
        result_key=stages.RESULT_KEY.get(stage),
        allowed_actions=stages.ALLOWED_ACTIONS.get(stage, frozenset()),
        result_shape=result_shape,
        sent_when=sent_when,
        mode=mode,
        on_failure=on_failure,
    )


_SPECS = (
    MethodSpec(
        name=stages.HELLO,
        stage=None,
        kind="request",
        summary="Handshake: the host names the hook and the modes it will use.",
        result_key=None,
        allowed_actions=frozenset(),
        result_shape="any JSON object, null or no result; the content is ignored",
        sent_when="once, first (id 1), right after the process starts",
        mode=None,
        on_failure=(
            "hello fails: PicoClaw closes the hook, unmounts every hook it loaded in the same "
            "pass and the agent loop does not start (the gateway stops silently)."
        ),
        note="PicoClaw sets no deadline on hello; a hook that never answers blocks startup.",
    ),
    _stage(
        "before_llm",
        summary="Inspect or rewrite the LLM request (model, messages, tools, options).",
        result_shape=(
            '{"action", "reason"?, "request"?: the whole LLMHookRequest}; a request replaces '
            "the whole object, and changes to system messages or tool definitions are reverted"
        ),
        sent_when="before every LLM call, when intercept has before_llm or after_llm",
        mode="llm",
        on_failure=_FAIL_OPEN,
    ),
    _stage(
        "after_llm",
        summary="Inspect or rewrite the LLM response.",
        result_shape=(
            '{"action", "reason"?, "response"?: the whole envelope {"meta", "context", "model", '
            '"response": LLMResponse}}'
        ),
        sent_when="after every LLM response, when intercept has before_llm or after_llm",
        mode="llm",
        on_failure=_FAIL_OPEN,
    ),
    _stage(
        "before_tool",
        summary="Rewrite, answer (respond), deny or abort a tool call before it runs.",
        result_shape=(
            '{"action", "reason"?, "call"?: the whole ToolCallHookRequest with tool and '
            'arguments, "result"?: ToolResult for respond}'
        ),
        sent_when=(
            "before each tool call that passed the turn profile, when intercept has "
            "before_tool or after_tool"
        ),
        mode="tool",
        on_failure=_FAIL_OPEN,
    ),
    _stage(
        "approve_tool",
        summary="Approve or deny a tool call; anything but approved true is a denial.",
        result_shape='{"approved": bool, "reason"?: string}',
        sent_when=(
            "after before_tool (unless it responded, denied or aborted), when intercept has "
            "approve_tool"
        ),
        mode="approve",
        on_failure=(
            'PicoClaw denies the tool (fail closed) with reason tool approval hook "<name>" '
            "failed (or timed out); the first denial ends the approval chain."
        ),
    ),
    _stage(
        "after_tool",
        summary="Inspect or rewrite a tool's result.",
        result_shape=(
            '{"action", "reason"?, "result"?: the whole envelope {"tool", "arguments", '
            '"result": ToolResult, "duration", ...}}'
        ),
        sent_when="after each tool that ran, when intercept has before_tool or after_tool",
        mode="tool",
        on_failure=_FAIL_OPEN,
    ),
    MethodSpec(
        name=stages.RUNTIME_EVENT,
        stage=None,
        kind="notification",
        summary="A runtime event (the full events.Event envelope); no answer.",
        result_key=None,
        allowed_actions=frozenset(),
        result_shape="none: a notification has no id and gets no answer",
        sent_when="for each observed runtime event kind, when observe is non-empty",
        mode="observe",
        on_failure=(
            "PicoClaw logs a warning when the write fails or outlasts the observer timeout "
            "(500 ms by default); events that overflow its 64-event buffer are dropped."
        ),
    ),
    MethodSpec(
        name=stages.LEGACY_EVENT,
        stage=None,
        kind="notification",
        summary="Legacy observer event (PascalCase Kind as a number, Time, Meta, Payload).",
        result_key=None,
        allowed_actions=frozenset(),
        result_shape="none: a notification has no id and gets no answer",
        sent_when="never by PicoClaw at HEAD",
        mode="observe",
        on_failure="not sent, so it cannot fail",
        removed=True,
        note="PicoClaw removed hook.event on 2026-04-26 (b954e6b8d); use hook.runtime_event.",
    ),
)

METHODS: dict[str, MethodSpec] = {spec.name: spec for spec in _SPECS}


def get(method: str) -> MethodSpec | None:
    return METHODS.get(method)
