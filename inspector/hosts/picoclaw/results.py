"""What a stage of the pipeline hands back to the agent loop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class StageResult:
    """The outcome of one interceptor stage (before/after llm, before/after tool)."""

    action: str  # continue, respond, deny_tool, abort_turn or hard_abort
    value: dict[str, Any]  # the object after the chain: what the host goes on with
    reason: str = ""
    decided_by: str | None = None  # the hook whose answer ended the chain
    hook_result: dict[str, Any] | None = None  # the ToolResult of a before_tool respond
    chain: list[dict[str, Any]] = field(default_factory=list)
    changed: bool = False  # the chain's value differs from what was sent, compared as Go would


@dataclass(slots=True)
class ApprovalResult:
    approved: bool
    reason: str = ""
    decided_by: str | None = None
    chain: list[dict[str, Any]] = field(default_factory=list)
