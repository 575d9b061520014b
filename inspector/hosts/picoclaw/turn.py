"""Drive a pipeline through scripted turns the way PicoClaw's agent loop (runTurn) does.

The order of stage calls and runtime events follows pipeline_llm.go (CallLLM), pipeline_execute.go
(ExecuteTools) and turn_coord.go (runTurn): the llm.request event comes after before_llm, the
llm.response event after after_llm, and exec_start only once before_tool and approval let the
tool run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from inspector.hosts.picoclaw import templates
from inspector.hosts.picoclaw.results import ApprovalResult, StageResult
from inspector.jsonrpc.stages import ABORT_TURN, DENY_TOOL, HARD_ABORT, RESPOND
from inspector.scenario import DEFAULT_RESULT, Round, Scenario, ScriptedCall, Turn

JSONObject = dict[str, Any]

SOURCE = "scenario"
MAX_TOKENS = 8192  # PicoClaw's default agents.defaults.max_tokens
TEMPERATURE = 0.7  # the agent's temperature when agents.defaults.temperature is unset

COMPLETED = "completed"
ERROR = "error"
ABORTED = "aborted"

HOOK_ABORT = "hook requested turn abort"
DENIED_BY_HOOK = "Tool execution denied by hook"
DENIED_BY_APPROVAL = "Tool execution denied by approval hook"
ERROR_SUMMARY_LIMIT = 200


class HostPipeline(Protocol):
    """What the runner needs of the pipeline: the five stages and the runtime-event sink."""

    async def before_llm(self, request: JSONObject, *, source: str, turn: str) -> StageResult: ...

    async def after_llm(self, envelope: JSONObject, *, source: str, turn: str) -> StageResult: ...

    async def before_tool(self, call: JSONObject, *, source: str, turn: str) -> StageResult: ...

    async def approve_tool(
        self, request: JSONObject, *, source: str, turn: str
    ) -> ApprovalResult: ...

    async def after_tool(self, envelope: JSONObject, *, source: str, turn: str) -> StageResult: ...

    async def emit_event(self, event: JSONObject, *, source: str) -> None: ...


@dataclass(slots=True)
class ToolExecution:
    """A tool that ran, or that a respond hook answered for; denied tools are not executions."""

    name: str
    arguments: JSONObject | None  # what the tool saw, after before_tool
    success: bool
    error_summary: str = ""

    def payload(self) -> JSONObject:
        """The ToolExecutionRecord of agent.turn.end (snake_case tags, error_summary omitempty)."""
        record: JSONObject = {"name": self.name, "success": self.success}
        if self.error_summary:
            record["error_summary"] = self.error_summary
        return record


@dataclass(slots=True)
class TurnOutcome:
    turn_id: str
    status: str  # completed, error or aborted
    final_content: str
    iterations: int
    tool_executions: list[ToolExecution]
    messages: list[JSONObject]  # the session history after the turn, without the system prompt
    error: str | None = None


@dataclass(slots=True)
class _ToolCall:
    """A tool call as the agent loop reads it from the (possibly hook-modified) LLM response."""

    id: str
    name: str
    arguments: JSONObject


class _TurnEnded(Exception):
    def __init__(self, status: str, error: str | None = None) -> None:
        super().__init__(error or status)
        self.status = status
        self.error = error


@dataclass(slots=True)
class _TurnState:
    scenario: Scenario
    turn: Turn
    turn_id: str
    history: list[JSONObject]
    started_ns: int
    iteration: int = 0
    final_content: str = ""
    executions: list[ToolExecution] = field(default_factory=list)
    tool_kinds: list[str] = field(default_factory=list)

    def meta(self, trace_path: str) -> JSONObject:
        return templates.meta(
            trace_path,
            turn_id=self.turn_id,
            session_key=self.scenario.session,
            iteration=self.iteration,
        )

    def context(self) -> JSONObject:
        return templates.turn_context(self.scenario.channel)

    def call_messages(self) -> list[JSONObject]:
        system = self.scenario.system
        prompt = [] if system is None else [templates.message("system", system)]
        return prompt + self.history

    def record(self, execution: ToolExecution) -> None:
        self.executions.append(execution)
        if execution.name not in self.tool_kinds:
            self.tool_kinds.append(execution.name)


class TurnRunner:
    """Runs a scenario's turns against a pipeline, as PicoClaw's host would, with no LLM."""

    def __init__(
        self,
        pipeline: HostPipeline,
        *,
        clock: Callable[[], int] = time.monotonic_ns,
        wall_clock: Callable[[], int] = time.time_ns,
        workspace: str = "",
    ) -> None:
        self.pipeline = pipeline
        self.workspace = workspace
        self._clock = clock
        self._wall_clock = wall_clock
        self._events = 0
        self._turns = 0
        self._calls = 0

    async def run(self, scenario: Scenario) -> list[TurnOutcome]:
        """Every turn in order, each starting from the session history the previous one left."""
        history: list[JSONObject] = []
        outcomes = []
        for turn in scenario.turns:
            outcome = await self.run_turn(scenario, turn, history)
            history = outcome.messages
            outcomes.append(outcome)
        return outcomes

    async def run_turn(
        self, scenario: Scenario, turn: Turn, history: list[JSONObject]
    ) -> TurnOutcome:
        self._turns += 1
        ts = _TurnState(scenario, turn, f"turn-{self._turns}", list(history), self._clock())
        await self._emit(
            ts, "agent.turn.start", "turn.start", {"UserMessage": turn.user, "MediaCount": 0}
        )
        ts.history.append(templates.message("user", turn.user))
        status, error = COMPLETED, None
        try:
            await self._rounds(ts)
        except _TurnEnded as ended:
            status, error = ended.status, ended.error
            if status == ABORTED:
                ts.history = list(history)  # abortTurn restores the session to its restore point
        await self._emit(ts, "agent.turn.end", "turn.end", self._turn_end(ts, status))
        return TurnOutcome(
            turn_id=ts.turn_id,
            status=status,
            final_content=ts.final_content,
            iterations=ts.iteration,
            tool_executions=ts.executions,
            messages=ts.history,
            error=error,
        )

    # ---- the LLM side ----------------------------------------------------------------------

    async def _rounds(self, ts: _TurnState) -> None:
        replies = iter(ts.turn.rounds)
        while True:
            reply = next(replies, None)
            if reply is None:
                # Only reachable when after_llm added tool calls to the final reply: a real host
                # would ask the LLM again, but the scenario has no answer left to give.
                raise _TurnEnded(ERROR, "the scenario has no LLM reply left for this turn")
            ts.iteration += 1
            response, scripted = await self._call_llm(ts, reply)
            calls = _tool_calls(response)
            content = _text(response.get("content"))
            if not calls:
                ts.history.append(templates.message("assistant", content))
                ts.final_content = content
                return
            wire_calls = [templates.tool_call(call.id, call.name, call.arguments) for call in calls]
            ts.history.append(templates.message("assistant", content, tool_calls=wire_calls))
            for call in calls:
                await self._run_tool(ts, call, scripted.get(call.id))

    async def _call_llm(
        self, ts: _TurnState, reply: Round
    ) -> tuple[JSONObject, dict[str, ScriptedCall]]:
        options = {
            "max_tokens": MAX_TOKENS,
            "temperature": TEMPERATURE,
            "prompt_cache_key": templates.AGENT_ID,
        }
        tools = [
            templates.tool_definition(spec.name, spec.description, spec.parameters)
            for spec in ts.scenario.tool_specs()
        ]
        request = templates.llm_request(
            ts.meta("turn.llm.request"),
            ts.context(),
            ts.scenario.model_for(ts.turn),
            ts.call_messages(),
            tools,
            options,
        )
        sent = _go_on(await self.pipeline.before_llm(request, source=SOURCE, turn=ts.turn_id))
        # The hook's model, messages, tools and options are used verbatim for this one call; the
        # session history is not touched. MaxTokens/Temperature in the event come from the agent.
        model = _text(sent.get("model"))
        await self._emit(
            ts,
            "agent.llm.request",
            "turn.llm.request",
            {
                "Model": model,
                "MessagesCount": len(_list(sent.get("messages"))),
                "ToolsCount": len(_list(sent.get("tools"))),
                "MaxTokens": MAX_TOKENS,
                "Temperature": TEMPERATURE,
            },
        )
        scripted = {self._next_call_id(): call for call in reply.tool_calls}
        response = templates.llm_response(
            reply.content,
            tool_calls=[
                templates.tool_call(call_id, call.tool, call.arguments)
                for call_id, call in scripted.items()
            ]
            or None,
            finish_reason="tool_calls" if scripted else "stop",
        )
        envelope = templates.llm_response_envelope(
            ts.meta("turn.llm.response"), ts.context(), model, response
        )
        returned = _go_on(await self.pipeline.after_llm(envelope, source=SOURCE, turn=ts.turn_id))
        if isinstance(returned.get("response"), dict):
            response = returned["response"]  # replaces the whole LLMResponse
        await self._emit(
            ts,
            "agent.llm.response",
            "turn.llm.response",
            {
                "ContentLen": _byte_len(_text(response.get("content"))),
                "ToolCalls": len(_list(response.get("tool_calls"))),
                "HasReasoning": bool(
                    response.get("reasoning") or response.get("reasoning_content")
                ),
            },
        )
        return response, scripted

    def _next_call_id(self) -> str:
        self._calls += 1
        return f"call_{self._calls}"

    # ---- the tool side ---------------------------------------------------------------------

    async def _run_tool(
        self, ts: _TurnState, call: _ToolCall, scripted: ScriptedCall | None
    ) -> None:
        name = call.name
        arguments: JSONObject | None = call.arguments  # a hook's replacement may have none
        request = templates.tool_call_request(
            ts.meta("turn.tool.before"), ts.context(), name, arguments
        )
        decision = await self.pipeline.before_tool(request, source=SOURCE, turn=ts.turn_id)
        _raise_on_abort(decision)
        if decision.action == RESPOND and decision.hook_result is not None:
            await self._responded(ts, call, decision.hook_result)
            return
        if decision.action == DENY_TOOL:
            await self._skip(ts, call, name, _denial(DENIED_BY_HOOK, decision.reason))
            return
        if decision.action != RESPOND:
            # The call is replaced wholesale: no tool means "" (not found), no arguments means nil.
            name = _text(decision.value.get("tool"))
            arguments = _mapping_or_none(decision.value.get("arguments"))
        approval_request = templates.approval_request(
            ts.meta("turn.tool.approve"), ts.context(), name, arguments
        )
        approval = await self.pipeline.approve_tool(
            approval_request, source=SOURCE, turn=ts.turn_id
        )
        if not approval.approved:
            await self._skip(ts, call, name, _denial(DENIED_BY_APPROVAL, approval.reason))
            return
        await self._execute(ts, call, name, arguments, scripted)

    async def _execute(
        self,
        ts: _TurnState,
        call: _ToolCall,
        name: str,
        arguments: JSONObject | None,
        scripted: ScriptedCall | None,
    ) -> None:
        await self._emit(
            ts, "agent.tool.exec_start", "turn.tool.start", _start_payload(name, arguments)
        )
        started = self._clock()
        result = _scripted_result(ts.scenario, name, scripted)
        duration = self._clock() - started
        envelope = templates.tool_result_envelope(
            ts.meta("turn.tool.after"), ts.context(), name, arguments, result, duration
        )
        returned = _go_on(await self.pipeline.after_tool(envelope, source=SOURCE, turn=ts.turn_id))
        renamed = returned.get("tool")
        if isinstance(renamed, str) and renamed:
            name = renamed
        if isinstance(returned.get("result"), dict):
            result = returned["result"]
        await self._deliver(ts, call, name, arguments, result, duration)

    async def _responded(self, ts: _TurnState, call: _ToolCall, result: JSONObject) -> None:
        # The respond path reports the original call: the hook's `call` changes are ignored.
        await self._emit(
            ts,
            "agent.tool.exec_start",
            "turn.tool.start",
            _start_payload(call.name, call.arguments),
        )
        await self._deliver(ts, call, call.name, call.arguments, result, 0)

    async def _deliver(
        self,
        ts: _TurnState,
        call: _ToolCall,
        name: str,
        arguments: JSONObject | None,
        result: JSONObject,
        duration: int,
    ) -> None:
        content = _text(result.get("for_llm"))
        is_error = bool(result.get("is_error"))
        await self._emit(
            ts,
            "agent.tool.exec_end",
            "turn.tool.end",
            {
                "Tool": name,
                "Duration": duration,
                "ForLLMLen": _byte_len(content),
                "ForUserLen": _byte_len(_text(result.get("for_user"))),
                "IsError": is_error,
                "Async": bool(result.get("async")),
            },
        )
        summary = _truncate(content.strip(), ERROR_SUMMARY_LIMIT) if is_error else ""
        ts.record(ToolExecution(name, arguments, not is_error, summary))
        ts.history.append(templates.message("tool", content, tool_call_id=call.id))

    async def _skip(self, ts: _TurnState, call: _ToolCall, name: str, reason: str) -> None:
        await self._emit(
            ts, "agent.tool.exec_skipped", "turn.tool.skipped", {"Tool": name, "Reason": reason}
        )
        ts.history.append(templates.message("tool", reason, tool_call_id=call.id))

    # ---- events ----------------------------------------------------------------------------

    async def _emit(self, ts: _TurnState, kind: str, trace_path: str, payload: JSONObject) -> None:
        self._events += 1
        event = templates.runtime_event(
            kind,
            payload,
            event_id=f"evt-{self._events}",
            time=_rfc3339_nano(self._wall_clock()),
            session_key=ts.scenario.session,
            turn_id=ts.turn_id,
            channel=ts.scenario.channel,
            trace_id=trace_path,
            iteration=ts.iteration,
        )
        await self.pipeline.emit_event(event, source=SOURCE)

    def _turn_end(self, ts: _TurnState, status: str) -> JSONObject:
        executions = [execution.payload() for execution in ts.executions]
        return {
            "Status": status,
            "Workspace": self.workspace,
            "Iterations": ts.iteration,
            "Duration": self._clock() - ts.started_ns,
            "FinalContentLen": _byte_len(ts.final_content),
            "UserMessage": ts.turn.user,
            "FinalContent": ts.final_content,
            # Skills do not exist in a scenario; Go writes these nil slices as null.
            "ActiveSkills": None,
            "AttemptedSkills": None,
            "FinalSuccessfulPath": None,
            "SkillContextSnapshots": None,
            "ToolKinds": list(ts.tool_kinds) or None,
            "ToolExecutions": executions or None,
        }


# ---- helpers -------------------------------------------------------------------------------


def _go_on(result: StageResult) -> JSONObject:
    """The value to continue with, unless a hook ended the turn."""
    _raise_on_abort(result)
    return result.value


def _raise_on_abort(result: StageResult) -> None:
    if result.action == ABORT_TURN:
        raise _TurnEnded(ERROR, HOOK_ABORT)  # the main pipeline drops the hook's reason
    if result.action == HARD_ABORT:
        raise _TurnEnded(ABORTED)


def _tool_calls(response: JSONObject) -> list[_ToolCall]:
    """providers.NormalizeToolCall: name from function.name, arguments parsed from its JSON."""
    calls = []
    for raw in _list(response.get("tool_calls")):
        if not isinstance(raw, dict):
            continue
        function = raw.get("function")
        if not isinstance(function, dict):
            function = {}
        calls.append(
            _ToolCall(
                id=_text(raw.get("id")),
                name=_text(function.get("name")),
                arguments=_decode_arguments(function.get("arguments")),
            )
        )
    return calls


def _decode_arguments(raw: object) -> JSONObject:
    """Invalid or non-object JSON leaves the arguments empty, as NormalizeToolCall does."""
    if not isinstance(raw, str) or not raw:
        return {}
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _scripted_result(scenario: Scenario, name: str, scripted: ScriptedCall | None) -> JSONObject:
    """What the tool registry gives back: the script's answer, or PicoClaw's not-found error."""
    if name not in {spec.name for spec in scenario.tool_specs()}:
        return templates.tool_result(f"tool {json.dumps(name)} not found", is_error=True)
    if scripted is None:
        return templates.tool_result(DEFAULT_RESULT)  # a call only an after_llm hook asked for
    return templates.tool_result(scripted.for_llm, is_error=scripted.is_error)


def _start_payload(name: str, arguments: JSONObject | None) -> JSONObject:
    return {"Tool": name, "Arguments": _sorted(arguments)}


def _denial(prefix: str, reason: str) -> str:
    return f"{prefix}: {reason}" if reason else prefix


def _sorted(value: Any) -> Any:
    """A Go map as encoding/json writes it: keys sorted at every level."""
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def _mapping_or_none(value: object) -> JSONObject | None:
    return value if isinstance(value, dict) else None


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _byte_len(text: str) -> int:
    """Go's len() of a string counts UTF-8 bytes. Go holds a lone surrogate as U+FFFD, three
    bytes, as many as surrogatepass writes for it."""
    return len(text.encode("utf-8", "surrogatepass"))


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _rfc3339_nano(ns: int) -> str:
    """time.Time as Go marshals it (RFC3339Nano, trailing zeros dropped), in UTC."""
    seconds, fraction = divmod(ns, 1_000_000_000)
    stamp = datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    digits = f"{fraction:09d}".rstrip("0")
    return f"{stamp}.{digits}Z" if digits else f"{stamp}Z"
