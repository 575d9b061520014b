"""`hook-inspector serve`: bridge mode without a terminal. Relays (live agents) connect, their
requests go through the downstream hooks, every record is printed; saves reload the hooks."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.bridge.listener import ListenError, ListenOptions, listen_for_relays
from inspector.cli.otlp import close_spans
from inspector.cli.printer import Printer
from inspector.cli.session import config_or_demo
from inspector.demo import DEMO_CONFIG
from inspector.engine import Engine
from inspector.journal.private_file import JournalFileError
from inspector.journal.spool import spool_file
from inspector.reload.watcher import Reloader

if TYPE_CHECKING:
    from inspector.otel.exporter import LiveSpans

EXIT_OK, EXIT_BAD_INPUT = 0, 2
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # SIGHUP: its terminal closed


async def serve(
    config_path: Path | None,
    listen: ListenOptions,
    *,
    journal_path: Path | None,
    as_json: bool,
    spans: LiveSpans | None = None,
) -> int:
    """Run until SIGINT, SIGTERM or SIGHUP. Nobody sits at a manual hook here: its prompts time
    out to their on_timeout, at the agent's deadline at the latest. The journal file is where
    records go once written, so a session left running for days keeps only the newest in
    memory; with no --journal that file is a private temporary one."""
    config = config_or_demo(config_path)
    with spool_file("hook-inspector-serve-") as spool:
        try:
            engine = Engine(config, journal_path=journal_path or spool, store_on_disk=True)
        except JournalFileError:
            if journal_path is not None:
                raise
            engine = Engine(config)  # no room for the file: every record stays in memory
        if spans is not None:
            spans.attach(engine.journal)
        try:
            return await _serve(engine, config_path, listen, as_json=as_json)
        finally:
            close_spans(spans)


async def _serve(
    engine: Engine, config_path: Path | None, listen: ListenOptions, *, as_json: bool
) -> int:
    engine.approvals.unattended = True  # no UI: nobody can answer a prompt
    printer = Printer(engine.journal, as_json=as_json)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop.set)
    try:
        async with engine:
            try:
                listener = await listen_for_relays(engine, listen)
            except ListenError as error:
                print(f"hook-inspector: {error}", file=sys.stderr)
                return EXIT_BAD_INPUT
            reloader = Reloader(engine, config_path or DEMO_CONFIG)
            watching = asyncio.create_task(reloader.watch())
            try:
                await reloader.armed.wait()
                http = f"; Claude Code's HTTP hooks on {listener.http.url}" if listener.http else ""
                print(
                    f"hook-inspector: listening on {listener.address}{http}",
                    file=sys.stderr,
                    flush=True,
                )
                await stop.wait()
            finally:
                watching.cancel()
                await listener.close()
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)
        await printer.aclose()
    return EXIT_OK
