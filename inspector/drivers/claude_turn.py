"""Play scenario turns the way Claude Code fires its hooks, with no LLM.

Per turn: UserPromptSubmit; then, for each tool call of each round, PreToolUse, the tool (unless
a hook denied it) and PostToolUse (PostToolUseFailure when the scenario says the tool failed);
after the final answer, Stop. `continue: false` from any hook ends the turn there.

A blocked Stop sends its reason to Claude, which goes on and answers again; Stop then fires with
`stop_hook_active: true`. A scenario cannot script that answer (a turn ends at its first round
without tool calls), so the runner repeats the final answer and fires Stop once more. If that is
blocked too, the turn ends as `stop_loop`: Claude Code would keep going as long as the hook
blocks.

Each hook's stdin carries session_id (the scenario's session), transcript_path (where Claude Code
would keep the transcript; the runner writes none), cwd (the project folder), permission_mode and
hook_event_name, plus the event's own fields. A tool's `tool_response` is its scripted result,
decoded when it is a JSON object or array, else the text itself.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from inspector.drivers.scenario import Scenario, ScriptedCall, Turn
from inspector.pipeline.claude_answer import BLOCK, DEFER, DENY, STOP
from inspector.pipeline.claude_outcome import EventOutcome
from inspector.protocol.claude_events import (
    POST_TOOL_USE,
    POST_TOOL_USE_FAILURE,
    PRE_TOOL_USE,
    USER_PROMPT_SUBMIT,
)
from inspector.protocol.claude_events import STOP as STOP_EVENT

JSONObject = dict[str, Any]

SOURCE = "scenario"
PERMISSION_MODE = "default"

COMPLETED = "completed"
PROMPT_BLOCKED = "prompt_blocked"  # UserPromptSubmit blocked: the prompt is erased
STOPPED = "stopped"  # a hook answered continue: false
DEFERRED = "deferred"  # PreToolUse deferred the call: a headless run ends to be resumed later
STOP_LOOP = "stop_loop"  # Stop was blocked again with stop_hook_active: true


class ClaudeEvents(Protocol):
    """What the runner needs of ClaudeHooks."""

    project_dir: str

    async def fire(
        self, event: str, payload: JSONObject, *, source: str, turn: str | None = None
    ) -> EventOutcome: ...


@dataclass(slots=True)
class ToolUse:
    tool_use_id: str
    tool: str
    tool_input: JSONObject  # what the tool got, after any updatedInput (or would have got)
    ran: bool
    response: Any = None  # the tool_response, or the error when the tool failed
    is_error: bool = False
    feedback: str = ""  # what the hooks told Claude about the call: a denial or a block


@dataclass(slots=True)
class ClaudeTurnOutcome:
    turn_id: str
    status: str = COMPLETED
    reason: str = ""  # why the turn ended early: the block reason or the stopReason
    final_content: str = ""
    events: list[EventOutcome] = field(default_factory=list)  # in the order they fired
    tool_uses: list[ToolUse] = field(default_factory=list)
    context: list[str] = field(default_factory=list)  # what the hooks added to Claude's context
    stop_reasons: list[str] = field(default_factory=list)  # blocked Stops: what Claude was told


class _TurnEnded(Exception):
    def __init__(self, status: str, reason: str) -> None:
        super().__init__(status)
        self.status = status
        self.reason = reason


class ClaudeTurnRunner:
    def __init__(
        self,
        hooks: ClaudeEvents,
        *,
        permission_mode: str = PERMISSION_MODE,
        transcript_path: str | None = None,
    ) -> None:
        self.hooks = hooks
        self.permission_mode = permission_mode
        self.transcript_path = transcript_path
        self._turns = 0
        self._calls = 0

    async def run(self, scenario: Scenario) -> list[ClaudeTurnOutcome]:
        return [await self.run_turn(scenario, turn) for turn in scenario.turns]

    async def run_turn(self, scenario: Scenario, turn: Turn) -> ClaudeTurnOutcome:
        self._turns += 1
        outcome = ClaudeTurnOutcome(f"turn-{self._turns}")
        play = _Play(self, scenario, outcome)
        try:
            await play.prompt(turn.user)
            for rnd in turn.rounds:
                for call in rnd.tool_calls:
                    await play.tool(call)
            outcome.final_content = turn.rounds[-1].content
            await play.stop()
        except _TurnEnded as ended:
            outcome.status, outcome.reason = ended.status, ended.reason
        return outcome

    def next_tool_use_id(self) -> str:
        self._calls += 1
        return f"toolu_{self._calls:04d}"

    def common(self, scenario: Scenario, event: str) -> JSONObject:
        cwd = self.hooks.project_dir
        return {
            "session_id": scenario.session,
            "transcript_path": self.transcript_path or _transcript_path(cwd, scenario.session),
            "cwd": cwd,
            "permission_mode": self.permission_mode,
            "hook_event_name": event,
        }


class _Play:
    """One turn in progress."""

    def __init__(
        self, runner: ClaudeTurnRunner, scenario: Scenario, outcome: ClaudeTurnOutcome
    ) -> None:
        self.runner = runner
        self.scenario = scenario
        self.outcome = outcome

    async def fire(self, event: str, fields: JSONObject) -> EventOutcome:
        payload = {**self.runner.common(self.scenario, event), **fields}
        result = await self.runner.hooks.fire(
            event, payload, source=SOURCE, turn=self.outcome.turn_id
        )
        self.outcome.events.append(result)
        self.outcome.context.extend(result.context)
        if result.verdict == STOP:
            raise _TurnEnded(STOPPED, result.reason)
        return result

    async def prompt(self, text: str) -> None:
        result = await self.fire(USER_PROMPT_SUBMIT, {"prompt": text})
        if result.verdict == BLOCK:
            raise _TurnEnded(PROMPT_BLOCKED, result.reason)

    async def tool(self, call: ScriptedCall) -> None:
        tool_use_id = self.runner.next_tool_use_id()
        fields: JSONObject = {
            "tool_name": call.tool,
            "tool_input": call.arguments,
            "tool_use_id": tool_use_id,
        }
        before = await self.fire(PRE_TOOL_USE, fields)
        if before.verdict == DEFER:
            raise _TurnEnded(DEFERRED, before.reason)
        if before.verdict == DENY:
            self.outcome.tool_uses.append(
                ToolUse(tool_use_id, call.tool, call.arguments, ran=False, feedback=before.reason)
            )
            return
        if before.updated_input is not None:
            fields["tool_input"] = before.updated_input
        use = ToolUse(tool_use_id, call.tool, fields["tool_input"], ran=True)
        self.outcome.tool_uses.append(use)
        if call.error is not None:
            use.response, use.is_error = call.error, True
            failure = {**fields, "error": call.error, "is_interrupt": False}
            after = await self.fire(POST_TOOL_USE_FAILURE, failure)
        else:
            use.response = _tool_response(call.result)
            after = await self.fire(POST_TOOL_USE, {**fields, "tool_response": use.response})
        if after.verdict == BLOCK:
            use.feedback = after.reason

    async def stop(self) -> None:
        active = False
        while True:
            fields = {
                "stop_hook_active": active,
                "last_assistant_message": self.outcome.final_content,
            }
            result = await self.fire(STOP_EVENT, fields)
            if result.verdict != BLOCK:
                return
            self.outcome.stop_reasons.append(result.reason)
            if active:
                raise _TurnEnded(STOP_LOOP, result.reason)
            active = True


def _tool_response(result: str) -> Any:
    try:
        value = json.loads(result)
    except ValueError:
        return result
    return value if isinstance(value, (dict, list)) else result


def _transcript_path(cwd: str, session: str) -> str:
    folder = re.sub(r"[^A-Za-z0-9]", "-", cwd)
    return str(Path.home() / ".claude" / "projects" / folder / f"{session}.jsonl")
