"""`hook-inspector run`: play a scenario headless, printing every record as it happens."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from inspector.cli.printer import Printer
from inspector.cli.session import config_or_demo, error_findings, hooks_that_never_started
from inspector.demo import DEMO_SCENARIO
from inspector.drivers.scenario import load_scenario
from inspector.drivers.turn_runner import TurnRunner
from inspector.engine import Engine

EXIT_OK, EXIT_PROBLEMS = 0, 1


async def run_scenario(
    config_path: Path | None,
    scenario_path: Path | None,
    journal_path: Path | None,
    *,
    as_json: bool,
) -> int:
    config = config_or_demo(config_path)
    scenario = load_scenario(scenario_path or DEMO_SCENARIO)
    engine = Engine(config, journal_path=journal_path)
    printer = Printer(engine.journal, as_json=as_json)
    try:
        async with engine:
            outcomes = await TurnRunner(engine.pipeline).run(scenario)
            await engine.pipeline.drain_events()
    finally:
        printer.close()
    errors = error_findings(engine.journal)
    missing = hooks_that_never_started(engine.journal, [spec.name for spec in config.enabled_hooks])
    if not as_json:
        summary = Console(stderr=True, highlight=False)
        statuses = ", ".join(outcome.status for outcome in outcomes)
        summary.print(
            f"{len(outcomes)} turn(s): {statuses}; {errors} error finding(s)"
            + (f"; never ready: {', '.join(missing)}" if missing else ""),
            markup=False,
        )
    return EXIT_PROBLEMS if errors or missing else EXIT_OK
