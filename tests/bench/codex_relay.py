"""Codex live: what `hook-inspector relay --host codex` adds to each event of a real `codex exec`.

`python -m tests.bench.codex_relay [--quick]` (the real Codex from the tests' cache, installed
there first if need be: tests/real_agents/codex_cli.py). One `codex exec` run plays EVENTS shell
calls against a fake Responses API, each with one PreToolUse hook: a small hook run directly
(Codex runs it with the account's shell, `SHELL -c COMMAND`), or the relay exactly as
`install codex` writes it, handing each event to a running `hook-inspector serve` whose config
runs that same hook and answers. A third series runs with no hook at all. The series take turns,
so load falls on all alike; the figure is the difference of the median runs divided by the
events per run, so Codex's own start (most of a run) cancels out. Like the Claude Code relay
benchmark, the relay's bytecode is compiled first, as an installed package's is.
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
from codex_cli import VERSIONS, CodexCli, install, trust_project
from fake_responses import FakeResponses, Reply, exec_command

EVENTS, QUICK_EVENTS = 10, 3  # shell calls, so PreToolUse events, per run
RUNS, QUICK_RUNS = 7, 2
RELAY_TIMEOUT_S = 600  # Codex's default handler timeout, which install also writes
TARGET_ADDED_MS = 40.0  # no more than the Claude Code relay's target
HOOK = "cat > /dev/null\nexit 0\n"


def run(quick: bool) -> list[Row]:
    cli = install(VERSIONS[-1])
    events, runs = (QUICK_EVENTS, QUICK_RUNS) if quick else (EVENTS, RUNS)
    with tempfile.TemporaryDirectory(prefix="bench-codex-", dir="/tmp") as name:
        folder = Path(name)
        home, project = folder / "home", folder / "project"
        (project / ".codex").mkdir(parents=True)
        home.mkdir()
        trust_project(home, project)
        hook = folder / "hook.sh"
        hook.write_text(HOOK)
        direct = f"sh {shlex.quote(str(hook))}"
        socket = folder / "relay.sock"
        relay = relay_command("codex", RELAY_TIMEOUT_S, socket)  # as install writes it
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        env["HOME"] = str(home)  # serve runs the hook in a login shell too, as Codex does: the
        # same empty home, so neither sources a profile
        series: dict[str | None, list[float]] = {None: [], direct: [], relay: []}
        with serving(folder, direct, socket, env, host="codex"):
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
            "Codex PreToolUse through relay + inspector, per event, median ms",
            hook_cost,
            hook_cost + added,
            None,
            f"baseline = the same hook run directly by codex exec ({hook_cost:.1f} ms per event"
            f" over no hook); the relay adds {added:.1f} ms per event (target <"
            f" {TARGET_ADDED_MS:.0f} ms: {verdict}); {events} events per run, median of {runs}"
            f" runs of {bare / 1000:.2f} s with no hook",
            limit=hook_cost + TARGET_ADDED_MS,
        )
    ]


def _one_run(cli: CodexCli, project: Path, home: Path, command: str | None, events: int) -> float:
    """One `codex exec` with `command` as its PreToolUse hook (None: no hook), in ms."""
    hooks_file = project / ".codex" / "hooks.json"
    handler = {"type": "command", "command": command, "timeout": RELAY_TIMEOUT_S}
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]} if command else {}
    hooks_file.write_text(json.dumps({"hooks": hooks}))
    calls = tuple(exec_command("true", f"call_{index}") for index in range(events))
    script = [Reply(tool_calls=(call,)) for call in calls] + [Reply("Done.")]
    with FakeResponses(script) as api:
        started = time.perf_counter()
        done = cli.run(project, "Run true.", api_url=api.url, home=home, bypass_hook_trust=True)
        took = (time.perf_counter() - started) * 1000
    if not done.completed or len(done.commands()) != events:
        raise RuntimeError(f"codex exec did not run the {events} calls: {done.stderr[-500:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.codex_relay")
    parser.add_argument("--quick", action="store_true", help="few runs: a smoke test")
    [figure] = run(parser.parse_args().quick)
    print(f"{figure.name}: {figure.baseline:.1f} -> {figure.measured:.1f}\n{figure.note}")


if __name__ == "__main__":
    main()
