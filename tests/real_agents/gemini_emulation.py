"""hook-inspector's own Gemini CLI emulation, driven like a real `gemini -p` session: the same
settings, the same prompt, and the fake model's script as a scenario."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fake_gemini import Reply

from inspector.hooks.approvals import Approvals
from inspector.hosts.gemini.chain import GeminiHooks
from inspector.hosts.gemini.config import read_gemini
from inspector.hosts.gemini.turn import GeminiTurnOutcome
from inspector.journal.journal import Journal
from inspector.scenario import Round, Scenario, ScriptedCall, Turn


def scenario_like(prompt: str, script: list[Reply], result: str = "") -> Scenario:
    """One turn: `prompt`, then a round per reply of the fake model, streamed in the same chunks,
    each call answering `result`."""
    rounds = tuple(
        Round(
            reply.text,
            tuple(ScriptedCall(call.name, dict(call.args), result=result) for call in reply.calls),
            chunks=reply.chunks,
        )
        for reply in script
    )
    return Scenario(name="like a gemini -p session", turns=(Turn(prompt, rounds),))


def emulate(project: Path, scenario: Scenario) -> GeminiTurnOutcome:
    """The project's settings played through the turn runner, nobody at the approval prompt."""
    read = read_gemini(project)
    hooks = GeminiHooks(read.config.command_hooks, Journal(), Approvals(), project_dir=project)
    hooks.approvals.unattended = True
    [outcome] = asyncio.run(hooks.turn_runner().run(scenario))
    return outcome
