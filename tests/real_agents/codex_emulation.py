"""hook-inspector's own Codex emulation, driven like a real `codex exec` run: the same hooks, the
same prompt, and the fake model's script as a scenario."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from codex_cli import MODEL
from fake_responses import Reply

from inspector.hosts.codex.chain import CodexHooks
from inspector.hosts.codex.compaction import auto_compact_limit
from inspector.hosts.codex.config import read_codex
from inspector.hosts.codex.turn import CodexTurnOutcome, CodexTurnRunner
from inspector.journal.journal import Journal
from inspector.scenario import Round, Scenario, ScriptedCall, Turn


def scenario_like(
    prompt: str, script: Sequence[Reply], results: Mapping[str, str] | None = None
) -> Scenario:
    """One turn: `prompt`, then a round per reply (with the tokens it reports); a call's result is
    looked up by call id."""
    results = results or {}
    rounds = tuple(
        Round(
            reply.text,
            tuple(
                ScriptedCall(call.name, call.arguments, result=results.get(call.call_id, ""))
                for call in reply.tool_calls
            ),
            tokens=reply.tokens,
        )
        for reply in script
    )
    return Scenario(name="like a codex exec run", turns=(Turn(prompt, rounds),), model=MODEL)


def turns_like(*turns: tuple[str, Sequence[Reply]]) -> Scenario:
    """A turn per (prompt, replies), in one session: runs of `codex exec` and `resume`."""
    played = [scenario_like(prompt, replies).turns[0] for prompt, replies in turns]
    return Scenario(name="like codex exec and resume", turns=tuple(played), model=MODEL)


async def emulate(
    project: Path, scenario: Scenario, *, approve_for_me: bool = False
) -> CodexTurnOutcome:
    """Play `scenario` against the project's (and the user's) Codex hooks, as `codex exec`
    (with `--approve-for-me` when `approve_for_me`) would, with the config.toml's compaction
    limit; the outcome of its last turn."""
    read = read_codex(project)
    hooks = CodexHooks(read.config.command_hooks, Journal(), project_dir=project)
    runner = CodexTurnRunner(
        hooks, approve_for_me=approve_for_me, auto_compact_limit=auto_compact_limit(project)
    )
    return (await runner.run(scenario))[-1]
