"""CPU time the TUI spends while nothing happens, against a bare Textual app in the same run.

    .venv/bin/python -m tests.bench.idle_cpu [SECONDS]

Both apps run headless; the inspector opens the bundled demo (its hooks, its scenario, file
watching on), lets the scenario finish, then both sit idle for SECONDS while this process's CPU
time is measured (the hooks' own processes are not counted)."""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from textual.app import App

from inspector.tui.app import InspectorApp
from inspector.tui.launch import build_session

SETTLE_S = 5.0  # the demo's scenario has played by then


async def idle_cpu_seconds(app: App[Any], seconds: float) -> float:
    async with app.run_test(size=(140, 45)):
        await asyncio.sleep(SETTLE_S)
        start = time.process_time()
        await asyncio.sleep(seconds)
        return time.process_time() - start


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    baseline = asyncio.run(idle_cpu_seconds(App(), seconds))
    with tempfile.TemporaryDirectory() as settings:
        inspector = InspectorApp(build_session(None, None), settings_path=Path(settings))
        measured = asyncio.run(idle_cpu_seconds(inspector, seconds))
    print(f"idle CPU over {seconds:g} s: bare Textual app {baseline:.3f} s,", end=" ")
    print(f"inspector {measured:.3f} s")


if __name__ == "__main__":
    main()
