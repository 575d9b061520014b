"""Play scenario turns the way `codex exec` fires its hooks (codex-cli 0.171.0), with no model.

A session: SessionStart (source "startup"), each turn, then SessionEnd (reason "other"). Per
turn: UserPromptSubmit (a block or a continue: false ends the turn before the model sees the
prompt); per round, for each tool call in order, PreToolUse, then the tool unless a hook blocked
it, then PostToolUse; after the final answer, Stop. The model's shell tool (`exec_command`,
`{"cmd": ...}`, or a scenario's `Bash`) reaches hooks as tool_name Bash with tool_input
{"command": ...}, and its tool_response is the command's output as text.

What the model reads, as the real CLI sends it: a blocked PreToolUse keeps the command from
running and the call's output is `Command blocked by PreToolUse hook: REASON. Command: COMMAND`;
an allow with updatedInput runs the rewritten input; a PostToolUse block (or continue: false)
replaces the call's output with its reason (stopReason), and the turn goes on. additionalContext
is a developer message of its own (SessionStart's before the prompt, UserPromptSubmit's after
it, a tool event's before the call's output). A blocked Stop reaches the model as a user message
`<hook_prompt hook_run_id="stop:N:FILE">REASON</hook_prompt>`; it answers again (the runner
repeats the final answer) and Stop fires with stop_hook_active true. Codex sets no limit on
that; the runner ends the turn after STOP_BLOCKS blocks in a row (`stop_loop`), where a scenario
could not script more answers anyway. A call asking to leave the sandbox (escalation.py) is
refused after PreToolUse as `codex exec` refuses it, or with `approve_for_me` fires
PermissionRequest first, whose allow runs it. A round whose reported `tokens` reach
model_auto_compact_token_limit compacts after its tool calls, and a final answer's at the start
of the next turn (compaction.py): PreCompact, PostCompact, SessionStart (source "compact"); a
continue: false there fires Interrupt and ends the turn with no Stop. A spawn_agent call starts
a subagent, whose own turn (subagent.py) plays after the call's PostToolUse.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from inspector.hosts.codex.answer import ALLOW, BLOCK, STOP
from inspector.hosts.codex.compaction import AUTO, Usage
from inspector.hosts.codex.escalation import (
    NEVER,
    REVIEW_NOT_PLAYED,
    asks_to_escalate,
    permission_input,
    rejected,
)
from inspector.hosts.codex.events import (
    INTERRUPT,
    MODEL_SHELL_TOOL,
    PERMISSION_REQUEST,
    POST_COMPACT,
    POST_TOOL_USE,
    PRE_COMPACT,
    PRE_TOOL_USE,
    SESSION_END,
    SESSION_START,
    SHELL_TOOL,
    SUBAGENT_START,
    SUBAGENT_STOP,
    USER_PROMPT_SUBMIT,
)
from inspector.hosts.codex.events import STOP as STOP_EVENT
from inspector.hosts.codex.outcome import CodexOutcome, HookRun
from inspector.hosts.codex.subagent import (
    SPAWN_AGENT,
    WAIT_AGENT,
    WAIT_AGENT_HOOK_NAME,
    agent_id,
    spawn_response,
    subagent_session,
    wait_input,
    wait_response,
)
from inspector.hosts.codex.templates import PERMISSION_MODE, CodexSession
from inspector.scenario import Round, Scenario, ScriptedCall, Turn

JSONObject = dict[str, Any]

SOURCE = "scenario"
STOP_BLOCKS = 8  # blocked Stops in a row after which the runner ends the turn (Codex: never)

COMPLETED = "completed"
PROMPT_BLOCKED = "prompt_blocked"
STOPPED = "stopped"
STOP_LOOP = "stop_loop"


class CodexEvents(Protocol):
    """What the runner needs of CodexHooks."""

    project_dir: str

    async def fire(
        self,
        event: str,
        payload: JSONObject,
        *,
        source: str,
        turn: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> CodexOutcome: ...


@dataclass(slots=True)
class ToolUse:
    tool_use_id: str
    tool: str  # as hooks see it (Bash for the shell)
    tool_input: JSONObject  # what the tool got, after any updatedInput
    ran: bool
    told: str = ""  # what the model reads of the call


@dataclass(slots=True)
class CodexTurnOutcome:
    turn_id: str
    status: str = COMPLETED
    reason: str = ""
    final_content: str = ""
    events: list[CodexOutcome] = field(default_factory=list)
    tool_uses: list[ToolUse] = field(default_factory=list)
    context: list[str] = field(default_factory=list)  # additionalContext the model got
    stop_reasons: list[str] = field(default_factory=list)


class _TurnEnded(Exception):
    def __init__(self, status: str, reason: str) -> None:
        super().__init__(status)
        self.status, self.reason = status, reason


def hook_tool(call: ScriptedCall) -> tuple[str, JSONObject]:
    """The tool name and input hooks see for the model's call."""
    if call.tool in (MODEL_SHELL_TOOL, SHELL_TOOL):
        command = call.arguments.get("cmd", call.arguments.get("command", ""))
        return SHELL_TOOL, {"command": command}
    return call.tool, dict(call.arguments)


def blocked_words(reason: str, tool_input: JSONObject) -> str:
    """What the model reads of a call a PreToolUse hook blocked."""
    return f"Command blocked by PreToolUse hook: {reason}. Command: {tool_input.get('command', '')}"


class CodexTurnRunner:
    def __init__(
        self,
        hooks: CodexEvents,
        *,
        transcript_path: str | None = None,
        approve_for_me: bool = False,
        auto_compact_limit: int | None = None,
    ) -> None:
        self.hooks = hooks
        self.transcript_path = transcript_path
        self.approve_for_me = approve_for_me  # codex exec --approve-for-me (escalation.py)
        self._usage = Usage(auto_compact_limit)  # model_auto_compact_token_limit
        self._turns = 0
        self._calls = 0
        # each subagent's id and final answer (None: a hook stopped its prompt)
        self._spawned: list[tuple[str, str | None]] = []

    async def run(self, scenario: Scenario) -> list[CodexTurnOutcome]:
        session = CodexSession(
            _session_id(scenario.session),
            self.hooks.project_dir,
            model=scenario.model,
            permission_mode="default" if self.approve_for_me else PERMISSION_MODE,
            transcript_path=self.transcript_path or "",
        )
        start = await self._fire(session, SESSION_START, {"source": "startup"}, None)
        outcomes = [await self.run_turn(session, turn) for turn in scenario.turns]
        end = await self._fire(session, SESSION_END, {"reason": "other"}, None)
        if outcomes:
            outcomes[0].events.insert(0, start)
            outcomes[0].context[:0] = start.context
            outcomes[-1].events.append(end)
        return outcomes

    async def run_turn(self, session: CodexSession, turn: Turn) -> CodexTurnOutcome:
        self._turns += 1
        session.new_turn()
        outcome = CodexTurnOutcome(f"turn-{self._turns}")
        try:
            if self._usage.reached():  # the last turn's final answer reported it
                await self._compact(session, outcome)
            await self._step(session, outcome, USER_PROMPT_SUBMIT, {"prompt": turn.user})
            for rnd in turn.rounds:
                await self._round(session, outcome, rnd)
                if self._usage.after(rnd):
                    await self._compact(session, outcome)
            outcome.final_content = turn.rounds[-1].content if turn.rounds else ""
            await self._stop(session, outcome)
        except _TurnEnded as ended:
            outcome.status, outcome.reason = ended.status, ended.reason
        return outcome

    def next_tool_use_id(self) -> str:
        self._calls += 1
        return f"call_{self._calls:04d}"

    async def _fire(
        self, session: CodexSession, event: str, fields: JSONObject, turn: str | None
    ) -> CodexOutcome:
        payload = session.payload(event, fields)
        return await self.hooks.fire(event, payload, source=SOURCE, turn=turn)

    async def _step(
        self, session: CodexSession, outcome: CodexTurnOutcome, event: str, fields: JSONObject
    ) -> CodexOutcome:
        result = await self._fire(session, event, fields, outcome.turn_id)
        outcome.events.append(result)
        outcome.context.extend(result.context)
        if event == USER_PROMPT_SUBMIT and result.verdict in (BLOCK, STOP):
            raise _TurnEnded(PROMPT_BLOCKED, result.reason)
        if result.verdict == STOP and event != POST_TOOL_USE:
            raise _TurnEnded(STOPPED, result.reason)
        return result

    async def _round(self, session: CodexSession, outcome: CodexTurnOutcome, rnd: Round) -> None:
        for call in rnd.tool_calls:
            tool, tool_input = hook_tool(call)
            if call.tool == WAIT_AGENT:
                tool, tool_input = WAIT_AGENT_HOOK_NAME, wait_input(call, self._spawned)
            use = ToolUse(self.next_tool_use_id(), tool, tool_input, ran=True)
            outcome.tool_uses.append(use)
            ids = {"tool_name": tool, "tool_input": tool_input, "tool_use_id": use.tool_use_id}
            before = await self._step(session, outcome, PRE_TOOL_USE, ids)
            if before.verdict == BLOCK:
                use.ran, use.told = False, blocked_words(before.reason, tool_input)
                continue
            if before.updated_input is not None:
                use.tool_input = before.updated_input
            if asks_to_escalate(call) and (
                refusal := await self._escalate(session, outcome, call, use)
            ):
                use.ran, use.told = False, refusal
                continue
            child = None
            if call.tool == SPAWN_AGENT:
                child = subagent_session(session, len(self._spawned) + 1)
                self._spawned.append((agent_id(child), call.for_llm))
            use.told = self._output(call, child)
            after = {
                "tool_name": tool,
                "tool_input": use.tool_input,
                "tool_response": use.told,
                "tool_use_id": use.tool_use_id,
            }
            said = await self._step(session, outcome, POST_TOOL_USE, after)
            if said.verdict in (BLOCK, STOP):
                use.told = said.reason  # in place of the output
            if child:
                await self._subagent(session, child, outcome, call)

    def _output(self, call: ScriptedCall, child: CodexSession | None) -> str:
        """What the model reads of a call that ran."""
        if child:
            return spawn_response(child)
        if call.tool == WAIT_AGENT:
            return wait_response(self._spawned)
        return call.for_llm

    async def _subagent(
        self,
        parent: CodexSession,
        child: CodexSession,
        outcome: CodexTurnOutcome,
        call: ScriptedCall,
    ) -> None:
        """The subagent's turn: its task as its prompt, the call's result as its final answer."""
        agent = dict(child.agent or {})
        outcome.events.append(await self._fire(child, SUBAGENT_START, agent, outcome.turn_id))
        task = {"prompt": str(call.arguments.get("message", ""))}
        prompt = await self._fire(child, USER_PROMPT_SUBMIT, task, outcome.turn_id)
        outcome.events.append(prompt)
        if prompt.verdict in (BLOCK, STOP):
            self._spawned = [
                (spawned, None if spawned == agent_id(child) else answer)
                for spawned, answer in self._spawned
            ]
            return
        stopping = replace(child, transcript_path=parent.transcript_path)  # the parent's rollout
        for blocked in range(STOP_BLOCKS):
            fields = {
                "agent_transcript_path": None,
                "stop_hook_active": blocked > 0,
                **agent,
                "last_assistant_message": call.for_llm,
            }
            result = await self._fire(stopping, SUBAGENT_STOP, fields, outcome.turn_id)
            outcome.events.append(result)
            if result.verdict != BLOCK:
                return

    async def _escalate(
        self, session: CodexSession, outcome: CodexTurnOutcome, call: ScriptedCall, use: ToolUse
    ) -> str:
        """What refuses a call that asks to leave the sandbox, in Codex's words; "" if it runs."""
        if not self.approve_for_me:
            return NEVER
        command = str(use.tool_input.get("command", ""))
        fields = {"tool_name": use.tool, "tool_input": permission_input(command, call)}
        answer = await self._step(session, outcome, PERMISSION_REQUEST, fields)
        if answer.verdict == ALLOW:
            return ""
        if answer.verdict == BLOCK:
            return rejected(answer.reason)
        return rejected(REVIEW_NOT_PLAYED)

    async def _compact(self, session: CodexSession, outcome: CodexTurnOutcome) -> None:
        try:
            await self._step(session, outcome, PRE_COMPACT, {"trigger": AUTO})
            self._usage.compacted()
            await self._step(session, outcome, POST_COMPACT, {"trigger": AUTO})
        except _TurnEnded:
            outcome.events.append(await self._fire(session, INTERRUPT, {}, outcome.turn_id))
            raise
        await self._step(session, outcome, SESSION_START, {"source": "compact"})

    async def _stop(self, session: CodexSession, outcome: CodexTurnOutcome) -> None:
        for blocked in range(STOP_BLOCKS):
            fields = {
                "stop_hook_active": blocked > 0,
                "last_assistant_message": outcome.final_content,
            }
            result = await self._step(session, outcome, STOP_EVENT, fields)
            if result.verdict != BLOCK:
                return
            outcome.stop_reasons += [
                hook_prompt(run) for run in result.runs if run.answer.action == BLOCK
            ]
        raise _TurnEnded(STOP_LOOP, result.reason)


def hook_prompt(run: HookRun) -> str:
    """What the model reads of a Stop hook's block: a user message naming the hook's run."""
    return f'<hook_prompt hook_run_id="{run.run_id}">{run.answer.reason}</hook_prompt>'


def _session_id(name: str) -> str:
    """A UUID for the scenario's session, the same every run (Codex's ids are UUIDs)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"hook-inspector:codex:{name}"))
