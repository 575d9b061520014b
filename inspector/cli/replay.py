"""`hook-inspector replay`: a recorded session as a regression test for the current hooks."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from inspector.cli.session import config_or_demo
from inspector.drivers.replay import ReplayItem, ReplayReport, recorded_requests, replay
from inspector.engine import Engine
from inspector.journal.jsonl import JournalLoadError
from inspector.journal.saved import open_journal
from inspector.safe_text import json_dumps, one_line, printable

EXIT_OK, EXIT_DIFFERENT, EXIT_BAD_INPUT = 0, 1, 2
DIFF_STYLE = {"-": "red", "+": "green", "@": "cyan"}


async def replay_session(journal_path: Path, config_path: Path | None, *, as_json: bool) -> int:
    try:
        journal = open_journal(journal_path)
    except JournalLoadError as error:
        print(f"hook-inspector: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not recorded_requests(journal.records):
        print(f"hook-inspector: {journal_path}: no hook requests to replay", file=sys.stderr)
        return EXIT_BAD_INPUT
    config = config_or_demo(config_path)
    async with Engine(config, restart_crashed=False) as engine:
        report = await replay(engine, journal.records)
    if as_json:
        print(json_dumps(report.to_json(), default=str))
    else:
        print_report(report, Console(highlight=False, soft_wrap=True))
    return EXIT_OK if report.ok else EXIT_DIFFERENT


def print_report(report: ReplayReport, console: Console) -> None:
    """Every request that did not give the same answer, then the counts."""
    for item in report.items:
        if item.outcome != "same":
            print_item(item, console)
    console.print(report.summary, markup=False)


def print_item(item: ReplayItem, console: Console) -> None:
    heading = Text.assemble(
        (f"#{item.seq} ", "dim"),
        (one_line(item.hook), "bold"),
        " ",
        (one_line(item.method), "cyan"),
        ": ",
    )
    heading.append(item.outcome, style="yellow" if item.outcome == "skipped" else "bold red")
    if item.note:
        heading.append(f" ({one_line(item.note)})")
    console.print(heading)
    for line in item.diff.splitlines():
        console.print(Text(f"  {printable(line)}", style=DIFF_STYLE.get(line[:1], "")))
