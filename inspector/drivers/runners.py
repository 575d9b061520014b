"""Which turn runner plays a scenario: the one for the host whose hooks the engine runs."""

from __future__ import annotations

from inspector.engine import Engine
from inspector.hosts.host import TurnRunner
from inspector.hosts.openclaw.host_mode_turn import OpenClawTurnRunner
from inspector.hosts.picoclaw.turn import TurnRunner as PipelineTurnRunner


def turn_runner(engine: Engine) -> TurnRunner:
    """The command-hook host's own turn, or PicoClaw's turn over the JSON-RPC pipeline when the
    engine runs process hooks, or an OpenClaw agent run over the engine's plugin."""
    if engine.plugin is not None:
        return OpenClawTurnRunner(engine.plugin)
    if engine.commands is not None:
        return engine.commands.turn_runner()
    return PipelineTurnRunner(engine.pipeline)
