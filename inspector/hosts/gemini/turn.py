"""Play scenario turns the way `gemini -p` (0.61.0) fires its hooks, with no model.

A session: SessionStart (source "startup"), each turn, then SessionEnd (reason "exit"). Per turn:
BeforeAgent with the prompt; then per round (one model call): PreCompress (trigger "auto": 0.61.0
asks before every model call), BeforeModel with the request, BeforeToolSelection with the request
as BeforeModel left it, AfterModel once per streamed chunk of the round's answer with the request
and that chunk (stream.py: how a round streams and what a hook's answer to a chunk does), then
for each tool call BeforeTool, the tool (unless a hook blocked it) and AfterTool. A round whose
calls none ran (a hook replaced their chunks) is the turn's last. After the final answer,
AfterAgent, its prompt_response every model call's text of the turn joined by newlines (each
call's chunks as stream.Heard.said reads them); its deny makes the reason the next prompt
(BeforeAgent, a model call, AfterAgent again with every answer so far and stop_hook_active:
true), as often as it denies, up to Gemini CLI's 100 model calls a prompt (retry_loop).

What the hooks change is what the model would see: SessionStart's additionalContext goes before the
first prompt (`<hook_context>CONTEXT</hook_context>`, a blank line, the prompt: BeforeAgent sees
that), BeforeAgent's follows the prompt as a part of its own (`<hook_context>...`); BeforeModel's
llm_request replaces the request's messages (each text-bearing message in order, the rest kept) and
its model and config; a BeforeModel deny ends the turn's model calls (model_blocked: its
llm_response is the answer, and AfterAgent still fires, with "[no response text]" when there is
none), and so does an AfterModel deny unless the refused chunk held a function call;
BeforeToolSelection's toolConfig is the tools offered; BeforeTool's tool_input replaces the call's
arguments (0.61.0 builds the call from it alone, shows AfterTool those, and adds a line to the
result saying a hook changed them); a blocked call is not run and the model is told `Tool
execution blocked: REASON`; AfterTool's deny replaces the result with an error whose message is
REASON alone, and its additionalContext is added in `<hook_context>`. Any `continue: false` ends
the turn (stopped); on a tool event the model is told `Agent execution stopped by hook: REASON`.
A BeforeTool `decision: ask` that nobody at the inspector answered ends the turn
(ask_unanswered): `gemini -p` 0.61.0 waits for its confirmation dialog, which it cannot show, and
never goes on.

The runner runs no tool: a call's result is the scenario's. Each hook's stdin starts with the
common fields of templates.GeminiSession.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from inspector.hosts.gemini.events import (
    AFTER_AGENT,
    AFTER_MODEL,
    AFTER_TOOL,
    BEFORE_AGENT,
    BEFORE_MODEL,
    BEFORE_TOOL,
    BEFORE_TOOL_SELECTION,
    PRE_COMPRESS,
    SESSION_END,
    SESSION_START,
)
from inspector.hosts.gemini.outcome import EventOutcome
from inspector.hosts.gemini.stream import Chunk, Heard, chunk_response, replacement, stream
from inspector.hosts.gemini.templates import (
    MODEL,
    GeminiSession,
    llm_request,
    session_uuid,
    tool_response,
)
from inspector.scenario import DEFAULT_MODEL, Round, Scenario, ScriptedCall, Turn

JSONObject = dict[str, Any]

SOURCE = "scenario"
COMPLETED = "completed"
PROMPT_BLOCKED = "prompt_blocked"  # BeforeAgent denied: the prompt is dropped
MODEL_BLOCKED = "model_blocked"  # BeforeModel or AfterModel denied: no more model calls
STOPPED = "stopped"  # a hook answered continue: false
# a BeforeTool hook's ask nobody answered: `gemini -p` waits for a confirmation it cannot show
ASK_UNANSWERED = "ask_unanswered"
NO_RESPONSE = "[no response text]"  # AfterAgent's prompt_response when the model said nothing
RETRY_LOOP = "retry_loop"  # AfterAgent denied every answer until Gemini CLI's turn limit
MAX_TURNS = 100  # the model calls one prompt may take (client.ts); each retry takes one
INPUT_CHANGED = "[System] Tool input parameters were modified by a hook before execution."


class GeminiEvents(Protocol):
    """What the runner needs of GeminiHooks."""

    project_dir: str

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
    tool: str
    tool_input: JSONObject  # what the tool got (or would have got), after any rewrite
    ran: bool
    told: str  # the functionResponse the model gets: its output, or its error
    is_error: bool = False
    asked_for: JSONObject = field(default_factory=dict)  # the model's own arguments


@dataclass(slots=True)
class GeminiTurnOutcome:
    turn_id: str
    status: str = COMPLETED
    reason: str = ""  # why the turn ended early
    final_content: str = ""
    events: list[EventOutcome] = field(default_factory=list)  # in the order they fired
    tool_uses: list[ToolUse] = field(default_factory=list)
    model_requests: list[JSONObject] = field(default_factory=list)  # as the model got them
    tool_configs: list[JSONObject] = field(default_factory=list)  # BeforeToolSelection's
    system_messages: list[str] = field(default_factory=list)  # shown to the user
    retry_reasons: list[str] = field(default_factory=list)  # AfterAgent denies: a new prompt


class _ModelBlocked(Exception):
    """A model event's deny: no more model calls this turn; `answer` is the hook's synthetic
    response's text ("" for none)."""

    def __init__(self, reason: str, answer: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.answer = answer


class _TurnEnded(Exception):
    def __init__(self, status: str, reason: str) -> None:
        super().__init__(status)
        self.status = status
        self.reason = reason


class GeminiTurnRunner:
    def __init__(self, hooks: GeminiEvents) -> None:
        self.hooks = hooks
        self._turns = 0

    async def run(self, scenario: Scenario) -> list[GeminiTurnOutcome]:
        session = GeminiSession(session_uuid(scenario.session), self.hooks.project_dir)
        start = await self._session_event(session, SESSION_START, {"source": "startup"})
        context = start.additional_context
        outcomes = []
        for turn in scenario.turns:
            outcomes.append(await self.run_turn(session, turn, scenario.model, context))
            context = ""  # prepended to the first prompt only
        end = await self._session_event(session, SESSION_END, {"reason": "exit"})
        if outcomes:
            outcomes[0].events.insert(0, start)
            outcomes[-1].events.append(end)
        return outcomes

    async def run_turn(
        self, session: GeminiSession, turn: Turn, model: str, context: str = ""
    ) -> GeminiTurnOutcome:
        self._turns += 1
        outcome = GeminiTurnOutcome(f"turn-{self._turns}")
        chosen = turn.model or model
        play = _Play(self, session, outcome, MODEL if chosen == DEFAULT_MODEL else chosen)
        try:
            prompt = await play.prompt(
                f"{hook_context(context)}\n\n{turn.user}" if context else turn.user
            )
            try:
                for rnd in turn.rounds:
                    if not await play.round(rnd):  # no call to answer: the model is not asked again
                        break
                outcome.final_content = play.final_text
            except _ModelBlocked as blocked:  # the turn's model calls end; AfterAgent still fires
                outcome.status, outcome.reason = MODEL_BLOCKED, blocked.reason
                outcome.final_content = blocked.answer
            await play.after_agent(prompt, outcome.final_content)
        except _TurnEnded as ended:
            outcome.status, outcome.reason = ended.status, ended.reason
        return outcome

    async def _session_event(
        self, session: GeminiSession, event: str, fields: JSONObject
    ) -> EventOutcome:
        payload = session.payload(event, fields)
        return await self.hooks.fire(event, payload, source=SOURCE, env=session.env())


class _Play:
    """One turn in progress."""

    def __init__(
        self,
        runner: GeminiTurnRunner,
        session: GeminiSession,
        outcome: GeminiTurnOutcome,
        model: str,
    ) -> None:
        self.runner = runner
        self.session = session
        self.outcome = outcome
        self.model = model
        self.messages: list[JSONObject] = []
        # each model call's answer as AfterAgent reads it (turn.ts getResponseText): its
        # streamed responses' texts joined by spaces, a function call's response adding ""
        self.responses: list[str] = []
        self.final_text = ""  # the last model call's text, as `gemini -p` prints it

    async def fire(self, event: str, fields: JSONObject) -> EventOutcome:
        result = await self.runner.hooks.fire(
            event,
            self.session.payload(event, fields),
            source=SOURCE,
            turn=self.outcome.turn_id,
            env=self.session.env(),
        )
        self.outcome.events.append(result)
        if result.system_message:
            self.outcome.system_messages.append(result.system_message)
        return result

    async def prompt(self, text: str) -> str:
        result = await self.fire(BEFORE_AGENT, {"prompt": text})
        if result.stopped:
            raise _TurnEnded(STOPPED, result.reason)
        if result.blocked:
            raise _TurnEnded(PROMPT_BLOCKED, result.reason)
        added = result.additional_context  # a part of its own after the prompt's
        self.messages.append({"role": "user", "content": text + hook_context(added)})
        return text

    async def round(self, rnd: Round) -> bool:
        """One model call; whether it made function calls Gemini CLI ran (and so asks again)."""
        await self.fire(PRE_COMPRESS, {"trigger": "auto"})
        request = llm_request(self.model, list(self.messages))
        before = await self.fire(BEFORE_MODEL, {"llm_request": request})
        self._end_if_refused(before)
        request = rewritten_request(request, before.specific.get("llm_request"))
        selection = await self.fire(BEFORE_TOOL_SELECTION, {"llm_request": request})
        if isinstance(config := selection.specific.get("toolConfig"), dict):
            self.outcome.tool_configs.append(config)
        self.outcome.model_requests.append(request)
        self.messages = list(request["messages"])
        heard = await self.stream(request, stream(rnd))
        self.final_text = heard.content
        if said := heard.said():
            self.responses.append(said)
        if heard.refused is not None and not heard.calls:  # nothing to run: the turn ends
            raise _ModelBlocked(heard.refused, heard.content)
        if heard.refused is None and rnd.content:  # a refused stream never reaches the history
            self.messages.append({"role": "model", "content": rnd.content})
        for call in heard.calls:
            await self.tool(call)
        return bool(heard.calls)

    async def stream(self, request: JSONObject, chunks: list[Chunk]) -> Heard:
        """AfterModel per chunk, and what Gemini CLI took of them."""
        heard = Heard()
        for at, chunk in enumerate(chunks):
            response = chunk_response(chunk, last=at == len(chunks) - 1, count=len(chunks))
            after = await self.fire(AFTER_MODEL, {"llm_request": request, "llm_response": response})
            if after.stopped:
                raise _TurnEnded(STOPPED, after.reason)
            if after.blocked:  # the refused chunk goes on as it came, and the stream ends
                heard.take(chunk)
                heard.refused = after.reason
                break
            heard.take(chunk, replacement(after.specific.get("llm_response")))
        return heard

    def _end_if_refused(self, result: EventOutcome) -> None:
        if result.stopped:
            raise _TurnEnded(STOPPED, result.reason)
        if result.blocked:
            answer = synthetic_text(result.specific.get("llm_response"))
            if answer:
                self.responses.append(answer)
            raise _ModelBlocked(result.reason, answer)

    async def tool(self, call: ScriptedCall) -> None:
        asked_for = dict(call.arguments)
        before = await self.fire(BEFORE_TOOL, {"tool_name": call.tool, "tool_input": asked_for})
        if before.stopped:
            told = f"Agent execution stopped by hook: {before.reason}"
            self._use(ToolUse(call.tool, asked_for, False, told, True, asked_for))
            raise _TurnEnded(STOPPED, before.reason)
        if before.blocked:
            told = f"Tool execution blocked: {before.reason}"
            self._use(ToolUse(call.tool, asked_for, False, told, True, asked_for))
            return
        if before.asks:
            raise _TurnEnded(ASK_UNANSWERED, "gemini -p waits for a confirmation nobody can give")
        arguments = before.tool_input if before.tool_input is not None else asked_for
        told = call.error if call.error is not None else call.result
        if before.tool_input is not None:
            told += f"\n\n{INPUT_CHANGED}"
        response = tool_response(call.result, call.error)
        after = await self.fire(  # 0.61.0 shows AfterTool the arguments the tool ran with
            AFTER_TOOL,
            {"tool_name": call.tool, "tool_input": arguments, "tool_response": response},
        )
        use = ToolUse(call.tool, arguments, True, told, call.error is not None, asked_for)
        if after.stopped:
            use.told, use.is_error = f"Agent execution stopped by hook: {after.reason}", True
            self._use(use)
            raise _TurnEnded(STOPPED, after.reason)
        if after.blocked:  # the result becomes an error whose message is the reason alone
            use.told, use.is_error = after.reason, True
        elif context := after.additional_context:
            use.told += f"\n\n{hook_context(context)}"
        self._use(use)

    def _use(self, use: ToolUse) -> None:
        # function calls and responses are no text: the hooks' llm_request leaves them out
        self.outcome.tool_uses.append(use)

    async def after_agent(self, prompt: str, response: str) -> None:
        """AfterAgent, and a retry for each deny: its reason is the next prompt (BeforeAgent
        fires with it), the model answers again (the scenario's final answer, which a scenario
        cannot script anew) and AfterAgent fires with the answers so far and stop_hook_active."""
        for retry in range(MAX_TURNS):
            fields = {
                "prompt": prompt,
                "prompt_response": "\n".join(self.responses) or NO_RESPONSE,
                "stop_hook_active": retry > 0,
            }
            result = await self.fire(AFTER_AGENT, fields)
            if result.stopped:
                raise _TurnEnded(STOPPED, result.reason)
            if not result.blocked:
                return
            self.outcome.retry_reasons.append(result.reason)
            await self.prompt(result.reason)
            with contextlib.suppress(_ModelBlocked):  # its answer, if any, is in responses
                await self.round(Round(response))
        raise _TurnEnded(RETRY_LOOP, f"AfterAgent denied {MAX_TURNS} answers in a row")


def synthetic_text(response: object) -> str:
    """The text of a hook's llm_response: its candidates' parts (strings), else its `text`."""
    if not isinstance(response, dict):
        return ""
    candidates = response.get("candidates")
    parts: list[str] = []
    for candidate in candidates if isinstance(candidates, list) else []:
        content = candidate.get("content") if isinstance(candidate, dict) else None
        said = content.get("parts") if isinstance(content, dict) else None
        parts += [part for part in said if isinstance(part, str)] if isinstance(said, list) else []
    text = response.get("text")
    return "".join(parts) or (text if isinstance(text, str) else "")


def hook_context(text: str) -> str:
    """How Gemini CLI wraps a hook's additionalContext for the model ("" for none)."""
    return f"<hook_context>{text}</hook_context>" if text else ""


def rewritten_request(request: JSONObject, change: object) -> JSONObject:
    """The request after a BeforeModel llm_request (fromHookLLMRequest): its model and config
    replace the request's; its messages replace the text of the request's messages in order,
    and messages beyond them are added."""
    if not isinstance(change, dict):
        return request
    rewritten = dict(request)
    if isinstance(change.get("model"), str):
        rewritten["model"] = change["model"]
    if isinstance(change.get("config"), dict):
        rewritten["config"] = {**request.get("config", {}), **change["config"]}
    messages = change.get("messages")
    if isinstance(messages, list):
        base: Sequence[JSONObject] = request.get("messages", [])
        merged = [dict(message) for message in messages if isinstance(message, dict)]
        rewritten["messages"] = merged + [dict(message) for message in base[len(merged) :]]
    return rewritten
