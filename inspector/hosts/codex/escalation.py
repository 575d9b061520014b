"""A shell call that asks to leave Codex's sandbox (`exec_command` with `sandbox_permissions:
"require_escalated"` and a `justification`), as codex exec 0.171.0 treats it after PreToolUse:

- by default (`approval: never`) Codex refuses it at once, and PermissionRequest never fires;
- with `--approve-for-me`, PermissionRequest fires (tool_input: the command, and the
  justification as description; permission_mode "default"): a hook's allow runs the command, a
  deny refuses it in the words below; with no hook deciding, Codex asks its automatic review (a
  model call the runner does not play: the call is refused as by a deny without a reason).
"""

from __future__ import annotations

from typing import Any

from inspector.scenario import ScriptedCall

ESCALATED = "require_escalated"
NEVER = (
    "approval policy is Never; reject command \u2014 you cannot ask for escalated permissions if"
    " the approval policy is Never"
)
REVIEW_NOT_PLAYED = "left to Codex's automatic review, which the runner does not play"


def asks_to_escalate(call: ScriptedCall) -> bool:
    return call.arguments.get("sandbox_permissions") == ESCALATED


def permission_input(command: str, call: ScriptedCall) -> dict[str, Any]:
    """PermissionRequest's tool_input for the call."""
    tool_input: dict[str, Any] = {"command": command}
    if isinstance(call.arguments.get("justification"), str):
        tool_input["description"] = call.arguments["justification"]
    return tool_input


def rejected(reason: str) -> str:
    """What the model reads of an escalation a PermissionRequest hook denied."""
    quoted = reason.replace("\\", "\\\\").replace('"', '\\"')
    return f'exec_command failed: CreateProcess {{ message: "Rejected(\\"{quoted}\\")" }}'
