"""Arize Phoenix, a real OpenTelemetry backend with a query API, for the one test that reads a
trace back from a collector. It is a PyPI package (the Go module proxy the issue names, for
Jaeger or the OpenTelemetry Collector, is not reachable from these machines), installed once per
machine into its own virtual environment beside the real agents' (install_lock.py): CACHE/
phoenix-VERSION, marked installed once `phoenix --help` runs, so an interrupted install is made
again rather than reused. Started offline on loopback ports of its own, with its
working folder (its SQLite database) in the test's temporary folder."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

VERSION = "20.26.1"
# The real agents' cache (tests/real_agents/claude_cli.py), read at import: a test's HOME is its own
_CACHE = os.environ.get("HOOK_INSPECTOR_TEST_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "hook-inspector-tests"
)
FOLDER = Path(_CACHE) / f"phoenix-{VERSION}"
INSTALL_TIMEOUT_S = 1200  # about 4 minutes on the 2-core machine, 850 MB
START_TIMEOUT_S = 180  # its first start migrates a new database: about 40 s here


class PhoenixUnavailable(Exception):
    pass


def installed() -> Path:
    """The `phoenix` program, installed first when it is missing or its install never ended."""
    with _install_lock():
        program, done_mark = FOLDER / "bin" / "phoenix", FOLDER / "installed"
        if done_mark.exists():
            return program
        shutil.rmtree(FOLDER, ignore_errors=True)
        steps = (
            [sys.executable, "-m", "venv", str(FOLDER)],
            [str(FOLDER / "bin" / "pip"), "install", "-q", f"arize-phoenix=={VERSION}"],
            [str(program), "--help"],
        )
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S)
            if done.returncode != 0:
                raise PhoenixUnavailable(f"{' '.join(step[:3])} failed: {done.stderr[-500:]}")
        done_mark.write_text(VERSION)
        return program


@contextmanager
def _install_lock() -> Iterator[None]:
    """One process at a time checks and installs (xdist workers, another checkout), as
    tests/real_agents/install_lock.py does for the agents."""
    FOLDER.parent.mkdir(parents=True, exist_ok=True)
    with open(FOLDER.parent / f"{FOLDER.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def phoenix_running(program: Path, folder: Path) -> Iterator[str]:
    """Phoenix's base URL (its OTLP/HTTP endpoint is URL/v1/traces, its REST API URL/v1)."""
    port = _free_port()
    env = {
        **os.environ,
        "PHOENIX_WORKING_DIR": str(folder),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(_free_port()),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    log = (folder / "phoenix.log").open("wb")
    server = subprocess.Popen(
        [str(program), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _healthy(url):
            if server.poll() is not None or time.monotonic() > deadline:
                tail = (folder / "phoenix.log").read_text(errors="replace")[-1500:]
                raise PhoenixUnavailable(f"phoenix serve did not start: {tail}")
            time.sleep(0.25)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def spans_of(url: str, project: str = "default") -> list[dict[str, Any]]:
    """Every span Phoenix holds for `project`, read back through its REST API."""
    spans: list[dict[str, Any]] = []
    cursor = ""
    while True:
        query = f"{url}/v1/projects/{project}/spans?limit=1000" + (
            f"&cursor={cursor}" if cursor else ""
        )
        with urllib.request.urlopen(query, timeout=30) as answer:
            page = json.load(answer)
        spans += page["data"]
        cursor = page.get("next_cursor") or ""
        if not cursor:
            return spans
