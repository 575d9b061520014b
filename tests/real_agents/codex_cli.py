"""The real OpenAI Codex CLI for tests: installed once per machine with npm, run offline.

Every release in VERSIONS is tested (the oldest supported and the newest; on 2026-11-27 npm's
newest is 0.171.0, so one), each installed into CACHE/codex-VERSION, where CACHE is
$HOOK_INSPECTOR_TEST_CACHE, else $XDG_CACHE_HOME/hook-inspector-tests, else
~/.cache/hook-inspector-tests, read when this module is imported (at collection), before
tests/conftest.py gives each test an empty HOME. An install (one at a time: install_lock.py)
happens in a fresh folder beside the target and is renamed into place only once the CLI answers
`--version` with its version, so an interrupted install is never reused.

A run is `codex exec --skip-git-repo-check --json PROMPT` in the project folder, with HOME and
CODEX_HOME in the test's home, the model at a fake Responses API (`-c` overrides name the
provider, so config.toml stays the test's and the installer's), and none of the caller's
CODEX_* / OPENAI_* variables. The project is trusted in config.toml (`trust_project`), as a
user's would be, else Codex loads none of its .codex/ folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npm_cache import cache_folder, installed

from inspector.relay.command_wire import INSIDE_INSPECTOR

JSONObject = dict[str, Any]

PACKAGE = "@openai/codex"
# The releases the real-agent tests run, oldest first: the oldest supported and the newest.
VERSIONS = ("0.171.0",)
MODEL = "gpt-fake-1"
EXECUTABLE = "node_modules/.bin/codex"  # npm's launcher of the platform's native binary
MIN_NODE = 16
RUN_TIMEOUT_S = 120  # a `codex exec` run here takes about a second; this only ends a hung one
KEY_VARIABLE = "FAKE_CODEX_KEY"  # the provider's env_key: Codex sends it as the bearer token
_HOST_PREFIXES = ("CODEX", "OPENAI")  # the caller's own settings for Codex stay out


@dataclass(frozen=True)
class CodexRun:
    events: list[JSONObject]  # the --json output, one object per line
    exit_code: int
    stderr: str
    env: dict[str, str]  # the environment the CLI was started with

    @property
    def completed(self) -> bool:
        return any(event.get("type") == "turn.completed" for event in self.events)

    def commands(self) -> list[JSONObject]:
        """The command_execution items Codex finished: the commands that ran."""
        return [
            event["item"]
            for event in self.events
            if event.get("type") == "item.completed"
            and event["item"].get("type") == "command_execution"
        ]


def codex_home(home: Path) -> Path:
    return home / ".codex"


def trust_project(home: Path, project: Path) -> None:
    """Mark `project` trusted in the user's config.toml, as Codex's own prompt does."""
    config = codex_home(home) / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    with config.open("a", encoding="utf-8") as out:
        out.write(f'[projects.{json.dumps(str(project))}]\ntrust_level = "trusted"\n')


@dataclass(frozen=True)
class CodexCli:
    executable: Path
    version: str

    def run(
        self,
        project: Path,
        prompt: str,
        *,
        api_url: str,
        home: Path,
        bypass_hook_trust: bool = False,
        extra_env: dict[str, str] | None = None,
        options: Sequence[str] = (),
    ) -> CodexRun:
        """Run one `codex exec` in `project` against the fake Responses API at `api_url`.
        `bypass_hook_trust`: run hooks nobody has trusted (--dangerously-bypass-hook-trust)."""
        env = {
            **{name: value for name, value in os.environ.items() if not _is_host_setting(name)},
            **(extra_env or {}),
            "HOME": str(home),
            "CODEX_HOME": str(codex_home(home)),
            KEY_VARIABLE: "dummy",
        }
        provider = {"name": "fake", "base_url": api_url, "wire_api": "responses"}
        provider_toml = ", ".join(f"{key} = {json.dumps(value)}" for key, value in provider.items())
        argv = [str(self.executable), "exec", "--skip-git-repo-check", "--json"]
        argv += ["-c", f"model={json.dumps(MODEL)}", "-c", 'model_provider="fake"']
        argv += [
            "-c",
            f"model_providers.fake={{{provider_toml}, env_key = {json.dumps(KEY_VARIABLE)}}}",
        ]
        if bypass_hook_trust:
            argv.append("--dangerously-bypass-hook-trust")
        argv += options
        codex_home(home).mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [*argv, prompt],
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
        events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        return CodexRun(events, done.returncode, done.stderr, env)


def install(version: str) -> CodexCli:
    """`version` of the CLI from the machine's cache, installed there first when need be."""
    folder = cache_folder(f"codex-{version}")
    executable = installed(folder, PACKAGE, version, EXECUTABLE, _version_of, MIN_NODE)
    return CodexCli(executable, version)


def _is_host_setting(name: str) -> bool:
    # An inspector listening in this test process marks its own environment; a real session is
    # started elsewhere, without that mark, so its relay does not take itself for a loop.
    return name.startswith(_HOST_PREFIXES) or name == INSIDE_INSPECTOR


def _version_of(executable: Path) -> str | None:
    """What `codex --version` says (`codex-cli 0.171.0`: its last word), or None when it does
    not run."""
    if not executable.exists():
        return None
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HOME": home, "CODEX_HOME": home}
        try:
            said = subprocess.run(
                [str(executable), "--version"],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
    words = said.stdout.split()
    return words[-1] if said.returncode == 0 and words else None
