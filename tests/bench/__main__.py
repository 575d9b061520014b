"""`python -m tests.bench [--quick] [--json] [--plot PATH]`: run every benchmark, print one table,
and draw the figures (a full run: tests/bench/results.svg)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import BENCHMARKS, Row, plot

DEFAULT_PLOT = Path(__file__).with_name("results.svg")


def run_all(quick: bool) -> list[Row]:
    rows: list[Row] = []
    for name in BENCHMARKS:
        rows += importlib.import_module(f".{name}", __package__).run(quick)
    return rows


def figure(value: float) -> str:
    return f"{value:,.3f}" if value < 100 else f"{value:,.0f}"


def target_cell(row: Row) -> str:
    """`<= 1.5x` for a ratio target, `<= 50` (in the row's unit) for an absolute one."""
    bounds = [f"<= {row.target:g}x"] if row.target is not None else []
    if row.limit is not None:
        bounds.append(f"<= {row.limit:,.4g}")
    if not bounds:
        return ""
    verdict = "[green]met[/]" if row.met else "[red]missed[/]"
    return f"{', '.join(bounds)} {verdict}"


def machine(load_before: float) -> dict[str, Any]:
    """What the figures were measured on; a busy machine moves the ratios, so say how busy."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": [load_before, os.getloadavg()[0]],
    }


def host_line(host: dict[str, Any]) -> str:
    before, after = host["load_average"]
    return f"Python {host['python']}, {host['cpus']} CPUs, load average {before:.2f} -> {after:.2f}"


def table(rows: list[Row], quick: bool, host: dict[str, Any]) -> Table:
    """Figures in columns; each note becomes a numbered footnote, so the table fits 80 columns."""
    title = "hook-inspector benchmarks" + (" (quick: too few samples to trust)" if quick else "")
    notes = list(dict.fromkeys(row.note for row in rows if row.note))
    lines = [
        "ratio = measured / baseline, both measured in this run",
        host_line(host),
        *(f"({number}) {note}" for number, note in enumerate(notes, 1)),
    ]
    caption = "\n".join(lines)
    out = Table(title=title, caption=caption, caption_justify="left")
    out.add_column("benchmark")
    for column in ("baseline", "measured", "ratio", "target"):
        out.add_column(column, justify="right", no_wrap=True)
    for row in rows:
        mark = f" ({notes.index(row.note) + 1})" if row.note else ""
        out.add_row(
            escape(row.name + mark),
            figure(row.baseline),
            figure(row.measured),
            f"{row.ratio:.2f}x",
            target_cell(row),
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny counts, for a CI smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--plot",
        type=Path,
        metavar="PATH",
        help="draw the figures to PATH (SVG, and a PNG if cairosvg is there); "
        "default: tests/bench/results.svg for a full run, no picture for --quick",
    )
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    rows = run_all(args.quick)
    host = machine(load_before)
    if args.json:
        report = {**host, "quick": args.quick, "rows": [row.to_json() for row in rows]}
        json.dump(report, sys.stdout, indent=2)
        print()
    else:
        Console().print(table(rows, args.quick, host))
    path = args.plot or (None if args.quick else DEFAULT_PLOT)
    if path is not None:
        subtitle = f"{time.strftime('%Y-%m-%d')}, {host_line(host)}"
        written = plot.write(rows, path, subtitle + (", quick" if args.quick else ""))
        print(f"drawn: {', '.join(map(str, written))}", file=sys.stderr)


if __name__ == "__main__":
    main()
