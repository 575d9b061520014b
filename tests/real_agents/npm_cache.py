"""An npm package's CLI installed once per machine into the tests' cache, for the real-agent tests.

CACHE is $HOOK_INSPECTOR_TEST_CACHE, else $XDG_CACHE_HOME/hook-inspector-tests, else
~/.cache/hook-inspector-tests; the home folder is read when this module is imported (at
collection), before tests/conftest.py gives each test an empty HOME. An install (one at a time:
install_lock.py) happens in a fresh folder beside the target and is renamed into place only once
the CLI reports the version asked for, so an interrupted install is never reused and a broken one
is replaced on the next run. npm's own download cache stays in the real home.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from install_lock import install_lock

INSTALL_TIMEOUT_S = 600
REAL_HOME = Path(os.environ.get("HOME") or Path.home())


class Unavailable(Exception):
    """The CLI cannot be installed or run here; the message says why."""


def cache_folder(name: str) -> Path:
    """Where the install called `name` (package and version) lives on this machine."""
    if explicit := os.environ.get("HOOK_INSPECTOR_TEST_CACHE"):
        root = Path(explicit)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else REAL_HOME / ".cache") / "hook-inspector-tests"
    return root / name


def installed(
    folder: Path,
    package: str,
    version: str,
    executable: str,
    version_of: Callable[[Path], str | None],
    min_node: int,
) -> Path:
    """`folder/executable` (a path inside node_modules), `package@version` installed first when
    `version_of` does not say `version` for it."""
    with install_lock(folder):
        if version_of(folder / executable) == version:
            return folder / executable
        _check_node(package, min_node)
        staging = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
        try:
            _npm_install(staging, f"{package}@{version}")
            found = version_of(staging / executable)
            if found != version:
                raise Unavailable(f"{package}@{version} installed, but it says it is {found}")
            shutil.rmtree(folder, ignore_errors=True)  # broken: no other run installs (the lock)
            staging.rename(folder)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return folder / executable


def _check_node(package: str, min_node: int) -> None:
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        raise Unavailable(f"node and npm are needed to install {package}; not found on PATH")
    found = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    major = re.match(r"v(\d+)\.", found.stdout)
    if major is None or int(major.group(1)) < min_node:
        raise Unavailable(f"{package} needs node >= {min_node}; {node} is {found.stdout.strip()}")


def _npm_install(prefix: Path, spec: str) -> None:
    argv = ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund"]
    argv += ["--fetch-retries=1", spec]
    env = {**os.environ, "HOME": str(REAL_HOME)}  # npm's cache: the real one, reused
    try:
        done = subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise Unavailable(f"npm install {spec} took over {INSTALL_TIMEOUT_S} s") from None
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if line.startswith("npm error")]
        raise Unavailable(f"npm install {spec} failed: {errors[0] if errors else done.returncode}")
