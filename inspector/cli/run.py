"""`hook-inspector run`: play a scenario headless, printing every record as it happens."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from inspector.cli.otlp import close_spans
from inspector.cli.printer import Printer
from inspector.cli.session import (
    config_or_demo,
    crashes,
    error_findings,
    failed_calls,
    hooks_that_never_started,
)
from inspector.config import Config
from inspector.config.errors import ConfigError
from inspector.demo import DEMO_CONFIG, EXAMPLES, default_scenario, scenarios_near
from inspector.engine import Engine
from inspector.hosts.registry import NATIVE, host_label, host_named
from inspector.hosts.runtime import TurnOutcome
from inspector.journal.records import Exchange, Reload
from inspector.reload.watcher import Reloader
from inspector.scenario import load_scenario

if TYPE_CHECKING:
    from inspector.otel.exporter import LiveSpans

EXIT_OK, EXIT_PROBLEMS = 0, 1


async def run_scenario(
    config_path: Path | None,
    scenario_path: Path | None,
    journal_path: Path | None,
    *,
    as_json: bool,
    watch: bool = False,
    strict: bool = False,
    spans: LiveSpans | None = None,
) -> int:
    """1 on an error-severity finding or a hook that never started; with `strict`, also on a
    failed call (error, timeout, exited, invalid, not_sent) or a hook that crashed."""
    config = config_or_demo(config_path)
    scenario = load_scenario(scenario_path or _scenario_near(config_path, config))
    engine = Engine(config, journal_path=journal_path)
    engine.approvals.unattended = True  # no UI: nobody can answer a prompt
    printer = Printer(engine.journal, as_json=as_json)
    if spans is not None:
        spans.attach(engine.journal)
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
        close_spans(spans)
    errors = error_findings(engine.journal)
    plugin = [config.plugin.id] if config.plugin else []
    names = [spec.name for spec in config.enabled_hooks] + plugin
    missing = hooks_that_never_started(engine.journal, names)
    failed = len(failed_calls(engine.journal, _run_failed))
    crashed = len(crashes(engine.journal))
    if not as_json:
        summary.print(
            f"{errors} error finding(s); {failed} failed call(s); {crashed} crash(es)"
            + (f"; never ready: {', '.join(missing)}" if missing else ""),
            markup=False,
        )
    if errors or missing or (strict and (failed or crashed)):
        return EXIT_PROBLEMS
    return EXIT_OK


def _scenario_near(config_path: Path | None, config: Config) -> Path:
    """The scenario next to the config; the demo's only for PicoClaw hooks: its turn is written
    for the demo's hooks, and misses another host's project (its tools, its events)."""
    if config_path is None or config.host == NATIVE.name or scenarios_near(config_path):
        return default_scenario(config_path)
    example = EXAMPLES / config.host / "scenario.yaml"
    start = f" ({example} is one to start from)" if example.is_file() else ""
    raise ConfigError(
        str(config_path),
        f"No scenario files next to the config (the demo's turn is written for the PicoClaw "
        f"demo's hooks, not these {host_label(config.host)} hooks); name one with --scenario "
        f"FILE{start}",
    )


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


def _run_failed(exchange: Exchange) -> bool:
    return host_named(exchange.host).run_failed(exchange)
