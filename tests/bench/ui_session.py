"""A 100,000-exchange session in the UI, headless: opening it, scrolling it, filtering it.

Baselines measured in the same run: json.loads of every line of the file and nothing else (the
least a viewer without an index must do before showing it; the session opens through the index
its writer kept), and the filter as a plain list comprehension with a hand-written test over the
records in memory.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from inspector.filter import compile_filter
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, load_journal
from inspector.tui.app import InspectorApp
from inspector.tui.launch import read_only_session
from inspector.tui.widgets.exchange_list import ExchangeList

from . import Row, row
from .filter_speed import exchanges

EXPRESSION = "hook:redactor & !status:ok"
SIZE = (160, 48)
PAGES = 40


def save(count: int, folder: Path) -> Path:
    journal = Journal()
    path = folder / "session.jsonl"
    writer = JsonlWriter(path).attach(journal)
    for exchange in exchanges(count):
        journal.append(exchange)
    writer.close()
    return path


async def in_the_ui(path: Path, settings: Path) -> dict[str, float]:
    """Times, in ms, for the UI: open (load + first full index), scroll, and filter."""
    started = time.perf_counter()
    session = read_only_session(path)  # as `hook-inspector open` opens it: through its index
    journal = session.engine.journal
    app = InspectorApp(session, settings_path=settings)
    figures: dict[str, float] = {}
    async with app.run_test(size=SIZE) as pilot:
        rows = app.query_one(ExchangeList)
        while len(rows.rows) < len(journal.records):
            await pilot.pause(0.01)
        figures["open"] = (time.perf_counter() - started) * 1000
        rows.focus()
        started = time.perf_counter()
        for _ in range(PAGES):
            await pilot.press("pagedown")
        await pilot.press("end", "home")
        await pilot.pause()
        figures["scroll"] = (time.perf_counter() - started) * 1000 / (PAGES + 2)
        predicate = compile_filter(EXPRESSION)
        times = []
        for _ in range(5):
            started = time.perf_counter()
            rows.set_filter(predicate)
            times.append((time.perf_counter() - started) * 1000)
            rows.set_filter(None)
        figures["filter"] = statistics.median(times)
    return figures


def baselines(path: Path) -> dict[str, float]:
    started = time.perf_counter()
    with path.open(encoding="utf-8") as lines:
        parsed = [json.loads(line) for line in lines]
    load = (time.perf_counter() - started) * 1000
    del parsed
    records = load_journal(path).records
    times = []
    for _ in range(5):
        started = time.perf_counter()
        _ = [r for r in records if getattr(r, "hook", "") == "redactor" and r.status != "ok"]  # type: ignore[attr-defined]
        times.append((time.perf_counter() - started) * 1000)
    return {"open": load, "filter": statistics.median(times)}


def run(quick: bool) -> list[Row]:
    count = 5_000 if quick else 100_000
    with tempfile.TemporaryDirectory() as folder:
        path = save(count, Path(folder))
        base = baselines(path)
        ui = asyncio.run(in_the_ui(path, Path(folder) / "settings"))
    label = f"{count:,} exchanges"
    return [
        row(
            f"ui: open a saved session of {label}, ms",
            base["open"],
            ui["open"],
            None,
            "baseline = json.loads of every line, nothing else",
        ),
        row(
            f"ui: filter {label} ({EXPRESSION}), ms",
            base["filter"],
            ui["filter"],
            None,
            f"baseline = a hand-written list comprehension; target < 100 ms: "
            f"{'met' if ui['filter'] < 100 else 'missed'} ({ui['filter']:.0f} ms)",
        ),
        Row(
            f"ui: one page down in {label}, ms",
            ui["scroll"],
            ui["scroll"],
            1.0,
            None,
            "no baseline: time per key press including the repaint",
        ),
    ]
