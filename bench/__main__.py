"""`python -m bench [--quick] [--json]`: run every benchmark, print one table."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bench import BENCHMARKS, Row


def run_all(quick: bool) -> list[Row]:
    rows: list[Row] = []
    for name in BENCHMARKS:
        rows += importlib.import_module(f"bench.{name}").run(quick)
    return rows


def figure(value: float) -> str:
    return f"{value:,.3f}" if value < 100 else f"{value:,.0f}"


def target_cell(row: Row) -> str:
    if row.target is None:
        return ""
    verdict = "[green]met[/]" if row.met else "[red]missed[/]"
    return f"<= {row.target:g}x {verdict}"


def machine(load_before: float) -> dict[str, Any]:
    """What the figures were measured on; a busy machine moves the ratios, so say how busy."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": [load_before, os.getloadavg()[0]],
    }


def table(rows: list[Row], quick: bool, host: dict[str, Any]) -> Table:
    """Figures in columns; each note becomes a numbered footnote, so the table fits 80 columns."""
    title = "hook-inspector benchmarks" + (" (quick: too few samples to trust)" if quick else "")
    notes = list(dict.fromkeys(row.note for row in rows if row.note))
    before, after = host["load_average"]
    lines = [
        "ratio = measured / baseline, both measured in this run",
        f"Python {host['python']}, {host['cpus']} CPUs, load average {before:.2f} -> {after:.2f}",
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
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny counts, for a CI smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
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


if __name__ == "__main__":
    main()
