"""Claude Code live, through the real CLI: what the inspector adds to a hook as Claude Code's own
HTTP hook (`install claude --http`), and as the command relay (`install claude`), against the
same hook run by Claude Code itself.

    .venv/bin/python -m tests.bench.claude_http [--quick] [--rounds N] [--calls N]

Each series is `claude -p` (Claude Code 2.1.332, the test suite's cached install, offline against
the fake Anthropic API) in a project whose only hook is on PreToolUse for Bash, the model asking
for `--calls` Bash calls one after the other:

- direct: the hook is a command handler in settings.json, a small sh script that reads the event
  and prints an allow;
- http: an http handler as `install claude --http` writes it, to a `hook-inspector serve` whose
  config runs that same script and answers with its decision;
- relay: the command relay as `install claude` writes it, to the same serve.

A hook's time is what the CLI's own stream says: the arrival of its `hook_started` line to that
of its `hook_response` (as real-hosts.md measured Claude Code's own HTTP and command hooks). The
series take turns, `--rounds` times, so load falls on all alike; the medians are compared.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from inspector.cli.main import main as hook_inspector
from inspector.hosts.http_endpoint import read_endpoint
from inspector.hosts.install_relay import relay_command
from inspector.relay.command_wire import INSIDE_INSPECTOR

from . import Row, row
from .claude_relay import HOOK, START_TIMEOUT_S, serving

# The real-agent helpers import each other by bare name, as pytest puts their folder on sys.path.
sys.path.insert(0, str(Path(__file__).parents[1] / "real_agents"))
from claude_cli import OFFLINE_ENV, cache_folder, install
from fake_anthropic import FakeAnthropic, Reply, bash

VERSION = "2.1.332"
TARGET_ADDED_MS = 10.0
HANDLER_TIMEOUT_S = 600  # what install writes by default
ROUNDS, CALLS, QUICK_ROUNDS, QUICK_CALLS = 5, 10, 1, 3
RUN_TIMEOUT_S = 300
SERIES = ("direct", "http", "relay")


def run(quick: bool, rounds: int | None = None, calls: int | None = None) -> list[Row]:
    rounds = rounds or (QUICK_ROUNDS if quick else ROUNDS)
    calls = calls or (QUICK_CALLS if quick else CALLS)
    cli = install(cache_folder(VERSION), VERSION)
    times: dict[str, list[float]] = {name: [] for name in SERIES}
    with tempfile.TemporaryDirectory(prefix="bench-claude-http-", dir="/tmp") as name:
        folder = Path(name)
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        env["XDG_STATE_HOME"] = str(folder / "state")  # the endpoint install makes: this run's
        hook = folder / "hook.sh"
        hook.write_text(HOOK)
        direct = f"sh {shlex.quote(str(hook))}"
        relay_socket = folder / "relay.sock"
        with _state_home(env["XDG_STATE_HOME"]):
            projects = {series: _project(folder, series, direct, relay_socket) for series in SERIES}
        with serving(folder, direct, relay_socket, env), _http_ready(env["XDG_STATE_HOME"]):
            for _ in range(rounds):
                for series, project in projects.items():
                    times[series] += _session(cli.executable, project, folder / "home", calls)
    before, http, relay = (statistics.median(times[series]) for series in SERIES)
    added, relay_added = http - before, relay - before
    verdict = "met" if added <= TARGET_ADDED_MS else "missed"
    samples = len(times["direct"])
    return [
        row(
            f"Claude Code {VERSION}: a PreToolUse hook as an HTTP hook to the inspector, median ms",
            before,
            http,
            None,
            f"baseline = the same hook as Claude Code's own command hook; hook_started to"
            f" hook_response in the CLI's stream, {samples} calls each; adds {added:.1f} ms"
            f" (target <= {TARGET_ADDED_MS:.0f} ms: {verdict}); the command relay to the same"
            f" inspector: {relay:.1f} ms, adds {relay_added:.1f} ms",
            limit=before + TARGET_ADDED_MS,
        )
    ]


def _project(folder: Path, series: str, direct: str, relay_socket: Path) -> Path:
    """A project whose PreToolUse hook on Bash is the series': the hook itself, the inspector's
    HTTP hook, or the command relay."""
    project = folder / series
    (project / ".claude").mkdir(parents=True)
    argv = ["--project", str(project), "--events", "PreToolUse", "--matcher", "Bash"]
    if series == "http":
        with contextlib.redirect_stdout(io.StringIO()):  # what install says: not the bench's
            assert hook_inspector(["install", "claude", "--http", *argv]) == 0
        return project
    command = (
        direct if series == "direct" else relay_command("claude", HANDLER_TIMEOUT_S, relay_socket)
    )
    handler = {"type": "command", "command": command, "timeout": HANDLER_TIMEOUT_S}
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    return project


@contextmanager
def _state_home(folder: str) -> Iterator[None]:
    """XDG_STATE_HOME is `folder` in this process while the block runs (install's endpoint)."""
    before = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = folder
    try:
        yield
    finally:
        if before is None:
            del os.environ["XDG_STATE_HOME"]
        else:
            os.environ["XDG_STATE_HOME"] = before


@contextmanager
def _http_ready(state_home: str) -> Iterator[None]:
    """Once serve answers on the port install chose."""
    with _state_home(state_home):
        endpoint = read_endpoint()
    assert endpoint is not None, "install claude --http made no endpoint"
    give_up = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            socket.create_connection(("127.0.0.1", endpoint.port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > give_up:
                raise RuntimeError("hook-inspector serve did not listen for HTTP hooks") from None
            time.sleep(0.05)
    yield


def _session(executable: Path, project: Path, home: Path, calls: int) -> list[float]:
    """One `claude -p` asking for `calls` Bash calls; the ms of each PreToolUse hook, from the
    CLI's stream."""
    home.mkdir(exist_ok=True)
    model = [Reply(tool_calls=(bash(f"echo {n}", f"toolu_{n:04d}"),)) for n in range(calls)]
    with FakeAnthropic([*model, Reply("Done.")]) as api:
        env = {
            **{
                key: value
                for key, value in os.environ.items()
                if not key.startswith(("CLAUDE", "ANTHROPIC")) and key != INSIDE_INSPECTOR
            },
            **OFFLINE_ENV,
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": api.url,
        }
        argv = [str(executable), "-p", "Run the commands.", "--output-format", "stream-json"]
        argv += ["--verbose", "--include-hook-events", "--allowedTools", "Bash"]
        started: dict[str, float] = {}
        took: list[float] = []
        with subprocess.Popen(
            argv, cwd=project, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True
        ) as claude:
            assert claude.stdout is not None
            for line in claude.stdout:
                now = time.perf_counter()
                message = json.loads(line) if line.strip() else {}
                if message.get("hook_event") != "PreToolUse":
                    continue
                if message.get("subtype") == "hook_started":
                    started[message["hook_id"]] = now
                elif message.get("subtype") == "hook_response":
                    answered = '"permissionDecision":"allow"' in message.get("stdout", "")
                    assert answered, f"{project.name}: the hook did not decide: {message}"
                    took.append((now - started.pop(message["hook_id"])) * 1000)
            claude.wait(timeout=RUN_TIMEOUT_S)
    assert len(took) == calls, f"{project.name}: {len(took)} of {calls} hooks ran"
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--calls", type=int)
    args = parser.parse_args()
    for figures in run(args.quick, args.rounds, args.calls):
        print(f"{figures.name}: the hook itself {figures.baseline:.1f} ms, through the inspector")
        print(f"  {figures.measured:.1f} ms ({figures.ratio:.2f}x); {figures.note}")


if __name__ == "__main__":
    main()
