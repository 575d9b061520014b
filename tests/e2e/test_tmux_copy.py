"""`y` in a real tmux with its default `set-clipboard external`, which drops an application's
OSC 52: the one-liner must still reach tmux's paste buffer."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.test_tmux import HOOK_INSPECTOR, Terminal, exchange_hooks


def paste_buffer(terminal: Terminal) -> str:
    try:
        return terminal.tmux("show-buffer")
    except subprocess.CalledProcessError:  # no buffer yet
        return ""


def test_y_puts_the_one_liner_in_tmuxs_paste_buffer(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (CI installs it: apt-get install tmux)")
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    env |= {"HOOK_INSPECTOR_CONFIG_DIR": str(tmp_path / "settings"), "TERM": "xterm-256color"}
    terminal = Terminal(tmp_path)
    try:
        terminal.start(shlex.quote(str(HOOK_INSPECTOR)), cwd=tmp_path, env=env)
        terminal.wait_for(
            "the demo's denied approval", lambda s: "review_gate" in s and "denied" in s
        )
        assert "set-clipboard external" in terminal.tmux("show-options", "-s", "set-clipboard")
        assert "weather" in exchange_hooks(terminal.screen)
        terminal.keys("y")
        terminal.wait_for("the one-liner in tmux's buffer", lambda s: bool(paste_buffer(terminal)))
        line = paste_buffer(terminal)
        assert line.startswith(("cd ", "printf ")) and "hook.hello" in line
        terminal.wait_for("the one-liner shown", lambda s: "Copied to tmux" in s)
        terminal.keys("q")
        assert terminal.wait_for_exit() == "0", terminal.screen
    finally:
        terminal.kill()
