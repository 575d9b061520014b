"""A subagent as `codex exec` 0.171.0 runs one (seen with the real CLI offline).

The model calls spawn_agent (the multi_agent_v1 tool; a scenario writes `tool: spawn_agent`,
`arguments: {message: TASK}`, and `result` as the subagent's final answer). Hooks see the call as
tool_name spawn_agent with its arguments; the tool answers the parent's model at once with
`{"agent_id":ID,"nickname":NAME}` (its PostToolUse tool_response). The subagent then runs a turn
of its own in the parent's session: SubagentStart (agent_id, agent_type "default"), its
UserPromptSubmit with the task (agent_id and agent_type in the payload), its final answer, and
SubagentStop in place of Stop (a block is a continuation prompt: it answers again). It starts no
session: no SessionStart, no SessionEnd. In Codex the subagent runs alongside the parent, so
its events fall among the parent's as timing has it; the runner plays them right after the
spawn's PostToolUse, in that order.

The parent waits for it with wait_agent (multi_agent_v1 too), which hooks see as tool_name
`multi_agent_v1wait_agent`; its `targets` are the spawned agents' ids (the runner puts in the
ones it made, since a scenario cannot know them) and it answers
`{"status":{ID:{"completed":ANSWER}},"timed_out":false}`.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from inspector.hosts.codex.templates import CodexSession
from inspector.scenario import ScriptedCall

JSONObject = dict[str, Any]

SPAWN_AGENT = "spawn_agent"
WAIT_AGENT = "wait_agent"
WAIT_AGENT_HOOK_NAME = "multi_agent_v1wait_agent"  # the tool's namespace and name, run together
AGENT_TYPE = "default"  # spawn_agent takes no type: every subagent is Codex's default agent
NICKNAME = "Godel"  # Codex draws one from its list of names; the emulation names every one so


def spawn_response(child: CodexSession) -> str:
    """What spawn_agent answers the parent's model (and its PostToolUse)."""
    return _compact({"agent_id": agent_id(child), "nickname": NICKNAME})


def agent_id(child: CodexSession) -> str:
    return str((child.agent or {}).get("agent_id", ""))


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def wait_input(call: ScriptedCall, spawned: list[tuple[str, str | None]]) -> JSONObject:
    """wait_agent's input as hooks see it: its targets are the agents spawned so far."""
    return {**call.arguments, "targets": [agent_id for agent_id, _ in spawned]}


def wait_response(spawned: list[tuple[str, str | None]]) -> str:
    """What wait_agent answers once every subagent has finished: its final answer, or null for
    one whose prompt a hook stopped (as codex 0.171.0 answers it)."""
    status = {agent_id: {"completed": answer} for agent_id, answer in spawned}
    return _compact({"status": status, "timed_out": False})


def subagent_session(parent: CodexSession, number: int) -> CodexSession:
    """The subagent's session: the parent's, with an agent of its own and a turn of its own."""
    agent_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{parent.session_id}:agent:{number}"))
    return CodexSession(
        parent.session_id,
        parent.cwd,
        model=parent.model,
        permission_mode=parent.permission_mode,
        agent={"agent_id": agent_id, "agent_type": AGENT_TYPE},
    )
