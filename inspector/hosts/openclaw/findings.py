"""Findings for OpenClaw plugin hooks: the traps OpenClaw's hook docs name, where a plugin's
answer means something other than what its author most likely meant. Each finding's host_does
holds what OpenClaw does."""

from __future__ import annotations

from inspector.findings.codes import CodeInfo, coded
from inspector.findings.finding import Finding

CONVERSATION_HOOKS = frozenset({"llm_input", "llm_output", "before_agent_finalize", "agent_end"})

CODES: dict[str, CodeInfo] = {
    "openclaw-block-false": CodeInfo(
        "warning",
        "block: false is no decision",
        "Treats block: false (and cancel: false) as no answer: it does not allow the call over "
        "another hook's block, and lower-priority handlers still run.",
    ),
    "openclaw-params-after-approval": CodeInfo(
        "warning",
        "params after a requireApproval are ignored",
        "Freezes the params at the first requireApproval: a later handler's params never "
        "reach the tool.",
    ),
    "openclaw-handler-threw": CodeInfo(
        "error",
        "the handler threw: the tool is blocked",
        "Blocks the tool: 'Tool call blocked because before_tool_call hook failed'.",
    ),
    "openclaw-handler-timeout": CodeInfo(
        "error",
        "the handler did not answer within its timeoutMs",
        "Blocks the tool as for a thrown error; the handler's work is not cancelled.",
    ),
    "openclaw-no-conversation-access": CodeInfo(
        "error",
        "a conversation hook without hooks.allowConversationAccess",
        "Never calls llm_input, llm_output, before_agent_finalize or agent_end of a plugin "
        "whose plugins.entries.<id>.hooks.allowConversationAccess is not true.",
    ),
    "openclaw-one-registration-mode": CodeInfo(
        "warning",
        "a hook registered in only one registration mode",
        "Calls register(api) once per mode: agent runs use the 'discovery' registrations "
        "(before_tool_call...), the Gateway the 'full' ones. A hook registered only in the "
        "other mode never fires there.",
    ),
    "openclaw-register-threw": CodeInfo(
        "error",
        "register(api) threw",
        "Fails to load the plugin in that registration mode: none of its hooks from that mode.",
    ),
    "openclaw-fired-without-inspector": CodeInfo(
        "info",
        "fired while no inspector listened: the bridge plugin answered by itself",
        "Went on with the bridge plugin's own answer (its noInspector setting: continue, block "
        "or OpenClaw's own approval); the plugin kept the call for when an inspector came.",
    ),
    "openclaw-dropped-values": CodeInfo(
        "info",
        "the answer holds functions (onResolution) the journal cannot show",
        "Keeps them in process; the inspector shows where they were.",
    ),
}


def finding(code: str, message: str) -> Finding:
    return coded(CODES, code, message)
