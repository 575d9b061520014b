"""`hook-inspector run`: play a scenario headless, printing every record as it happens."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from inspector.cli.printer import Printer
from inspector.demo import DEMO_CONFIG, default_scenario
from inspector.engine import Engine
from inspector.hosts.runtime import TurnOutcome
from inspector.journal.records import Reload
from inspector.reload.watcher import Reloader
from inspector.scenario import load_scenario
from rich.console import Console

from inspector.cli.session import (
    config_or_demo,
    crashes,
    error_findings,
    failed_calls,
    hooks_that_never_started,
)

EXIT_OK, EXIT_PROBLEMS = 0, 1


async def run_scenario(
    config_path: Path | None,
    scenario_path: Path | None,
    journal_path: Path | None,
    *,
    as_json: bool,
    watch: bool = False,
    strict: bool = False,
) -> int:
    """1 on an error-severity finding or a hook that never started; with `strict`, also on a
    failed call (error, timeout, exited, invalid, not_sent) or a hook that crashed."""
    config = config_or_demo(config_path)
    scenario = load_scenario(scenario_path or default_scenario(config_path))
    engine = Engine(config, journal_path=journal_path)
    engine.approvals.unattended = True  # no UI: nobody can answer a prompt
    printer = Printer(engine.journal, as_json=as_json)
    summary = Console(stderr=True, highlight=False)

    async def play() -> Sequence[TurnOutcome]:
        outcomes = await engine.runtime.turn_runner().run(scenario)
        await engine.runtime.settle()
        if not as_json:
            statuses = ", ".join(outcome.status for outcome in outcomes)
            summary.print(f"{len(outcomes)} turn(s): {statuses}", markup=False)
        return outcomes

    try:
        async with engine:
            if watch:
                await _replay_on_reload(engine, config_path or DEMO_CONFIG, play)
            else:
                await play()
    finally:
        await printer.aclose()
    errors = error_findings(engine.journal)
    plugin = [config.plugin.id] if config.plugin else []
    names = [spec.name for spec in config.enabled_hooks] + plugin
    missing = hooks_that_never_started(engine.journal, names)
    failed, crashed = len(failed_calls(engine.journal)), len(crashes(engine.journal))
    if not as_json:
        summary.print(
            f"{errors} error finding(s); {failed} failed call(s); {crashed} crash(es)"
            + (f"; never ready: {', '.join(missing)}" if missing else ""),
            markup=False,
        )
    if errors or missing or (strict and (failed or crashed)):
        return EXIT_PROBLEMS
    return EXIT_OK


async def _replay_on_reload(
    engine: Engine, config_path: Path, play: Callable[[], Awaitable[object]]
) -> None:
    """The terminal-only edit loop: play, then play again after every good reload, until Ctrl-C.
    The watcher is looking before the first play, so no save is missed."""
    reloads: asyncio.Queue[Reload] = asyncio.Queue()
    reloader = Reloader(engine, config_path, on_reload=reloads.put_nowait)
    watching = asyncio.create_task(reloader.watch())
    try:
        await reloader.armed.wait()
        await play()
        while True:
            if (await reloads.get()).error is None:
                await play()
    finally:
        watching.cancel()
