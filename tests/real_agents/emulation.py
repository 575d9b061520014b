"""hook-inspector's own Claude Code emulation, driven like a real `claude -p` session: the same
hooks, the same prompt, and the fake model's script as a scenario."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fake_anthropic import Reply, ToolCall

from inspector.hooks.approvals import Approvals
from inspector.hosts.claude.chain import ClaudeHooks
from inspector.hosts.claude.config import read_claude
from inspector.hosts.claude.permission_layer import PermissionLayer
from inspector.hosts.claude.turn import ClaudeTurnOutcome
from inspector.hosts.claude.versions import claude_version
from inspector.journal.journal import Journal
from inspector.scenario import Round, Scenario, ScriptedCall, Turn

JSONObject = dict[str, Any]

ALLOWED_TOOLS = ("Bash",)  # what ClaudeCli.run passes to --allowedTools unless told otherwise


def scenario_like(
    prompt: str,
    script: Sequence[Reply],
    *,
    session: str,
    results: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
) -> Scenario:
    """One turn: `prompt`, then a round per reply of the fake model. A tool call's scripted
    result or error is looked up by its tool_use id in `results` / `errors`."""
    results, errors = results or {}, errors or {}
    rounds = tuple(
        Round(reply.text, tuple(_scripted(call, results, errors) for call in reply.tool_calls))
        for reply in script
    )
    return Scenario(name="like a claude -p session", turns=(Turn(prompt, rounds),), session=session)


def _scripted(
    call: ToolCall, results: Mapping[str, str], errors: Mapping[str, str]
) -> ScriptedCall:
    if call.id in errors:
        return ScriptedCall(call.name, call.input, error=errors[call.id])
    if call.id in results:
        return ScriptedCall(call.name, call.input, result=results[call.id])
    return ScriptedCall(call.name, call.input)


async def emulate(
    project: Path,
    settings: JSONObject,
    scenario: Scenario,
    *,
    version: str,
    allowed_tools: Sequence[str] = ALLOWED_TOOLS,
    journal: Journal | None = None,
) -> ClaudeTurnOutcome:
    """Play `scenario` against `settings`' hooks and permissions with `project` as the project
    folder, as `claude -p --allowedTools ALLOWED_TOOLS` of Claude Code `version` would: nobody
    answers an `ask`. The settings are written beside the project (as an untrusted project's)."""
    file = project.parent / "inspector-settings.json"
    file.write_text(json.dumps(settings))
    read = read_claude(file)
    approvals = Approvals()
    approvals.unattended = True
    emulated = claude_version(version)
    layer = PermissionLayer(read.files, project, cli_allowed=allowed_tools)
    hooks = ClaudeHooks(
        read.config.command_hooks,
        journal if journal is not None else Journal(),
        approvals,
        project_dir=project,
        version=emulated,
        permissions=layer,
    )
    [outcome] = await hooks.turn_runner().run(scenario)
    return outcome
