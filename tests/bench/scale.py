"""A session left open for a week: a live session of many relayed exchanges, and a saved one of
1,000,000 small exchanges opened, scrolled and filtered (issue 16).

    .venv/bin/python -m tests.bench.scale [--count N]

The bench writes the saved sessions itself, straight to JSONL in the journal's own record shapes
(`tests.bench.filter_speed.make_exchange`, serialised as the journal's writer does), so building a
million takes seconds; without the index the journal's writer keeps beside its file, the first
open indexes it (measured on its own), and every later one opens through that index. Every
figure is taken in a child process of its own, so one measurement's memory does not weigh on
the next; the baselines are the same measurements on a 2,000-exchange session (or before any
record, for the live session), in the same run. The unindexed open is the UI's: a session
saved without its index (one someone sent you) is on the screen from its first lines while a
thread reads and indexes the rest; its rows say when the first screen was up, when every line
was in, and how fast a field filter is then.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from inspector.journal.index_files import index_folder
from inspector.journal.journal import Journal
from inspector.journal.jsonl import dumps
from inspector.journal.records import STATUS_PENDING, Exchange
from inspector.tui.widgets.record_list import RecordList

from . import Row, row
from .filter_speed import make_exchange

SMALL = 2_000
SESSION = 1_000_000
TEMPLATES = 64  # distinct exchanges the saved session cycles through
MARK = 987_654_321  # a seq no template has otherwise: replaced by each line's own
SIZE = ("160", "48")
PAGES = 20
FIELD_FILTER = "hook:redactor"
TEXT_FILTER = "rm -rf"
RSS_LIMIT_MB = 300.0
LATER_LIMIT_MS = 500.0  # a big session's first screen may come this much after a small one's
FIELD_LIMIT_MS = 300.0
TEXT_LIMIT_MS = 1000.0
PAGE_LIMIT_MS = 16.0
# An exchange row starts with its number and its time.
EXCHANGE_ROW = re.compile(r"^ *\d+ \d\d:\d\d:\d\d\.\d{3} ", re.MULTILINE)
TMUX_DEADLINE_S = 600.0
ROOT = Path(__file__).resolve().parents[2]  # where `-m tests.bench.scale` imports from
REFUSALS = 20_000
REFUSALS_LIMIT_KB = 100.0


def rss_mb() -> float:
    gc.collect()
    with open("/proc/self/status", encoding="ascii") as status:
        return _vm_rss(status.read())


def _vm_rss(status: str) -> float:
    kilobytes = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(kilobytes[1]) / 1024 if kilobytes else 0.0


# ---- the saved session -------------------------------------------------------------------------


def write_session(path: Path, count: int) -> Path:
    """`count` small exchanges as the journal writes them, numbered 1..count."""
    rng = random.Random(7)
    pieces = [_template(make_exchange(rng, MARK)).split(str(MARK)) for _ in range(TEMPLATES)]
    started = time.time() - count / 1000
    with path.open("w", encoding="utf-8") as out:
        for seq in range(1, count + 1):
            line = str(seq).join(pieces[seq % TEMPLATES])
            out.write(line.replace('"ts": 0.0', f'"ts": {started + seq / 1000:.3f}', 1) + "\n")
    return path


def _template(exchange: Exchange) -> str:
    """The exchange's journal line with its time left to fill in."""
    exchange.ts, exchange.host = 0.0, "picoclaw"
    return dumps(exchange)


# ---- children: one measurement each ------------------------------------------------------------


def relay_one(journal: Journal, rng: random.Random, seq: int) -> None:
    """One small relayed exchange, appended in flight and then finished, as a relayed call is."""
    done = make_exchange(rng, seq)
    response, status = done.response, done.status
    done.response, done.status = None, STATUS_PENDING
    journal.amend(journal.append(done), response=response, status=status)


def live_child(count: int) -> dict[str, float]:
    """RSS before and after `count` relayed exchanges, each appended in flight and then finished,
    with the JSONL writer attached as `serve` attaches it: the file is the journal's store, and
    records written to it leave memory. In an event loop, as in `serve`: the writer flushes
    (and indexes) what finished in the last tenth of a second."""
    return asyncio.run(_live(count))


async def _live(count: int) -> dict[str, float]:
    from inspector.journal.jsonl import JsonlWriter

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal()
        writer = JsonlWriter(Path(folder) / "live.jsonl").attach(journal, as_store=True)
        before = rss_mb()
        for seq in range(1, count + 1):
            relay_one(journal, rng, seq)
            if seq % 1_000 == 0:
                await asyncio.sleep(0)  # the loop's turn: the writer's timer
        writer.flush()
        after = rss_mb()
        writer.close()
    return {"before": before, "after": after}


async def _live_ui(count: int, folder: Path) -> dict[str, float]:
    """The same relayed exchanges into the UI as `hook-inspector` opens it (its journal file its
    store), headless in a pilot, the lists folding them in as they come."""
    from inspector.demo import DEMO_CONFIG
    from inspector.tui.app import InspectorApp
    from inspector.tui.launch import build_session

    session = build_session(DEMO_CONFIG, folder / "live.jsonl", store_on_disk=True)
    session.scenario = None  # the demo's turn would add records of its own
    (folder / "settings").mkdir()
    app = InspectorApp(session, settings_path=folder / "settings")
    rng = random.Random(7)
    async with app.run_test(size=(int(SIZE[0]), int(SIZE[1]))) as pilot:
        await pilot.pause()
        journal = app.engine.journal
        before = rss_mb()
        for seq in range(1, count + 1):
            relay_one(journal, rng, seq)
            if seq % 2_000 == 0:
                await pilot.pause()  # the loop's turn: the writer's timer, the lists' tick
        await pilot.pause()
        after = rss_mb()
        held = journal.records.in_memory()
    return {"before": before, "after": after, "in_memory": held}


async def _open_in_pilot(path: Path, settings: Path) -> dict[str, float]:
    from inspector.filter import compile_filter
    from inspector.tui.app import InspectorApp
    from inspector.tui.launch import read_only_session
    from inspector.tui.widgets.exchange_list import ExchangeList
    from inspector.tui.widgets.status_line import StatusLine

    started = time.perf_counter()
    session = read_only_session(path)
    app = InspectorApp(session, settings_path=settings)
    figures: dict[str, float] = {}
    async with app.run_test(size=(int(SIZE[0]), int(SIZE[1]))) as pilot:
        rows = app.query_one(ExchangeList)
        while not rows.rows:
            await pilot.pause(0.01)
        await pilot.pause(0)  # the screen's pending work done and drawn
        figures["first_screen_ms"] = (time.perf_counter() - started) * 1000
        status = app.query_one(StatusLine)
        while status.state is None or status.state.reading:  # a session still being read
            await pilot.pause(0.1)
        figures["read_s"] = time.perf_counter() - started
        await pilot.pause()  # idle: the hooks panel of a long session counted (in a thread)
        figures["rss_mb"] = rss_mb()
        rows.focus()
        await pilot.press("home")
        figures["page_down_ms"] = _page_down_ms(rows)
        figures["rows"] = len(rows.rows)
        for key, expression in (("field", FIELD_FILTER), ("text", TEXT_FILTER)):
            figures[f"{key}_filter_ms"] = _median_ms(
                lambda expression=expression: rows.set_filter(compile_filter(expression)),
                after=lambda: rows.set_filter(None),
            )
    return figures


def index_child(path: Path) -> dict[str, float]:
    """The first open of a session written without its index: every line read and indexed."""
    from inspector.journal.saved import open_journal

    started = time.perf_counter()
    open_journal(path)
    return {"index_s": time.perf_counter() - started}


def _page_down_ms(rows: RecordList) -> float:
    """The list's own work for one page down: the move, and every line of the new page drawn
    (what Textual then does with those lines is the same for any session)."""
    lines = rows.scrollable_content_region.height
    started = time.perf_counter()
    for _ in range(PAGES):
        rows.action_page_down()
        for y in range(lines):
            rows.render_line(y)
    return (time.perf_counter() - started) * 1000 / PAGES


def _median_ms(work: Any, after: Any = None, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
        if after is not None:
            after()
    return statistics.median(times)


def child(argv: list[str]) -> dict[str, float]:
    what, arg = argv
    if what == "live":
        return live_child(int(arg))
    if what == "live-ui":
        with tempfile.TemporaryDirectory() as folder:
            return asyncio.run(_live_ui(int(arg), Path(folder)))
    if what == "index":
        return index_child(Path(arg))
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_open_in_pilot(Path(arg), Path(folder) / "settings"))


def in_child(*args: str) -> dict[str, float]:
    command = [sys.executable, "-m", "tests.bench.scale", "--child", *args]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{result.stderr[-4000:]}")
    figures: dict[str, float] = json.loads(result.stdout.splitlines()[-1])
    return figures


# ---- the real terminal ---------------------------------------------------------------------------


def in_tmux(path: Path) -> dict[str, float]:
    """`hook-inspector open PATH` in a 160x48 tmux window: ms until an exchange row is on the
    screen, and the process's RSS then."""
    program = Path(sys.executable).parent / "hook-inspector"
    tmux = ["tmux", "-L", f"hook-inspector-bench-{uuid.uuid4().hex[:12]}", "-f", "/dev/null"]

    def run(*args: str) -> str:
        return subprocess.run([*tmux, *args], capture_output=True, text=True, check=True).stdout

    started = time.perf_counter()
    run(
        "new-session",
        "-d",
        "-s",
        "main",
        "-x",
        SIZE[0],
        "-y",
        SIZE[1],
        f"exec {program} open {path}",
    )
    try:
        deadline = time.monotonic() + TMUX_DEADLINE_S
        while not EXCHANGE_ROW.search(run("capture-pane", "-p", "-t", "main")):
            if time.monotonic() > deadline:
                raise RuntimeError(f"no exchange row on the screen after {TMUX_DEADLINE_S:g} s")
            time.sleep(0.02)
        shown_ms = (time.perf_counter() - started) * 1000
        pid = run("display-message", "-p", "-t", "main", "#{pane_pid}").strip()
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    return {"first_screen_ms": shown_ms, "rss_mb": _vm_rss(status)}


def refusals_kb(count: int) -> float:
    """KB the journal still holds after `count` refused connections, alternating two reasons
    from ever-new peers, as a flood without the token would."""
    from inspector.bridge.refusals import RefusalLog
    from inspector.journal.journal import Journal

    journal = Journal()
    log = RefusalLog(journal)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(count):
            reason = "wrong token" if n % 2 else "a token is required"
            log.refused("intruder", reason, f"127.0.0.1:{1024 + n % 60_000}")
        gc.collect()
        return (tracemalloc.get_traced_memory()[0] - before) / 1024
    finally:
        tracemalloc.stop()


# ---- the rows ----------------------------------------------------------------------------------


def measure(count: int, folder: Path) -> Iterator[Row]:
    small = write_session(folder / "small.jsonl", SMALL)
    big = write_session(folder / "big.jsonl", count)
    label = f"{count:,}"
    live = in_child("live", str(count))
    yield row(
        f"scale: live headless session (serve) of {label} relayed exchanges, RSS MB",
        live["before"],
        live["after"],
        None,
        "baseline = the same process before the first record",
        RSS_LIMIT_MB,
    )
    live_ui = in_child("live-ui", str(count))
    yield row(
        f"scale: live UI session of {label} relayed exchanges, RSS MB",
        live_ui["before"],
        live_ui["after"],
        None,
        "baseline = the same app before the first record",
        RSS_LIMIT_MB,
    )
    small_index, big_index = in_child("index", str(small)), in_child("index", str(big))
    yield row(
        f"scale: first open of {label} exchanges saved without their index (indexing), s",
        small_index["index_s"],
        big_index["index_s"],
        None,
        f"baseline = the same for {SMALL:,} exchanges; once per file, then it opens through it",
        None,
    )
    later = f"target: at most {LATER_LIMIT_MS:g} ms after {SMALL:,} exchanges"
    for path in (small, big):  # sent without their index: the UI indexes them again
        shutil.rmtree(index_folder(path))
    base, opened = in_child("open", str(small)), in_child("open", str(big))
    yield row(
        f"scale: open {label} exchanges saved without their index, first screen (pilot), ms",
        base["first_screen_ms"],
        opened["first_screen_ms"],
        None,
        f"baseline = the same for {SMALL:,} exchanges, also without; the rest read in a thread;"
        f" {later}",
        base["first_screen_ms"] + LATER_LIMIT_MS,
    )
    yield row(
        f"scale: open {label} exchanges saved without their index, every line read, s",
        base["read_s"],
        opened["read_s"],
        None,
        f"baseline = the same for {SMALL:,} exchanges; the session usable all along",
        None,
    )
    yield row(
        f"scale: field filter over {label} once read ({FIELD_FILTER}), ms",
        base["field_filter_ms"],
        opened["field_filter_ms"],
        None,
        f"baseline = the same filter over {SMALL:,} exchanges; in the same app, after the read",
        FIELD_LIMIT_MS,
    )
    yield row(
        f"scale: open {label} exchanges saved without their index, RSS MB once read",
        base["rss_mb"],
        opened["rss_mb"],
        None,
        f"baseline = the same for {SMALL:,} exchanges",
        RSS_LIMIT_MB,
    )
    base, opened = in_child("open", str(small)), in_child("open", str(big))
    yield row(
        f"scale: open {label} exchanges, first screen (pilot), ms",
        base["first_screen_ms"],
        opened["first_screen_ms"],
        None,
        f"baseline = the same for {SMALL:,} exchanges; {later}",
        base["first_screen_ms"] + LATER_LIMIT_MS,
    )
    yield row(
        f"scale: open {label} exchanges, RSS MB",
        base["rss_mb"],
        opened["rss_mb"],
        None,
        f"baseline = the same for {SMALL:,} exchanges",
        RSS_LIMIT_MB,
    )
    for key, expression, limit in (
        ("field", FIELD_FILTER, FIELD_LIMIT_MS),
        ("text", TEXT_FILTER, TEXT_LIMIT_MS),
    ):
        yield row(
            f"scale: {key} filter over {label} ({expression}), ms",
            base[f"{key}_filter_ms"],
            opened[f"{key}_filter_ms"],
            None,
            f"baseline = the same filter over {SMALL:,} exchanges",
            limit,
        )
    yield row(
        f"scale: one page down in {int(opened['rows']):,} rows, ms",
        base["page_down_ms"],
        opened["page_down_ms"],
        None,
        f"baseline = the same for {SMALL:,} exchanges",
        PAGE_LIMIT_MS,
    )
    yield row(
        f"scale: {REFUSALS:,} refused connections, KB held",
        refusals_kb(1),
        refusals_kb(REFUSALS),
        None,
        "baseline = one refused connection",
        REFUSALS_LIMIT_KB,
    )
    base_tmux, opened_tmux = in_tmux(small), in_tmux(big)
    yield row(
        f"scale: open {label} exchanges in tmux 160x48, first screen, ms",
        base_tmux["first_screen_ms"],
        opened_tmux["first_screen_ms"],
        None,
        f"baseline = the same for {SMALL:,} exchanges; {later}",
        base_tmux["first_screen_ms"] + LATER_LIMIT_MS,
    )
    yield row(
        f"scale: open {label} exchanges in tmux 160x48, RSS MB",
        base_tmux["rss_mb"],
        opened_tmux["rss_mb"],
        None,
        f"baseline = the same for {SMALL:,} exchanges",
        RSS_LIMIT_MB,
    )
    for path in (small, big):
        shutil.rmtree(index_folder(path))
    base_tmux, opened_tmux = in_tmux(small), in_tmux(big)
    yield row(
        f"scale: open {label} exchanges saved without their index in tmux 160x48, first screen, ms",
        base_tmux["first_screen_ms"],
        opened_tmux["first_screen_ms"],
        None,
        f"baseline = the same for {SMALL:,} exchanges, also without; {later}",
        base_tmux["first_screen_ms"] + LATER_LIMIT_MS,
    )


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory() as folder:
        return list(measure(5_000 if quick else SESSION, Path(folder)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=SESSION)
    parser.add_argument("--child", nargs=2, metavar=("WHAT", "ARG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return
    with tempfile.TemporaryDirectory() as folder:
        for figures in measure(args.count, Path(folder)):
            print(f"{figures.baseline:10,.1f} {figures.measured:10,.1f}  {figures.name}")


if __name__ == "__main__":
    main()
