"""End to end: the installed `hook-inspector` in a real terminal (tmux), driven by keystrokes."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

HOOK_INSPECTOR = Path(sys.executable).parent / "hook-inspector"
DEADLINE_S = 30.0
# An exchange row starts with its number, its time then its source; an event row has a severity
# there.
EXCHANGE_ROW = re.compile(r"^ *\d+ \d\d:\d\d:\d\d\.\d{3} +(?:host|scenario) +(?P<hook>\S+) ")


class Terminal:
    """One tmux server of our own: a 160x48 window running one command."""

    def __init__(self, tmp_path: Path) -> None:
        self.socket = f"hook-inspector-test-{uuid.uuid4().hex[:12]}"
        self.conf = tmp_path / "tmux.conf"
        self.conf.write_text("set -g remain-on-exit on\n")  # keep the last screen to show
        self.exit_status = tmp_path / "exit-status"
        self.screen = ""

    def tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, "-f", str(self.conf), *args],
            capture_output=True,
            text=True,
            timeout=10,
            env=env,
            check=True,
        )
        return result.stdout

    def start(self, command: str, cwd: Path, env: dict[str, str]) -> None:
        """Run `command` in a shell that writes its exit status to `exit_status` when it ends."""
        size = ["-x", "160", "-y", "48"]
        # The pane's size is the app's, not COLUMNS and LINES: pytest-xdist's workers set 80x24.
        env = {key: value for key, value in env.items() if key not in ("COLUMNS", "LINES")}
        status = shlex.quote(str(self.exit_status))
        script = f"{command}; echo $? > {status}.part && mv {status}.part {status}"
        self.tmux("new-session", "-d", "-s", "main", *size, "-c", str(cwd), script, env=env)

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.tmux("send-keys", "-t", "main", *(["-l"] if literal else []), *keys)

    def capture(self) -> str:
        self.screen = self.tmux("capture-pane", "-p", "-t", "main")
        return self.screen

    def wait_for(self, what: str, condition: Callable[[str], bool]) -> str:
        """Poll the screen until `condition` holds for it."""
        deadline = time.monotonic() + DEADLINE_S
        while not condition(self.capture()):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{self.screen}")
            time.sleep(0.1)
        return self.screen

    def wait_for_exit(self) -> str:
        """The command's exit status, once it has ended. Our shell reports it: tmux's own
        #{pane_dead_status} stayed empty on a machine where tmux left the process unreaped."""
        self.wait_for("the process to exit", lambda screen: self.exit_status.exists())
        return self.exit_status.read_text().strip()

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def exchange_hooks(screen: str) -> list[str]:
    return [m["hook"] for line in screen.splitlines() if (m := EXCHANGE_ROW.match(line))]


def footer(screen: str) -> str:
    return screen.rstrip("\n").rsplit("\n", 1)[-1]


def test_the_demo_in_a_real_terminal(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (CI installs it: apt-get install tmux)")
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    env |= {"HOOK_INSPECTOR_CONFIG_DIR": str(tmp_path / "settings"), "TERM": "xterm-256color"}
    terminal = Terminal(tmp_path)
    try:
        terminal.start(shlex.quote(str(HOOK_INSPECTOR)), cwd=tmp_path, env=env)
        screen = terminal.wait_for(
            "the demo's denied approval", lambda s: "review_gate" in s and "denied" in s
        )
        assert {"redactor", "weather", "review_gate"} <= set(exchange_hooks(screen))

        # Sent at once: the filter field must have the focus before the next key is read.
        terminal.keys("/hook:weather", literal=True)
        # hello, two before_tool, after_tool at least (the scenario may still be playing)
        terminal.wait_for(
            "only weather rows",
            lambda s: (
                "hook:weather" in s
                and set(exchange_hooks(s)) == {"weather"}
                and len(exchange_hooks(s)) >= 4
            ),
        )

        terminal.keys("F1")  # the manual, with its table of contents
        terminal.wait_for("the manual", lambda s: "The hook-inspector manual" in s and "├──" in s)
        terminal.keys("Escape")
        terminal.wait_for("the manual to close", lambda s: "The hook-inspector manual" not in s)

        terminal.keys("BTab")  # out of the filter field, where q would be typed
        terminal.wait_for("q in the footer", lambda s: "q Quit" in footer(s))
        terminal.keys("q")
        assert terminal.wait_for_exit() == "0", terminal.screen
    finally:
        terminal.kill()
