"""Gemini CLI live: what `hook-inspector relay --host gemini` adds to each event of a real
`gemini -p`.

`python -m tests.bench.gemini_relay [--quick]` (the real Gemini CLI from the tests' cache,
installed there first if need be: tests/real_agents/gemini_cli.py). One `gemini -p` run plays
EVENTS shell calls against the fake Gemini API, each with one BeforeTool hook: a small hook run
directly (Gemini CLI runs it as `bash -c COMMAND`), or the relay exactly as `install gemini`
writes it, handing each event to a running `hook-inspector serve` whose config runs that same
hook and answers. A third series runs with no hook at all. The series take turns, so load falls
on all alike; the figure is the difference of the median runs divided by the events per run, so
Gemini CLI's own start (most of a run) cancels out. As in the Claude Code relay benchmark, the
relay's bytecode is compiled first, as an installed package's is.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

from inspector.hosts.install_relay import relay_command

from . import Row, row
from .claude_relay import serving

sys.path.insert(0, str(Path(__file__).parents[1] / "real_agents"))  # the tests' real-agent kit
from fake_gemini import FakeGemini, Reply, shell
from gemini_cli import VERSIONS, GeminiCli, cache_folder, install

EVENTS, QUICK_EVENTS = 10, 3  # shell calls, so BeforeTool events, per run
RUNS, QUICK_RUNS = 7, 2
RELAY_TIMEOUT_S = 60  # Gemini CLI's default hook timeout, which install also writes
TARGET_ADDED_MS = 40.0  # no more than the Claude Code relay's target
HOOK = "cat > /dev/null\nexit 0\n"


def run(quick: bool) -> list[Row]:
    version = VERSIONS[-1]
    cli = install(cache_folder(version), version)
    events, runs = (QUICK_EVENTS, QUICK_RUNS) if quick else (EVENTS, RUNS)
    with tempfile.TemporaryDirectory(prefix="bench-gemini-", dir="/tmp") as name:
        folder = Path(name)
        home, project = folder / "home", folder / "project"
        (project / ".gemini").mkdir(parents=True)
        home.mkdir()
        hook = folder / "hook.sh"
        hook.write_text(HOOK)
        direct = f"sh {shlex.quote(str(hook))}"
        socket = folder / "relay.sock"
        relay = relay_command("gemini", RELAY_TIMEOUT_S, socket, quiet=True)  # as install writes it
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        series: dict[str | None, list[float]] = {None: [], direct: [], relay: []}
        with serving(folder, direct, socket, env, host="gemini", event="BeforeTool"):
            _one_run(cli, project, home, relay, 1)  # compiles what the relay imports
            for _ in range(runs):
                for command, times in series.items():
                    times.append(_one_run(cli, project, home, command, events))
    bare, before, after = (statistics.median(times) for times in series.values())
    added = (after - before) / events
    hook_cost = (before - bare) / events
    verdict = "met" if added < TARGET_ADDED_MS else "missed"
    return [
        row(
            "Gemini CLI BeforeTool through relay + inspector, per event, median ms",
            hook_cost,
            hook_cost + added,
            None,
            f"baseline = the same hook run directly by gemini -p ({hook_cost:.1f} ms per event"
            f" over no hook); the relay adds {added:.1f} ms per event (target <"
            f" {TARGET_ADDED_MS:.0f} ms: {verdict}); {events} events per run, median of {runs}"
            f" runs of {bare / 1000:.2f} s with no hook; Gemini CLI {version}",
            limit=hook_cost + TARGET_ADDED_MS,
        )
    ]


def _one_run(cli: GeminiCli, project: Path, home: Path, command: str | None, events: int) -> float:
    """One `gemini -p` with `command` as its BeforeTool hook (None: no hook), in ms."""
    handler = {"type": "command", "command": command, "timeout": RELAY_TIMEOUT_S * 1000}
    hooks = {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [handler]}]}
    settings = {"hooks": hooks} if command else {}
    (project / ".gemini" / "settings.json").write_text(json.dumps(settings))
    # each call its own: Gemini CLI stops a session that repeats one tool call (loop detection)
    script = [Reply(calls=(shell(f"true {index}"),)) for index in range(events)]
    script.append(Reply("Done."))
    with FakeGemini(script) as api:
        started = time.perf_counter()
        done = cli.run(project, "Run true.", api_url=api.url, home=home)
        took = (time.perf_counter() - started) * 1000
    if done.exit_code != 0 or api.unscripted or len(api.loop_requests) != events + 1:
        raise RuntimeError(f"gemini -p did not run the {events} calls: {done.stderr[-500:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.gemini_relay")
    parser.add_argument("--quick", action="store_true", help="few runs: a smoke test")
    [figure] = run(parser.parse_args().quick)
    print(f"{figure.name}: {figure.baseline:.1f} -> {figure.measured:.1f}\n{figure.note}")


if __name__ == "__main__":
    main()
