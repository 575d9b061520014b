"""What a live Gemini CLI gets back from the relay for one event: the inspector's hooks' merged
answer as one hook's JSON on stdout, exit 0. Gemini CLI merges it with its other hooks' answers
by the same rules, so one merged answer acts as all of them did. A held BeforeTool whose
tool_input a person changed sends the change as `hookSpecificOutput.tool_input`, which 0.61.0
builds the call from. An event none of the inspector's hooks answered, and nobody changed, gets
nothing (the relay as if absent)."""

from __future__ import annotations

import json
from typing import Any

from inspector.hosts.gemini.chain import with_tool_input
from inspector.hosts.gemini.events import BEFORE_TOOL
from inspector.hosts.gemini.outcome import EventOutcome
from inspector.hosts.host import ABSENT, HookOutput

JSONObject = dict[str, Any]


EDITED_ON = frozenset({BEFORE_TOOL})  # a held BeforeTool's changed tool_input goes on


def gemini_output(outcome: EventOutcome, edited: JSONObject | None = None) -> HookOutput:
    if edited is not None and not (outcome.blocked or outcome.stopped):
        outcome = with_tool_input(outcome, edited)
    output = outcome.merged or {}
    if not output:
        return ABSENT
    compact = json.dumps(output, separators=(",", ":"), ensure_ascii=False)
    action = "modify" if edited is not None and outcome.verdict != "deny" else outcome.verdict
    return HookOutput(stdout=compact, action=action)
