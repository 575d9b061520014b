"""An OpenClaw plugin's requireApproval in host mode goes to the same approval prompt as a
manual hook's hook.approve_tool (allow once, allow always by rule, deny with a reason)."""

from __future__ import annotations

import time
from typing import Literal

from inspector.hooks.approvals import DENY, TIMEOUT, ApprovalPrompt, Approvals, Resolution
from inspector.hooks.severity import severity_of
from inspector.hosts.openclaw.chain import ApprovalAnswer, ApprovalRequest


class PromptApprover:
    def __init__(self, approvals: Approvals) -> None:
        self.approvals = approvals

    async def approve(self, request: ApprovalRequest) -> ApprovalAnswer | None:
        if self.approvals.unattended:
            return None
        timeout_s = request.timeout_ms / 1000
        on_timeout: Literal["allow", "deny"] = "allow" if request.allow_on_timeout else "deny"
        prompt = ApprovalPrompt(
            id=self.approvals.new_prompt_id(),
            exchange=request.exchange,
            hook=f"{request.plugin}: {request.title}",
            tool=request.tool,
            arguments=request.params,
            agent_id=request.agent_id,
            session_key=request.session_key,
            turn_id=request.turn,
            earlier=(),
            severity=severity_of(request.tool, request.params),
            deadline=time.monotonic() + timeout_s,
            timeout_s=timeout_s,
            on_timeout=on_timeout,
        )

        def no_answer() -> Resolution:
            reason = self.approvals.no_answer(prompt, f"timeoutBehavior: {on_timeout}")
            return Resolution(request.allow_on_timeout, reason, DENY, TIMEOUT)

        resolution = await self.approvals.ask(prompt, no_answer)
        if resolution is None:
            return None
        return ApprovalAnswer(resolution.approved, resolution.reason, resolution.by == TIMEOUT)
