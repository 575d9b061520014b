"""What --otlp costs a run: the same run of the demo's hooks without it, against a receiver that
answers, against a collector that accepts and never answers, and against none at all.

    .venv/bin/python -m tests.bench.otlp_cost [--turns N] [--repeat R]

Each run is `hook-inspector run` in a child process (the demo's four hooks, the demo's turn
played N times); the figure is the median wall time of R runs, taken in turn, and its ratio to
the run without --otlp. Issue 30 asks for at most 1.2x against the hanging collector.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from tests.support.otlp_receiver import otlp_receiver
from tests.support.paths import EXAMPLES, ROOT

CONFIG = EXAMPLES / "picoclaw" / "demo.yaml"
SCENARIO = EXAMPLES / "picoclaw" / "demo_scenario.yaml"


def scenario_of(turns: int, folder: Path) -> Path:
    scenario = yaml.safe_load(SCENARIO.read_text())
    scenario["turns"] = scenario["turns"] * turns
    path = folder / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario))
    return path


def timed_run(scenario: Path, *otlp: str) -> tuple[float, str]:
    command = [sys.executable, "-m", "inspector", "run", str(CONFIG), "--scenario", str(scenario)]
    started = time.perf_counter()
    ran = subprocess.run(
        [*command, "--json", *otlp], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    took = time.perf_counter() - started
    if ran.returncode != 0:
        raise SystemExit(f"run failed: {ran.stderr}")
    said = [line for line in ran.stderr.splitlines() if "span(s)" in line or "warning" in line]
    return took, " | ".join(said)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scenario = scenario_of(args.turns, Path(folder))
        with otlp_receiver() as (answering, received), otlp_receiver(hang=True) as (hanging, _):
            with otlp_receiver() as (missing, _unused):
                pass  # nothing listens there once it is closed
            cases = {
                "without --otlp": (),
                "--otlp, a receiver that answers": ("--otlp", answering),
                "--otlp, a collector that never answers": ("--otlp", hanging),
                "--otlp, no collector there": ("--otlp", missing),
            }
            times: dict[str, list[float]] = {case: [] for case in cases}
            said: dict[str, str] = {}
            for _ in range(args.repeat):
                for case, flags in cases.items():
                    took, said[case] = timed_run(scenario, *flags)
                    times[case].append(took)
            spans = received.count()
    base = statistics.median(times["without --otlp"])
    print(f"{args.turns} turn(s) of the demo, median of {args.repeat} run(s) each")
    for case, runs in times.items():
        median = statistics.median(runs)
        print(f"  {case:42} {median:6.2f} s  {median / base:5.2f}x  {said[case]}")
    print(f"  spans the answering receiver decoded over all its runs: {spans:,}")


if __name__ == "__main__":
    main()
