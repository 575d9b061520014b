"""Play scenario turns against an OpenClaw plugin's hooks the way an OpenClaw agent run fires
them, with no LLM. Per turn: before_model_resolve, before_prompt_build, then per round llm_input
and llm_output, and for each tool call before_tool_call and (unless the hooks blocked it)
after_tool_call with the scripted result; after the final answer, agent_end and message_sending
(the reply on its way to the channel). A blocked tool call does not end the turn: the model is
told the block reason and the scenario goes on, as in OpenClaw."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from inspector.hosts.openclaw.merge import BLOCK, CANCEL, Merge
from inspector.scenario import Round, Scenario, ScriptedCall, Turn

SOURCE = "scenario"
AGENT_ID = "main"
PROVIDER = "openai"
JSONObject = dict[str, Any]

COMPLETED = "completed"
NOT_DELIVERED = "not_delivered"  # message_sending cancelled the reply


class PluginHooks(Protocol):
    async def fire(
        self,
        hook_name: str,
        event: JSONObject,
        ctx: JSONObject | None = None,
        *,
        source: str,
        turn: str | None = None,
    ) -> Merge: ...


@dataclass(slots=True)
class ToolCall:
    tool: str
    params: JSONObject  # what the tool ran with (or would have)
    ran: bool
    told: str  # what the model reads of the call: its result, or the block reason


@dataclass(slots=True)
class OpenClawTurnOutcome:
    turn_id: str
    status: str = COMPLETED
    final_content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)


class OpenClawTurnRunner:
    def __init__(self, hooks: PluginHooks) -> None:
        self.hooks = hooks
        self._turns = 0
        self._calls = 0

    async def run(self, scenario: Scenario) -> list[OpenClawTurnOutcome]:
        return [await self.run_turn(scenario, turn) for turn in scenario.turns]

    async def run_turn(self, scenario: Scenario, turn: Turn) -> OpenClawTurnOutcome:
        self._turns += 1
        outcome = OpenClawTurnOutcome(f"turn-{self._turns}")
        run_id = f"run-{self._turns}"
        ctx = {
            "agentId": AGENT_ID,
            "sessionKey": f"agent:{AGENT_ID}:{scenario.session}",
            "sessionId": scenario.session,
            "runId": run_id,
            "channelId": scenario.channel,
        }
        model = scenario.model_for(turn)
        history: list[JSONObject] = [{"role": "user", "content": turn.user}]
        await self._fire("before_model_resolve", {"prompt": turn.user}, ctx, outcome)
        build = {"prompt": turn.user, "messages": list(history)}
        await self._fire("before_prompt_build", build, ctx, outcome)
        for rnd in turn.rounds:
            await self._round(rnd, ctx, model, scenario.system or "", history, outcome)
        outcome.final_content = turn.rounds[-1].content
        end = {"runId": run_id, "messages": history, "success": True, "durationMs": 0}
        await self._fire("agent_end", end, ctx, outcome)
        sending = {"to": scenario.session, "content": outcome.final_content, "metadata": {}}
        delivery = await self._fire("message_sending", sending, ctx, outcome)
        if delivery.verdict == CANCEL:
            outcome.status = NOT_DELIVERED
        elif "content" in delivery.fields:
            outcome.final_content = delivery.fields["content"]
        return outcome

    async def _round(
        self,
        rnd: Round,
        ctx: JSONObject,
        model: str,
        system: str,
        history: list[JSONObject],
        outcome: OpenClawTurnOutcome,
    ) -> None:
        call = {"runId": ctx["runId"], "sessionId": ctx["sessionId"], "provider": PROVIDER}
        call["model"] = model
        llm_input = call | {
            "systemPrompt": system,
            "prompt": history[0]["content"],
            "historyMessages": list(history),
            "imagesCount": 0,
        }
        await self._fire("llm_input", llm_input, ctx, outcome)
        texts = [rnd.content] if rnd.content else []
        assistant = {"role": "assistant", "content": rnd.content}
        output = call | {"assistantTexts": texts, "lastAssistant": assistant}
        await self._fire("llm_output", output, ctx, outcome)
        history.append(assistant)
        for scripted in rnd.tool_calls:
            tool_call = await self._tool_call(scripted, ctx, outcome)
            history.append(
                {"role": "toolResult", "toolName": tool_call.tool, "content": tool_call.told}
            )

    async def _tool_call(
        self, scripted: ScriptedCall, ctx: JSONObject, outcome: OpenClawTurnOutcome
    ) -> ToolCall:
        self._calls += 1
        ids = {"runId": ctx["runId"], "toolCallId": f"call_{self._calls:04d}"}
        event = {"toolName": scripted.tool, "params": dict(scripted.arguments)} | ids
        tool_ctx = ctx | {"toolName": scripted.tool, "toolCallId": ids["toolCallId"]}
        merge = await self._fire("before_tool_call", event, tool_ctx, outcome)
        params = merge.tool_params()
        if merge.verdict == BLOCK:
            tool_call = ToolCall(scripted.tool, params, ran=False, told=merge.reason)
        else:
            tool_call = ToolCall(scripted.tool, params, ran=True, told=scripted.for_llm)
            after = event | {"params": params, "durationMs": 0}
            if scripted.is_error:
                after["error"] = scripted.for_llm
            else:
                content = [{"type": "text", "text": scripted.for_llm}]
                after["result"] = {"content": content, "details": {}}
            await self._fire("after_tool_call", after, tool_ctx, outcome)
        outcome.tool_calls.append(tool_call)
        return tool_call

    async def _fire(
        self, hook_name: str, event: JSONObject, ctx: JSONObject, outcome: OpenClawTurnOutcome
    ) -> Merge:
        return await self.hooks.fire(hook_name, event, ctx, source=SOURCE, turn=outcome.turn_id)
