"""Which turn runner plays a scenario: the one for the host whose hooks the engine runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from inspector.drivers.claude_turn import ClaudeTurnRunner
from inspector.drivers.jcli_turn import JcliTurnRunner
from inspector.drivers.scenario import Scenario
from inspector.drivers.turn_runner import TurnRunner
from inspector.engine import Engine
from inspector.pipeline.claude_hooks import ClaudeHooks
from inspector.pipeline.jcli_chain import JcliChain


class Outcome(Protocol):
    status: str


class Runner(Protocol):
    async def run(self, scenario: Scenario) -> Sequence[Outcome]: ...


def turn_runner(engine: Engine) -> Runner:
    """PicoClaw's turn over the JSON-RPC pipeline, or a j-cli or Claude Code turn over the
    engine's command hooks."""
    if isinstance(engine.commands, JcliChain):
        return JcliTurnRunner(engine.commands)
    if isinstance(engine.commands, ClaudeHooks):
        return ClaudeTurnRunner(engine.commands)
    return TurnRunner(engine.pipeline)
