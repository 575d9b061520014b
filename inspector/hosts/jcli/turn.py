"""Play scripted turns through a j-cli hook chain, firing events where j-cli's call sites do.

TUI mode (the default) follows the chat app: pre_send_message, post_send_message, then per LLM
round pre_micro_compact/post_micro_compact, (pre_auto_compact/post_auto_compact,)
pre_llm_request, and per tool call pre_tool_execution, (post_tool_execution_failure,)
post_tool_execution; then stop, post_llm_response, and session_end when the session closes.
One-shot mode (`j chat "message"`) runs each turn as its own session through the agent loop
only: session_start (with the model), the rounds, and stop.

Each event's context carries only the fields its call site fills, and only the result fields the
call site reads are applied; the others get a finding on the exchange that returned them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from inspector.hosts.jcli.chain_result import ChainResult
from inspector.hosts.jcli.findings import finding
from inspector.journal.journal import Journal
from inspector.scenario import Round, Scenario, ScriptedCall, Turn

JSONObject = dict[str, Any]
Mode = Literal["tui", "oneshot"]

SOURCE = "scenario"
COMPLETED = "completed"
BLOCKED = "blocked"  # pre_send_message stopped: the message was never sent
ABORTED = "aborted"  # HookAborted: a stop ended the agent loop
ERROR = "error"
HOOK_ABORTED = "HookAborted"
SKIPPED_BY_HOOK = "该工具调用被 hook 跳过"  # the tool result j-cli gives the model
MAX_HOOK_LOOPS = 3  # retry_feedback / re-send rounds before the inspector stops the loop
CHARS_PER_TOKEN = 4  # the rough estimate that decides auto compaction

# The result fields each call site reads; `action=x` means that action is obeyed.
_HONOURED: dict[str, frozenset[str]] = {
    "pre_send_message": frozenset({"action=stop", "user_input"}),
    "pre_micro_compact": frozenset({"action=stop"}),
    "post_micro_compact": frozenset({"messages"}),
    "pre_auto_compact": frozenset({"action=stop", "additional_context"}),
    "post_auto_compact": frozenset({"messages"}),
    "pre_llm_request": frozenset({"action=stop", "messages", "system_prompt", "inject_messages"}),
    "pre_tool_execution": frozenset({"action=skip", "tool_arguments"}),
    "post_tool_execution_failure": frozenset({"tool_error"}),
    "post_tool_execution": frozenset({"tool_result"}),
    "stop": frozenset({"retry_feedback", "action=stop", "additional_context"}),
    "post_llm_response": frozenset(
        {"system_message", "action=stop", "retry_feedback", "assistant_output"}
    ),
}
_ONESHOT_HONOURED = {
    **_HONOURED,
    "pre_tool_execution": frozenset({"action=skip", "action=stop", "tool_arguments"}),
    "post_tool_execution": frozenset({"tool_result", "system_message"}),
    "stop": frozenset({"retry_feedback"}),
}


class JcliEvents(Protocol):
    """What the runner needs of JcliChain (which makes its own runner)."""

    journal: Journal

    async def fire(
        self, event: str, context: JSONObject, *, source: str, turn: str | None = None
    ) -> ChainResult: ...


@dataclass(slots=True)
class ToolRun:
    name: str
    arguments: str  # the JSON text the tool got, after pre_tool_execution
    result: str  # what the model got back
    is_error: bool
    skipped: bool = False


@dataclass(slots=True)
class JcliTurnOutcome:
    turn_id: str
    status: str  # completed, blocked, aborted or error
    final_content: str
    messages: list[JSONObject]  # the session history after the turn
    tools: list[ToolRun] = field(default_factory=list)
    llm_requests: list[JSONObject] = field(default_factory=list)  # what each round sent
    notices: list[str] = field(default_factory=list)  # toasts (TUI) or stderr lines (one-shot)
    error: str | None = None
    resend: str | None = None  # post_llm_response's feedback, sent as the next user message


class _Ended(Exception):
    def __init__(self, status: str, error: str) -> None:
        super().__init__(error)
        self.status = status
        self.error = error


@dataclass(slots=True)
class _Turn:
    scenario: Scenario
    turn: Turn
    outcome: JcliTurnOutcome
    resends: int  # how many times post_llm_response has re-sent this turn's message

    @property
    def history(self) -> list[JSONObject]:
        return self.outcome.messages

    @property
    def model(self) -> str:
        return self.scenario.model_for(self.turn)


class JcliTurnRunner:
    def __init__(
        self,
        chain: JcliEvents,
        *,
        mode: Mode = "tui",
        micro_compact: bool = True,
        auto_compact_tokens: int | None = None,
    ) -> None:
        self.chain = chain
        self.mode = mode
        self.micro_compact = micro_compact
        self.auto_compact_tokens = auto_compact_tokens
        self._turns = 0
        self._calls = 0

    async def run(self, scenario: Scenario) -> list[JcliTurnOutcome]:
        """Every turn in order. TUI: one session whose history carries over, closed by
        session_end. One-shot: each turn its own session."""
        outcomes: list[JcliTurnOutcome] = []
        history: list[JSONObject] = []
        if self.mode == "tui":
            await self._session_start(scenario, None)
        for turn in scenario.turns:
            if self.mode == "oneshot":
                history = []
                await self._session_start(scenario, scenario.model_for(turn))
            outcome = await self.run_turn(scenario, turn, history)
            outcomes.append(outcome)
            resends = 0
            while outcome.resend is not None:
                resends += 1
                resent = Turn(user=outcome.resend, rounds=turn.rounds, model=turn.model)
                outcome = await self.run_turn(scenario, resent, outcome.messages, resends=resends)
                outcomes.append(outcome)
            history = outcome.messages
        if self.mode == "tui":
            fields = {"messages": history, "session_id": scenario.session}
            await self._fire(None, "session_end", fields)
        return outcomes

    async def run_turn(
        self, scenario: Scenario, turn: Turn, history: list[JSONObject], *, resends: int = 0
    ) -> JcliTurnOutcome:
        self._turns += 1
        outcome = JcliTurnOutcome(f"turn-{self._turns}", COMPLETED, "", list(history))
        ts = _Turn(scenario, turn, outcome, resends)
        try:
            if self.mode == "tui":
                await self._send(ts)
            else:
                ts.history.append(_message("user", turn.user))
            await self._agent_loop(ts)
            if self.mode == "tui" and outcome.final_content:
                await self._post_llm_response(ts)
        except _Ended as ended:
            outcome.status, outcome.error = ended.status, ended.error
        return outcome

    async def _session_start(self, scenario: Scenario, model: str | None) -> None:
        fields: JSONObject = {"messages": [], "session_id": scenario.session, "model": model}
        await self._fire(None, "session_start", fields)

    # ---- the chat app: sending the message, finishing the reply ------------------------------

    async def _send(self, ts: _Turn) -> None:
        session = ts.scenario.session
        fields: JSONObject = {
            "user_input": ts.turn.user,
            "messages": list(ts.history),
            "session_id": session,
        }
        result = await self._fire(ts, "pre_send_message", fields)
        if result.action == "stop":
            ts.outcome.notices.append(f"message blocked by hook {result.by}")
            raise _Ended(BLOCKED, f"pre_send_message stopped by {result.by}")
        user_input = _text(result.get("user_input"), ts.turn.user)
        ts.history.append(_message("user", user_input))
        # j-cli does not wait for post_send_message (a thread); awaiting keeps the journal in order
        fields = {"user_input": user_input, "messages": list(ts.history), "session_id": session}
        await self._fire(ts, "post_send_message", fields)

    async def _post_llm_response(self, ts: _Turn) -> None:
        fields = {
            "assistant_output": ts.outcome.final_content,
            "messages": list(ts.history),
            "model": ts.model,
            "session_id": ts.scenario.session,
        }
        result = await self._fire(ts, "post_llm_response", fields)
        if isinstance(result.get("system_message"), str):
            ts.outcome.notices.append(result.get("system_message"))
        if result.action == "stop":
            ts.outcome.final_content = ""
            ts.history.pop()  # the reply is discarded
            feedback = result.get("retry_feedback")
            if isinstance(feedback, str) and ts.resends + 1 >= MAX_HOOK_LOOPS:
                _loop_finding(self.chain, result, f"re-sent the message {ts.resends + 1} times")
                raise _Ended(ERROR, "post_llm_response kept re-sending the message")
            if isinstance(feedback, str):
                ts.outcome.resend = feedback
        elif isinstance(result.get("assistant_output"), str):
            ts.outcome.final_content = result.get("assistant_output")
            ts.history[-1] = {**ts.history[-1], "content": ts.outcome.final_content}

    # ---- the agent loop --------------------------------------------------------------------

    async def _agent_loop(self, ts: _Turn) -> None:
        rounds = ts.turn.rounds
        feedback_rounds = 0
        index = 0
        while True:
            # after a stop hook's retry_feedback the scripted LLM gives its final answer again
            reply = rounds[min(index, len(rounds) - 1)]
            index += 1
            await self._compaction(ts)
            await self._pre_llm_request(ts)
            calls = [(self._next_call_id(), call) for call in reply.tool_calls]
            ts.history.append(_assistant(reply, calls))
            if calls:
                for call_id, call in calls:
                    await self._tool(ts, call_id, call)
                continue
            result = await self._stop(ts, reply)
            feedback = result.get("retry_feedback")
            if not isinstance(feedback, str):  # read before action
                ts.outcome.final_content = reply.content
                return
            feedback_rounds += 1
            if feedback_rounds >= MAX_HOOK_LOOPS:
                _loop_finding(self.chain, result, f"asked for {feedback_rounds} more rounds")
                raise _Ended(ERROR, "the stop hook kept asking for another round")
            ts.history.append(_message("user", feedback))

    async def _compaction(self, ts: _Turn) -> None:
        session = ts.scenario.session
        if self.micro_compact:
            fields: JSONObject = {
                "messages": list(ts.history),
                "model": ts.model,
                "session_id": session,
            }
            if (await self._fire(ts, "pre_micro_compact", fields)).action == "stop":
                return  # skips auto compaction for this round too
            result = await self._fire(
                ts, "post_micro_compact", {"messages": list(ts.history), "session_id": session}
            )
            self._replace_messages(ts, result)
        if self.auto_compact_tokens is None or _tokens(ts.history) <= self.auto_compact_tokens:
            return
        fields = {
            "messages": list(ts.history),
            "system_prompt": ts.scenario.system,
            "model": ts.model,
            "session_id": session,
        }
        if (await self._fire(ts, "pre_auto_compact", fields)).action == "stop":
            return
        result = await self._fire(
            ts, "post_auto_compact", {"messages": list(ts.history), "session_id": session}
        )
        self._replace_messages(ts, result)

    async def _pre_llm_request(self, ts: _Turn) -> None:
        fields = {
            "messages": list(ts.history),
            "system_prompt": ts.scenario.system,
            "model": ts.model,
            "session_id": ts.scenario.session,
        }
        result = await self._fire(ts, "pre_llm_request", fields)
        if result.action == "stop":
            raise _Ended(ABORTED, f"{HOOK_ABORTED}: pre_llm_request stopped by {result.by}")
        self._replace_messages(ts, result)
        if isinstance(result.get("inject_messages"), list):
            ts.history.extend(result.get("inject_messages"))
        # the system prompt is rebuilt every round, so a replacement holds for this request only
        system = _text(result.get("system_prompt"), ts.scenario.system)
        ts.outcome.llm_requests.append({"system_prompt": system, "messages": list(ts.history)})

    async def _stop(self, ts: _Turn, reply: Round) -> ChainResult:
        fields = {
            "messages": list(ts.history),
            "system_prompt": ts.scenario.system,
            "model": ts.model,
            "user_input": reply.content,  # j-cli passes the final reply as user_input here
            "session_id": ts.scenario.session,
        }
        result = await self._fire(ts, "stop", fields)
        feedback = isinstance(result.get("retry_feedback"), str)
        if not feedback and result.action == "stop" and self.mode == "tui":
            raise _Ended(ABORTED, f"{HOOK_ABORTED}: stop stopped by {result.by}")
        return result

    # ---- tools -----------------------------------------------------------------------------

    async def _tool(self, ts: _Turn, call_id: str, call: ScriptedCall) -> None:
        arguments = json.dumps(call.arguments, ensure_ascii=False)
        base = {"tool_name": call.tool, "session_id": ts.scenario.session}
        result = await self._fire(ts, "pre_tool_execution", {**base, "tool_arguments": arguments})
        arguments = _text(result.get("tool_arguments"), arguments)
        if self.mode == "oneshot":
            base["tool_arguments"] = arguments
        skip = result.action == "skip" or (result.action == "stop" and self.mode == "oneshot")
        if skip:
            text = await self._failure(ts, base, SKIPPED_BY_HOOK)
            if self.mode == "tui":
                text = await self._post_tool(ts, base, text)
            self._deliver(ts, call_id, ToolRun(call.tool, arguments, text, True, skipped=True))
            return
        if call.is_error and self.mode == "oneshot":
            text = await self._failure(ts, base, call.for_llm)
        else:  # the TUI sends every result, errors included, to post_tool_execution
            text = await self._post_tool(ts, base, call.for_llm)
        self._deliver(ts, call_id, ToolRun(call.tool, arguments, text, call.is_error))

    async def _failure(self, ts: _Turn, base: JSONObject, error: str) -> str:
        result = await self._fire(ts, "post_tool_execution_failure", {**base, "tool_error": error})
        return _text(result.get("tool_error"), error)

    async def _post_tool(self, ts: _Turn, base: JSONObject, text: str) -> str:
        result = await self._fire(ts, "post_tool_execution", {**base, "tool_result": text})
        if self.mode == "oneshot" and isinstance(result.get("system_message"), str):
            ts.outcome.notices.append(result.get("system_message"))
        return _text(result.get("tool_result"), text)

    def _deliver(self, ts: _Turn, call_id: str, run: ToolRun) -> None:
        ts.outcome.tools.append(run)
        ts.history.append({"role": "tool", "content": run.result, "tool_call_id": call_id})

    def _next_call_id(self) -> str:
        self._calls += 1
        return f"call_{self._calls}"

    # ---- firing ------------------------------------------------------------------------------

    async def _fire(self, ts: _Turn | None, event: str, fields: JSONObject) -> ChainResult:
        turn = ts.outcome.turn_id if ts else None
        result = await self.chain.fire(event, fields, source=SOURCE, turn=turn)
        self._note_ignored(result)
        return result

    def _replace_messages(self, ts: _Turn, result: ChainResult) -> None:
        if isinstance(result.get("messages"), list):
            ts.history[:] = result.get("messages")

    def _note_ignored(self, result: ChainResult) -> None:
        """A finding on each exchange whose answer the call site does not read."""
        honoured = (_ONESHOT_HONOURED if self.mode == "oneshot" else _HONOURED).get(
            result.event, frozenset()
        )
        deciding = result.deciding_run
        if result.action and f"action={result.action}" not in honoured and deciding:
            if result.event == "pre_tool_execution" and result.action == "stop":
                message = f"{deciding.name} stopped pre_tool_execution; the tool runs anyway"
                ignored_action = finding("jcli-stop-ignored", message)
            else:
                message = f"action {result.action} has no effect at {result.event}"
                ignored_action = finding("jcli-field-ignored", message)
            self.chain.journal.add_findings(deciding.exchange, ignored_action)
        # a halting hook keeps only retry_feedback and system_message; the rest was discarded
        answers = (
            [(deciding, result.result or {})]
            if deciding
            else [(run, run.result or {}) for run in result.runs]
        )
        for run, answer in answers:
            ignored = [key for key in answer if key != "action" and key not in honoured]
            if ignored:
                message = f"{result.event} ({self.mode}) does not read {', '.join(ignored)}"
                self.chain.journal.add_findings(
                    run.exchange, finding("jcli-field-ignored", message)
                )


def _loop_finding(chain: JcliEvents, result: ChainResult, what: str) -> None:
    for run in result.runs:
        if run.result and "retry_feedback" in run.result:
            message = f"{run.name} {what}"
            chain.journal.add_findings(run.exchange, finding("jcli-feedback-loop", message))


def _message(role: str, content: str) -> JSONObject:
    return {"role": role, "content": content}


def _assistant(reply: Round, calls: list[tuple[str, ScriptedCall]]) -> JSONObject:
    message = _message("assistant", reply.content)
    if calls:
        message["tool_calls"] = [
            {"id": call_id, "name": call.tool, "arguments": json.dumps(call.arguments)}
            for call_id, call in calls
        ]
    return message


def _text(value: object, default: Any) -> Any:
    return value if isinstance(value, str) else default


def _tokens(messages: list[JSONObject]) -> int:
    return len(json.dumps(messages, ensure_ascii=False)) // CHARS_PER_TOKEN
