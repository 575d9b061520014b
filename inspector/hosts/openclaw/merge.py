"""OpenClaw's rules for combining the answers of one hook's handlers, applied one answer at a
time in call order (higher priority first), because a terminal answer means the handlers after
it are never called.

before_tool_call: the last `params` wins until the first `requireApproval`, which freezes them;
the first `requireApproval` wins; `block: true` is terminal and `block: false` is no decision; a
handler that throws or times out blocks the tool. message_sending: `cancel: true` is terminal,
`cancel: false` no decision, rewritten `content` goes on to the next handler. Other decision
hooks: each field's last answer wins, a failing handler is skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.findings.finding import Finding
from inspector.hosts.openclaw.findings import finding

JSONObject = dict[str, Any]

BEFORE_TOOL_CALL = "before_tool_call"
MESSAGE_SENDING = "message_sending"
HOOK_FAILED = "Tool call blocked because before_tool_call hook failed"
BLOCKED_BY_PLUGIN = "Tool call blocked by plugin hook"

# Verdicts of a whole hook, and what each handler's answer did in the chain
ALLOW = "allow"
BLOCK = "block"
APPROVAL = "approval"
CANCEL = "cancel"
NO_DECISION = "none"
CHANGED = "changed"
FAILED = "failed"


@dataclass(frozen=True)
class HandlerAnswer:
    """One handler's call: what it returned (None for nothing), or how it failed."""

    result: Any = None
    threw: str | None = None
    timed_out: bool = False

    @property
    def fields(self) -> JSONObject:
        return self.result if isinstance(self.result, dict) else {}


@dataclass
class Merge:
    """The combined answer so far of one hook's handlers, for the original `event`."""

    hook_name: str
    event: JSONObject
    verdict: str = ALLOW
    reason: str = ""
    params: JSONObject | None = None  # before_tool_call: the params the tool gets
    approval: JSONObject | None = None
    fields: JSONObject = field(default_factory=dict)  # the merged answer of any other hook
    stopped: bool = False  # a terminal answer: no further handler is called

    def next_event(self) -> JSONObject:
        """What the next handler gets: the original event (message_sending: with the content
        rewritten so far)."""
        if self.hook_name == MESSAGE_SENDING and "content" in self.fields:
            return self.event | {"content": self.fields["content"]}
        return self.event

    def add(self, answer: HandlerAnswer) -> tuple[str, list[Finding]]:
        """Fold in the next handler's answer: what it did in the chain, and its findings."""
        if self.hook_name == BEFORE_TOOL_CALL:
            return self._tool_call(answer)
        if answer.threw is not None or answer.timed_out:
            return FAILED, []  # logged and skipped
        if self.hook_name == MESSAGE_SENDING:
            return self._message(answer.fields)
        self.fields |= {key: value for key, value in answer.fields.items() if value is not None}
        return (CHANGED if answer.fields else NO_DECISION), []

    def _tool_call(self, answer: HandlerAnswer) -> tuple[str, list[Finding]]:
        if answer.threw is not None or answer.timed_out:
            self._block(HOOK_FAILED)
            code = "openclaw-handler-threw" if answer.threw else "openclaw-handler-timeout"
            return BLOCK, [finding(code, answer.threw or "no answer within its timeoutMs")]
        found: list[Finding] = []
        fields = answer.fields
        if fields.get("block") is False:
            found.append(finding("openclaw-block-false", "block: false does not allow the call"))
        params = fields.get("params")
        if isinstance(params, dict):
            if self.approval is not None:
                message = "requireApproval came first: these params never reach the tool"
                found.append(finding("openclaw-params-after-approval", message))
            else:
                self.params = dict(params)
        if isinstance(fields.get("blockReason"), str):
            self.reason = fields["blockReason"]
        if fields.get("block") is True:
            self._block(self.reason or BLOCKED_BY_PLUGIN)
            return BLOCK, found
        approval = fields.get("requireApproval")
        if isinstance(approval, dict) and self.approval is None:
            self.approval = approval
            self.verdict = APPROVAL
            return APPROVAL, found
        return (CHANGED if isinstance(params, dict) else NO_DECISION), found

    def _message(self, fields: JSONObject) -> tuple[str, list[Finding]]:
        if fields.get("cancel") is True:
            self.verdict, self.stopped = CANCEL, True
            return CANCEL, []
        found = []
        if fields.get("cancel") is False:
            found.append(finding("openclaw-block-false", "cancel: false does not send anyway"))
        if isinstance(fields.get("content"), str):
            self.fields["content"] = fields["content"]
            return CHANGED, found
        return NO_DECISION, found

    def _block(self, reason: str) -> None:
        self.verdict, self.reason, self.stopped = BLOCK, reason, True

    def tool_params(self) -> JSONObject:
        """The params the tool runs with: the hooks' params shallow-merged over the original."""
        original = self.event.get("params")
        base = original if isinstance(original, dict) else {}
        return base | (self.params or {})
