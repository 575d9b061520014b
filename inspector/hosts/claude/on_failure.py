"""A handler's `onFailure` (Claude Code 2.1.332): with "block", a run that failed or timed out
counts as exit 2, so the action the event guards (a tool call, a permission request, a prompt)
is blocked, with `[<command or URL>]: failed; blocking because onFailure is "block"` as the
reason. It is ignored on Stop, SubagentStop, TaskCompleted and TeammateIdle, and "continue" (the
default) leaves the failure a non-blocking error."""

from __future__ import annotations

from dataclasses import replace

from inspector.config.model import CommandHookSpec
from inspector.hosts.claude.answer import BLOCK, ERROR, HookAnswer
from inspector.hosts.claude.events import EXIT_2_REACHES_CLAUDE

BLOCK_ON_FAILURE = "block"
IGNORED_ON = frozenset({"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"})


def on_failure(
    spec: CommandHookSpec, event: str, answer: HookAnswer, timed_out: bool
) -> HookAnswer:
    """`answer` as the handler's onFailure leaves it."""
    if spec.on_failure != BLOCK_ON_FAILURE or answer.action != ERROR:
        return answer
    if event in IGNORED_ON or event not in EXIT_2_REACHES_CLAUDE:
        return answer
    target = spec.http.url if spec.http else spec.command
    how = "timed out" if timed_out else "failed"
    reason = f'[{target}]: {how}; blocking because onFailure is "block"'
    detail = "" if timed_out else answer.reason
    return replace(answer, action=BLOCK, reason=f"{reason}\n{detail}" if detail else reason)
