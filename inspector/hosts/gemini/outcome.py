"""One event's hooks' answers merged as Gemini CLI 0.61.0 merges them (hookAggregator.ts), and
what the merged answer says (types.ts: DefaultHookOutput and the event's own output class).

BeforeTool, AfterTool, BeforeAgent, AfterAgent and SessionStart: any `continue: false` stops
(stopReasons joined), any deny or block blocks (else an ask, else `allow`), reasons and
systemMessages are joined with newlines, additionalContexts too, the rest of hookSpecificOutput
merged, later keys over earlier. BeforeModel and AfterModel: later answers' fields replace
earlier ones (hookSpecificOutput merged one level). BeforeToolSelection: the union of
allowedFunctionNames, sorted; mode NONE if any says NONE (no names then), else ANY if any says
ANY, else AUTO; nothing else of the answers counts. The other events: a plain merge, later
keys over earlier."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inspector.hosts.gemini.answer import BLOCKING, Answer
from inspector.hosts.gemini.events import (
    BEFORE_TOOL,
    BEFORE_TOOL_SELECTION,
    DECIDING,
    FIELD_REPLACEMENT,
    OR_DECISION,
)
from inspector.journal.records import Exchange

JSONObject = dict[str, Any]

NO_REASON = "No reason provided"


@dataclass(frozen=True, slots=True)
class HookRun:
    hook: str
    exchange: Exchange
    answer: Answer


@dataclass(frozen=True)
class EventOutcome:
    event: str
    payload: JSONObject  # the stdin the first hook got
    runs: tuple[HookRun, ...] = ()
    merged: JSONObject | None = None  # None: no hook answered
    duplicates: tuple[tuple[str, str], ...] = ()  # (hook not run, the same command's hook)
    by: tuple[str, ...] = field(default=())  # who decided (a person, when one did)

    @property
    def stopped(self) -> bool:
        merged = self.merged or {}
        return self.event in DECIDING and merged.get("continue") is False

    @property
    def blocked(self) -> bool:
        merged = self.merged or {}
        return self.event in DECIDING and merged.get("decision") in BLOCKING

    @property
    def asks(self) -> bool:
        """A BeforeTool the hooks asked about (no deny, no stop): Gemini CLI asks its user."""
        merged = self.merged or {}
        return self.event == BEFORE_TOOL and merged.get("decision") == "ask" and not self.stopped

    @property
    def reason(self) -> str:
        """getEffectiveReason: the stopReason, else the reason, else Gemini CLI's words."""
        merged = self.merged or {}
        return str(merged.get("stopReason") or merged.get("reason") or NO_REASON)

    @property
    def specific(self) -> JSONObject:
        specific = (self.merged or {}).get("hookSpecificOutput")
        return specific if isinstance(specific, dict) else {}

    @property
    def system_message(self) -> str:
        return str((self.merged or {}).get("systemMessage") or "")

    @property
    def additional_context(self) -> str:
        """getAdditionalContext: the text, with < and > escaped."""
        context = self.specific.get("additionalContext")
        if not isinstance(context, str):
            return ""
        return context.replace("<", "&lt;").replace(">", "&gt;")

    @property
    def tool_input(self) -> JSONObject | None:
        """BeforeTool: the arguments merged over the model's."""
        value = self.specific.get("tool_input")
        return value if isinstance(value, dict) else None

    @property
    def verdict(self) -> str:
        if self.stopped:
            return "stop"
        if self.blocked:
            return "deny"
        if self.asks:
            return "ask"
        return "allow" if self.runs else "continue"


def merge(event: str, outputs: Sequence[JSONObject]) -> JSONObject | None:
    if not outputs:
        return None
    if event in OR_DECISION:
        return _or_decision(outputs)
    if event in FIELD_REPLACEMENT:
        return _field_replacement(outputs)
    if event == BEFORE_TOOL_SELECTION:
        return _tool_selection(outputs)
    merged: JSONObject = {}
    for output in outputs:
        merged.update(output)
    return merged


def _or_decision(outputs: Sequence[JSONObject]) -> JSONObject:
    merged: JSONObject = {"continue": True, "suppressOutput": False}
    stop_reasons: list[str] = []
    reasons: list[str] = []
    messages: list[str] = []
    contexts: list[str] = []
    blocked = asked = stopped = False
    for output in outputs:
        if output.get("continue") is False:
            stopped = True
            merged["continue"] = False
            if output.get("stopReason"):
                stop_reasons.append(str(output["stopReason"]))
        decision = output.get("decision")
        if decision in BLOCKING:
            blocked = True
            merged["decision"] = decision
        elif decision == "ask":
            asked = True
            if not blocked:
                merged["decision"] = decision
        if output.get("reason"):
            reasons.append(str(output["reason"]))
        if output.get("systemMessage"):
            messages.append(str(output["systemMessage"]))
        if output.get("suppressOutput"):
            merged["suppressOutput"] = True
        specific = output.get("hookSpecificOutput")
        if isinstance(specific, dict):
            rest = {key: value for key, value in specific.items() if key != "clearContext"}
            if specific.get("clearContext") is True:
                rest["clearContext"] = True
            merged["hookSpecificOutput"] = {**merged.get("hookSpecificOutput", {}), **rest}
            if isinstance(specific.get("additionalContext"), str):
                contexts.append(specific["additionalContext"])
    if not (blocked or asked or stopped):
        merged["decision"] = "allow"
    if stop_reasons:
        merged["stopReason"] = "\n".join(stop_reasons)
    if reasons:
        merged["reason"] = "\n".join(reasons)
    if messages:
        merged["systemMessage"] = "\n".join(messages)
    if contexts:
        merged["hookSpecificOutput"] = {
            **merged.get("hookSpecificOutput", {}),
            "additionalContext": "\n".join(contexts),
        }
    return merged


def _field_replacement(outputs: Sequence[JSONObject]) -> JSONObject:
    merged: JSONObject = {}
    for output in outputs:
        earlier = merged.get("hookSpecificOutput")
        later = output.get("hookSpecificOutput")
        merged = {
            **merged,
            **output,
            "hookSpecificOutput": {
                **(earlier if isinstance(earlier, dict) else {}),
                **(later if isinstance(later, dict) else {}),
            },
        }
    return merged


def _tool_selection(outputs: Sequence[JSONObject]) -> JSONObject:
    names: set[str] = set()
    none = any_mode = False
    for output in outputs:
        specific = output.get("hookSpecificOutput")
        config = specific.get("toolConfig") if isinstance(specific, dict) else None
        if not isinstance(config, dict):
            continue
        none = none or config.get("mode") == "NONE"
        any_mode = any_mode or config.get("mode") == "ANY"
        allowed = config.get("allowedFunctionNames")
        if isinstance(allowed, list):
            names.update(str(name) for name in allowed)
    mode = "NONE" if none else "ANY" if any_mode else "AUTO"
    config = {"mode": mode, "allowedFunctionNames": [] if none else sorted(names)}
    return {"hookSpecificOutput": {"hookEventName": BEFORE_TOOL_SELECTION, "toolConfig": config}}
