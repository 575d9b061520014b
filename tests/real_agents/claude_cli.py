"""The real Claude Code CLI for tests: installed once per machine with npm, run offline.

Every release in VERSIONS is tested (the oldest supported and the newest; adding one is one line
there), each installed into CACHE/claude-code-VERSION, where CACHE is $HOOK_INSPECTOR_TEST_CACHE,
else $XDG_CACHE_HOME/hook-inspector-tests, else ~/.cache/hook-inspector-tests. The home folder is
read when this module is imported (at collection), before tests/conftest.py gives each test an
empty HOME of its own; so the cache outlives test runs and `rm -rf .venv` alike. An install
(one at a time: install_lock.py) happens in a fresh folder beside the target and is renamed into
place only once the binary answers `--version` with its version, so an interrupted install
is never reused.

A run is `claude -p PROMPT --output-format stream-json --verbose --include-hook-events` in the
project folder, with HOME set to the test's folder, the model at a fake API, every optional
network feature off, and none of the caller's CLAUDE_* / ANTHROPIC_* variables (nor the mark of an
inspector listening in the test process).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from install_lock import install_lock

from inspector.relay.command_wire import INSIDE_INSPECTOR

JSONObject = dict[str, Any]

PACKAGE = "@anthropic-ai/claude-code"
# The releases the real-agent tests run, oldest first: the oldest supported and the newest.
VERSIONS = ("2.1.197", "2.1.332")
MIN_NODE = 18
INSTALL_TIMEOUT_S = 600
RUN_TIMEOUT_S = 120  # a `claude -p` run here takes a few seconds; this only ends a hung one
OFFLINE_ENV = {
    "ANTHROPIC_API_KEY": "dummy",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
}
# the caller's own settings for Claude Code stay out, and so does a trace the caller is in (a CI
# job's TRACEPARENT, its OTEL_* exporter): Claude Code passes them on to hooks or acts on them
_HOST_PREFIXES = ("CLAUDE", "ANTHROPIC", "OTEL_", "TRACEPARENT", "TRACESTATE")
_REAL_HOME = Path(os.environ.get("HOME") or Path.home())


class Unavailable(Exception):
    """The CLI cannot be installed or run here; the message says why."""


@dataclass(frozen=True)
class ClaudeRun:
    messages: list[JSONObject]  # the stream-json output, one object per line
    exit_code: int
    stderr: str
    env: dict[str, str]  # the environment the CLI was started with

    @property
    def result(self) -> JSONObject:
        """The closing `result` message; fails with the CLI's stderr when there is none."""
        results = [message for message in self.messages if message.get("type") == "result"]
        assert results, f"claude ended without a result (exit {self.exit_code}): {self.stderr}"
        return results[-1]


@dataclass(frozen=True)
class ClaudeCli:
    executable: Path
    version: str

    def run(
        self,
        project: Path,
        prompt: str,
        *,
        api_url: str,
        home: Path,
        allowed_tools: Sequence[str] = ("Bash",),
        env: Mapping[str, str] | None = None,
    ) -> ClaudeRun:
        """Run one `claude -p` session in `project` against the fake API at `api_url`, with the
        variables `env` added (its own settings: telemetry, say)."""
        environ = {
            **{name: value for name, value in os.environ.items() if not _is_host_setting(name)},
            **OFFLINE_ENV,
            **(env or {}),
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": api_url,
        }
        argv = [str(self.executable), "-p", prompt, "--output-format", "stream-json"]
        argv += ["--verbose", "--include-hook-events"]
        if allowed_tools:
            argv += ["--allowedTools", " ".join(allowed_tools)]
        done = subprocess.run(
            argv,
            cwd=project,
            env=environ,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
        messages = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        return ClaudeRun(messages, done.returncode, done.stderr, environ)


def cache_folder(version: str) -> Path:
    """Where `version` of the CLI lives on this machine."""
    if explicit := os.environ.get("HOOK_INSPECTOR_TEST_CACHE"):
        root = Path(explicit)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else _REAL_HOME / ".cache") / "hook-inspector-tests"
    return root / f"claude-code-{version}"


def install(folder: Path, version: str) -> ClaudeCli:
    """`version` of the CLI in `folder`, installed there first when it is missing or broken."""
    with install_lock(folder):
        return _install(folder, version)


def _install(folder: Path, version: str) -> ClaudeCli:
    cli = ClaudeCli(folder / "node_modules" / ".bin" / "claude", version)
    if _version_of(cli.executable) == version:
        return cli
    _check_node()
    staging = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
    try:
        _npm_install(staging, version)
        found = _version_of(staging / "node_modules" / ".bin" / "claude")
        if found != version:
            raise Unavailable(f"{PACKAGE}@{version} installed, but `claude --version` said {found}")
        shutil.rmtree(folder, ignore_errors=True)  # broken: no other run installs (the lock)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return cli


def _is_host_setting(name: str) -> bool:
    # An inspector listening in this test process marks its own environment; a real session is
    # started elsewhere, without that mark, so its relay does not take itself for a loop.
    return name.startswith(_HOST_PREFIXES) or name == INSIDE_INSPECTOR


def _check_node() -> None:
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        raise Unavailable("node and npm are needed to install Claude Code; not found on PATH")
    found = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    major = re.match(r"v(\d+)\.", found.stdout)
    if major is None or int(major.group(1)) < MIN_NODE:
        raise Unavailable(f"Claude Code needs node >= {MIN_NODE}; {node} is {found.stdout.strip()}")


def _npm_install(prefix: Path, version: str) -> None:
    argv = ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund"]
    argv += ["--fetch-retries=1", f"{PACKAGE}@{version}"]
    # npm keeps its own cache under HOME: the real one, so a reinstall downloads nothing
    env = {**os.environ, "HOME": str(_REAL_HOME)}
    try:
        done = subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise Unavailable(
            f"npm install {PACKAGE}@{version} took over {INSTALL_TIMEOUT_S} s"
        ) from None
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if line.startswith("npm error")]
        first = errors[0] if errors else f"exit {done.returncode}"
        raise Unavailable(f"npm install {PACKAGE}@{version} failed: {first}")


def _version_of(executable: Path) -> str | None:
    """What `claude --version` says (its first word), or None when it does not run."""
    if not executable.exists():
        return None
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, **OFFLINE_ENV, "HOME": home}
        try:
            done = subprocess.run(
                [str(executable), "--version"],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
    words = done.stdout.split()
    return words[0] if done.returncode == 0 and words else None
