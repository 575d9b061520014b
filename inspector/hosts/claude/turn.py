"""Play scenario turns the way `claude -p` fires its hooks, with no LLM: as the Claude Code
release of the runner's version record (versions.py) does, the newest unless told otherwise.

A session: SessionStart (source "startup"), each turn, then SessionEnd (reason "other"). Per turn:
UserPromptSubmit; then per round, MessageDisplay when the model's message has text, and its tool
calls: PreToolUse for each, the tool (unless a hook refused it) and PostToolUse
(PostToolUseFailure when the scenario says the tool failed), then PostToolBatch with what the
model is told of each call; after the final answer, MessageDisplay and Stop.

`continue: false` ends the turn where it comes (after the tool, when PreToolUse said it: the tool
still runs, unless another hook denied it: then, as the version record says, the turn ends or the
model is asked again). A blocked Stop sends its reason to Claude, which goes on and answers
again; Stop then fires with `stop_hook_active: true`. A scenario cannot script that answer (a turn
ends at its first round without tool calls), so the runner repeats the final answer and fires
Stop again.
After 8 blocks in a row Claude Code ends the turn anyway: the turn is then `stop_loop`.

Each hook's stdin starts with the common fields of claude_session.ClaudeSession, in Claude Code's
order; its environment has Claude Code's variables. A tool's `tool_response` is its scripted
result, decoded when it is a JSON object or array, else the text itself. The runner runs no tool,
so `duration_ms` is 0.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from inspector.config.errors import ConfigError
from inspector.hosts.claude import feedback as claude_feedback
from inspector.hosts.claude.answer import ALLOW, BLOCK, DEFER, DENY, STOP
from inspector.hosts.claude.events import (
    PERMISSION_REQUEST,
    POST_TOOL_USE,
    POST_TOOL_USE_FAILURE,
    PRE_TOOL_USE,
    SESSION_START,
    USER_PROMPT_SUBMIT,
)
from inspector.hosts.claude.events import STOP as STOP_EVENT
from inspector.hosts.claude.outcome import EventOutcome
from inspector.hosts.claude.permission import permission_outcome
from inspector.hosts.claude.permission_layer import (
    ASK,
    PermissionCheck,
    PermissionLayer,
    suggestions,
)
from inspector.hosts.claude.permission_rules import MODES
from inspector.hosts.claude.templates import (
    MESSAGE_DISPLAY,
    POST_TOOL_BATCH,
    SESSION_END,
    ClaudeSession,
    session_uuid,
)
from inspector.hosts.claude.tool_schemas import schema_problems, schema_refusal, with_defaults
from inspector.hosts.claude.versions import NEWEST, ClaudeVersion, UnknownVersion, claude_version
from inspector.scenario import Round, Scenario, ScriptedCall, Turn

JSONObject = dict[str, Any]

SOURCE = "scenario"
PERMISSION_MODE = "default"
STOP_BLOCK_CAP = 8  # blocked Stops in a row after which Claude Code ends the turn anyway
# Tools Claude Code runs side by side when the model asks for several in one message. Bash joins
# them for commands it reads as read-only, which the runner does not try to tell apart.
CONCURRENT_TOOLS = frozenset({"Read", "Glob", "Grep", "WebFetch", "WebSearch"})

COMPLETED = "completed"
PROMPT_BLOCKED = "prompt_blocked"  # UserPromptSubmit blocked: the prompt is erased
STOPPED = "stopped"  # a hook answered continue: false
DEFERRED = "deferred"  # PreToolUse deferred the call: a headless run ends to be resumed later
STOP_LOOP = "stop_loop"  # Stop was blocked STOP_BLOCK_CAP times in a row


class ClaudeEvents(Protocol):
    """What the runner needs of ClaudeHooks."""

    project_dir: str
    permissions: PermissionLayer | None  # None: every call no hook refused runs

    def record_permission(
        self, check: PermissionCheck, tool: str, *, source: str, turn: str | None
    ) -> None: ...

    async def fire(
        self,
        event: str,
        payload: JSONObject,
        *,
        source: str,
        turn: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> EventOutcome: ...


@dataclass(slots=True)
class ToolUse:
    tool_use_id: str
    tool: str
    tool_input: JSONObject  # what the tool got, after any updatedInput (or would have got)
    ran: bool
    response: Any = None  # the tool_response, or the error when the tool failed
    is_error: bool = False
    feedback: str = ""  # what the hooks told Claude about the call, in Claude Code's words
    # what PostToolUse hooks told Claude in system messages of their own (2.1.332), in run order
    system_messages: list[str] = field(default_factory=list)
    asked_for: JSONObject = field(default_factory=dict)  # the model's own input

    @property
    def told(self) -> str:
        """The tool_result's text: what the model reads of the call."""
        if not self.ran:
            return self.feedback
        if self.is_error or isinstance(self.response, str):
            return str(self.response)
        if isinstance(self.response, dict) and "stdout" in self.response:
            out = str(self.response["stdout"]).rstrip("\n")
            return out or f"({self.tool} completed with no output)"
        return json.dumps(self.response)


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
        version: ClaudeVersion = NEWEST,
    ) -> None:
        self.hooks = hooks
        self.version = version
        self.permission_mode = permission_mode
        self.transcript_path = transcript_path
        self.layer = hooks.permissions  # the session's permission layer, in its mode
        self._turns = 0
        self._calls = 0

    async def run(self, scenario: Scenario) -> list[ClaudeTurnOutcome]:
        """The scenario's turns, as the Claude Code release it names (`claude_code:`) plays
        them, else as the runner's; ConfigError names a release not known here."""
        if scenario.claude_code is not None:
            try:
                self.version = claude_version(scenario.claude_code)
            except UnknownVersion as unknown:
                raise ConfigError(scenario.file, str(unknown), key="claude_code") from None
        layer = self.layer = _layer_for(scenario, self.hooks.permissions)
        session = ClaudeSession(
            session_uuid(scenario.session),
            self.hooks.project_dir,
            layer.mode(self.version) if layer is not None else self.permission_mode,
            self.transcript_path or "",
            version=self.version,
        )
        start = await self._session_event(session, SESSION_START, {"source": "startup"})
        outcomes = [await self.run_turn(session, turn) for turn in scenario.turns]
        end = await self._session_event(session, SESSION_END, {"reason": "other"})
        if outcomes:
            outcomes[0].events.insert(0, start)
            outcomes[0].context[:0] = start.context
            outcomes[-1].events.append(end)
        return outcomes

    async def run_turn(self, session: ClaudeSession, turn: Turn) -> ClaudeTurnOutcome:
        self._turns += 1
        outcome = ClaudeTurnOutcome(f"turn-{self._turns}")
        play = _Play(self, session, outcome)
        try:
            await play.prompt(turn.user)
            for rnd in turn.rounds:
                await play.round(rnd)
            outcome.final_content = turn.rounds[-1].content
            await play.stop()
        except _TurnEnded as ended:
            outcome.status, outcome.reason = ended.status, ended.reason
        return outcome

    async def _session_event(
        self, session: ClaudeSession, event: str, fields: JSONObject
    ) -> EventOutcome:
        """SessionStart or SessionEnd: they belong to no turn and stop nothing."""
        payload = session.payload(event, fields)
        return await self.hooks.fire(event, payload, source=SOURCE, env=session.env(event))

    def next_tool_use_id(self) -> str:
        self._calls += 1
        return f"toolu_{self._calls:04d}"


class _Play:
    """One turn in progress."""

    def __init__(
        self, runner: ClaudeTurnRunner, session: ClaudeSession, outcome: ClaudeTurnOutcome
    ) -> None:
        self.runner = runner
        self.session = session
        self.outcome = outcome
        self.turn_uuid = str(uuid.uuid4())

    async def fire(self, event: str, fields: JSONObject) -> EventOutcome:
        """Run `event`'s hooks; a `continue: false` ends the turn, but for PreToolUse, whose
        tool still runs first."""
        result = await self.runner.hooks.fire(
            event,
            self.session.payload(event, fields),
            source=SOURCE,
            turn=self.outcome.turn_id,
            env=self.session.env(event),
        )
        self.outcome.events.append(result)
        self.outcome.context.extend(result.context)
        if result.verdict == STOP and event != PRE_TOOL_USE:
            raise _TurnEnded(STOPPED, result.reason)
        return result

    async def prompt(self, text: str) -> None:
        self.session.new_prompt()
        result = await self.fire(USER_PROMPT_SUBMIT, {"prompt": text})
        if result.verdict == BLOCK:
            raise _TurnEnded(PROMPT_BLOCKED, result.reason)

    async def message(self, text: str) -> None:
        if text:
            fields = {
                "turn_id": self.turn_uuid,
                "message_id": str(uuid.uuid4()),
                "index": 0,
                "final": True,
                "delta": text,
            }
            await self.fire(MESSAGE_DISPLAY, fields)

    async def round(self, rnd: Round) -> None:
        await self.message(rnd.content)
        if not rnd.tool_calls:
            return
        uses: list[ToolUse] = []
        for batch in _batches(rnd.tool_calls):
            uses += await self.batch(batch)
        calls = [
            {
                "tool_name": use.tool,
                "tool_input": use.asked_for,
                "tool_use_id": use.tool_use_id,
                "tool_response": use.told,
            }
            for use in uses
        ]
        await self.fire(POST_TOOL_BATCH, {"tool_calls": calls})

    async def batch(self, calls: Sequence[ScriptedCall]) -> list[ToolUse]:
        """Calls Claude Code runs side by side: every PreToolUse at once, then each tool and
        its PostToolUse."""
        ids = [self.runner.next_tool_use_id() for _ in calls]
        decided = await asyncio.gather(
            *(self.before(call, tool_use_id) for call, tool_use_id in zip(calls, ids, strict=True))
        )
        deferred = [before for _, before in decided if before.verdict == DEFER]
        if deferred:
            raise _TurnEnded(DEFERRED, deferred[0].reason)
        uses = []
        for call, (use, before) in zip(calls, decided, strict=True):
            self.outcome.tool_uses.append(use)
            uses.append(use)
            if use.ran:
                await self.after(call, use)
            ends = use.ran or self.runner.version.stop_beside_deny_ends_turn
            if before.verdict == STOP and ends:
                raise _TurnEnded(STOPPED, before.reason)
        return uses

    async def before(self, call: ScriptedCall, tool_use_id: str) -> tuple[ToolUse, EventOutcome]:
        parsed = with_defaults(call.tool, call.arguments)
        fields = {"tool_name": call.tool, "tool_input": parsed, "tool_use_id": tool_use_id}
        use = ToolUse(tool_use_id, call.tool, parsed, ran=True, asked_for=call.arguments)
        version = self.runner.version
        layer = self.runner.layer
        if layer is not None and (early := layer.before_hooks(call.tool, parsed, version)):
            # the tool was not offered, or its input check refused: no hook runs
            self.runner.hooks.record_permission(
                early, call.tool, source=SOURCE, turn=self.outcome.turn_id
            )
            self.refuse(use, early)
            return use, EventOutcome(PRE_TOOL_USE, fields)
        before = await self.fire(PRE_TOOL_USE, fields)
        refusal = before if before.verdict == DENY else _denial_beside_stop(before)
        if refusal is not None:
            use.ran, use.is_error = False, True
            use.feedback = claude_feedback.refused(refusal, call.tool, version)
        elif before.updated_input is not None:
            if problems := schema_problems(call.tool, before.updated_input):
                use.ran, use.is_error = False, True
                words = schema_refusal(call.tool, problems)
                use.feedback = claude_feedback.rewrite_refused(call.tool, words, version)
            else:
                use.tool_input = with_defaults(call.tool, before.updated_input)
        if use.ran and layer is not None:
            await self.permit(use, before, layer)
        return use, before

    async def permit(self, use: ToolUse, before: EventOutcome, layer: PermissionLayer) -> None:
        """The permission layer's word on a call the hooks let through: a hook's allow stands
        unless a deny rule matches; otherwise the layer decides, and under -p an ask is put to
        PermissionRequest hooks (where the release fires them), then refused."""
        version = self.runner.version
        check = layer.check(use.tool, use.tool_input, version)
        if before.verdict == ALLOW and check.behaviour != DENY:
            return
        if check.behaviour == ASK:
            check = await self.unasked(use, check, layer)
        self.runner.hooks.record_permission(
            check, use.tool, source=SOURCE, turn=self.outcome.turn_id
        )
        if check.behaviour == DENY:
            self.refuse(use, check)

    async def unasked(
        self, use: ToolUse, check: PermissionCheck, layer: PermissionLayer
    ) -> PermissionCheck:
        """An ask with nobody at Claude Code's dialog: PermissionRequest hooks may answer it."""
        version = self.runner.version
        if version.permission_request_in_p and layer.mode(version) != "dontAsk":
            fields = {
                "tool_name": use.tool,
                "tool_input": use.tool_input,
                "permission_suggestions": suggestions(use.tool, use.tool_input),
            }
            answered = permission_outcome(await self.fire(PERMISSION_REQUEST, fields))
            hooks = ", ".join(answered.by)
            if answered.verdict == ALLOW:
                if answered.updated_input is not None:
                    use.tool_input = with_defaults(use.tool, answered.updated_input)
                return PermissionCheck(ALLOW, f"PermissionRequest hook {hooks}")
            if answered.verdict == DENY:
                told = answered.reason or check.message
                return PermissionCheck(DENY, f"PermissionRequest hook {hooks}", told)
        return layer.unasked(check, use.tool, version)

    def refuse(self, use: ToolUse, check: PermissionCheck) -> None:
        use.ran, use.is_error, use.feedback = False, True, check.message

    async def after(self, call: ScriptedCall, use: ToolUse) -> None:
        fields: JSONObject = {"tool_name": use.tool, "tool_input": use.tool_input}
        if call.error is not None:
            use.response, use.is_error = call.error, True
            failure = {
                **fields,
                "tool_use_id": use.tool_use_id,
                "error": call.error,
                "is_interrupt": False,
                "duration_ms": 0,
            }
            after = await self.fire(POST_TOOL_USE_FAILURE, failure)
        else:
            use.response = _tool_response(call.result)
            success = {
                **fields,
                "tool_response": use.response,
                "tool_use_id": use.tool_use_id,
                "duration_ms": 0,
            }
            after = await self.fire(POST_TOOL_USE, success)
        said = claude_feedback.after_tool(after, use.tool)
        if self.runner.version.post_tool_words_apart:
            use.system_messages = said
        else:
            use.feedback = "\n".join(said)

    async def stop(self) -> None:
        blocked = 0
        while True:
            fields = {
                "stop_hook_active": blocked > 0,
                "last_assistant_message": self.outcome.final_content,
                "background_tasks": [],
                "session_crons": [],
            }
            if blocked:
                await self.message(self.outcome.final_content)
            result = await self.fire(STOP_EVENT, fields)
            if result.verdict != BLOCK:
                return
            if blocked == STOP_BLOCK_CAP:
                raise _TurnEnded(STOP_LOOP, result.reason)
            blocked += 1
            self.outcome.stop_reasons.append(
                claude_feedback.stop_blocked(result, self.runner.version)
            )


def _layer_for(scenario: Scenario, layer: PermissionLayer | None) -> PermissionLayer | None:
    """The session's permission layer in the mode the scenario names (`permission_mode`, as
    `claude -p --permission-mode`) with its `allowed_tools` (as `--allowedTools`); ConfigError
    for a mode Claude Code does not know."""
    mode = scenario.permission_mode
    if mode is not None and mode not in MODES:
        known = ", ".join(MODES)
        message = f"{mode!r} is not a Claude Code permission mode (it knows {known})"
        raise ConfigError(scenario.file, message, key="permission_mode")
    if layer is None or (mode is None and not scenario.allowed_tools):
        return layer
    return layer.for_run(mode, scenario.allowed_tools)


def _denial_beside_stop(outcome: EventOutcome) -> EventOutcome | None:
    """A PreToolUse `continue: false` beside another hook's deny (or exit 2): the deny still
    keeps the tool from running, with its own reason. None when nobody denied."""
    if outcome.verdict != STOP:
        return None
    deniers = [run for run in outcome.runs if run.answer.action in (DENY, BLOCK)]
    deniers.sort(key=lambda run: run.finished)
    if not deniers:
        return None
    return replace(outcome, verdict=DENY, reason=deniers[-1].answer.reason, deciders=tuple(deniers))


def _batches(calls: Sequence[ScriptedCall]) -> list[list[ScriptedCall]]:
    """Consecutive calls of tools Claude Code runs side by side share a batch; any other call
    is a batch of its own."""
    batches: list[list[ScriptedCall]] = []
    for call in calls:
        joins = (
            call.tool in CONCURRENT_TOOLS and batches and batches[-1][-1].tool in CONCURRENT_TOOLS
        )
        if joins:
            batches[-1].append(call)
        else:
            batches.append([call])
    return batches


def _tool_response(result: str) -> Any:
    try:
        value = json.loads(result)
    except (ValueError, RecursionError):
        return result
    return value if isinstance(value, (dict, list)) else result
