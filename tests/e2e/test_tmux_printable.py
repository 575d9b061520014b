"""End to end in a real terminal (tmux): a hook and a live agent behind the real relay send
escape sequences, markup and invisible characters in stderr, stray stdout, answers, event kinds,
tool names and the agent's ids. None of it reaches the terminal: the pane keeps its title, no
clipboard buffer appears, the screen carries only the app's own colours, and the approval prompt
shows what was there."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.test_tmux import HOOK_INSPECTOR, Terminal
from tests.support.hostile_text import (
    BIDI_AND_INVISIBLE,
    C1,
    ESCAPE_SEQUENCES,
    MARKUP,
    raw_characters,
)
from tests.support.paths import SCRIPTED, SUPPORT

FAKE_AGENT = SUPPORT / "fake_agent.py"
# One line of it: line breaks split a hook's output, and surrogates cannot cross a UTF-8 pipe.
HOSTILE_LINE = "".join(
    ("<", *ESCAPE_SEQUENCES, *MARKUP, BIDI_AND_INVISIBLE, "\x00\x08\x0d\x7f", C1, ">")
)
SEEN = "␛]0;pwned␇"
SGR = re.compile(r"\x1b\[[0-9;:]*m")


def write_config(folder: Path) -> Path:
    """A hook that writes the hostile line to stderr and stdout before every answer and gives it
    as its approval reason, then a human approver. JSON is YAML: the file itself stays ASCII."""
    noisy = {"stderr": HOSTILE_LINE, "print_before": HOSTILE_LINE}
    script = {
        "*": noisy,
        "approve_tool": noisy | {"result": {"approved": True, "reason": HOSTILE_LINE}},
    }
    config = {
        "hooks": {
            "gate": {
                "command": [sys.executable, str(SCRIPTED), json.dumps(script)],
                "intercept": ["before_tool", "approve_tool"],
                "observe": ["*"],
                "priority": 10,
            },
            "me": {"kind": "manual", "priority": 50},
        }
    }
    path = folder / "hostile.yaml"
    path.write_text(json.dumps(config))
    return path


def write_steps(folder: Path) -> Path:
    meta = {"AgentID": HOSTILE_LINE, "SessionKey": HOSTILE_LINE, "TurnID": HOSTILE_LINE}
    steps = [
        {"method": "hook.runtime_event", "params": {"kind": HOSTILE_LINE, "payload": {}}},
        {"method": "hook.before_tool", "params": {"tool": HOSTILE_LINE, "arguments": {}}},
        {
            "method": "hook.approve_tool",
            "params": {"tool": HOSTILE_LINE, "arguments": {"x": HOSTILE_LINE}, "meta": meta},
        },
    ]
    path = folder / "steps.jsonl"
    path.write_text("".join(json.dumps(step) + "\n" for step in steps))
    return path


def check_pane(terminal: Terminal, title: str) -> str:
    """The pane as tmux holds it, with attributes (-e): only colour sequences, nothing raw."""
    screen = terminal.tmux("capture-pane", "-p", "-e", "-t", "main")
    plain = SGR.sub("", screen)
    assert raw_characters(plain) == set(), screen
    assert terminal.tmux("display", "-p", "-t", "main", "#{pane_title}").strip() == title
    assert terminal.tmux("list-buffers") == ""  # no OSC 52 became a paste buffer
    return plain


def test_hostile_hook_and_agent_text_never_reaches_the_terminal(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (CI installs it: apt-get install tmux)")
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    env |= {"HOOK_INSPECTOR_CONFIG_DIR": str(tmp_path / "settings"), "TERM": "xterm-256color"}
    socket = tmp_path / "relay.sock"
    command = [str(HOOK_INSPECTOR), "ui", str(write_config(tmp_path)), "--socket", str(socket)]
    terminal = Terminal(tmp_path)
    # Applications may set the clipboard: an OSC 52 that got through would leave a buffer.
    with terminal.conf.open("a") as conf:
        conf.write("set -g set-clipboard on\nset -g allow-rename on\n")
    agent: subprocess.Popen[str] | None = None
    try:
        terminal.start(shlex.join(command), cwd=tmp_path, env=env)
        terminal.wait_for("the hook to be ready", lambda s: "gate" in s and "ready" in s)
        title = terminal.tmux("display", "-p", "-t", "main", "#{pane_title}").strip()
        relay = [str(HOOK_INSPECTOR), "relay", "--name", "picoclaw", "--socket", str(socket)]
        agent = subprocess.Popen(
            [sys.executable, str(FAKE_AGENT), "--steps", str(write_steps(tmp_path)), "--", *relay],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        screen = terminal.wait_for("the approval prompt", lambda s: "Approval required" in s)
        plain = check_pane(terminal, title)
        assert f"Tool <␛[2J␛[31m{SEEN}" in plain, screen
        assert f"agent <␛[2J␛[31m{SEEN}" in plain, screen
        assert "Earlier approvers" in plain and plain.count(SEEN) >= 5, screen

        terminal.keys("d")
        terminal.wait_for("the reason field", lambda s: "Reason for denying" in s)
        terminal.keys("Enter")
        terminal.wait_for("the list again", lambda s: "Approval required" not in s)
        out, errors = agent.communicate(timeout=30)
        answers = [json.loads(line) for line in out.splitlines()]
        assert {answer["outcome"] for answer in answers} == {"answered"}, errors
        assert answers[-1]["answer"]["result"]["approved"] is False  # the human denied

        terminal.wait_for("the hook's stray stdout", lambda s: s.count(SEEN) >= 2)
        check_pane(terminal, title)
        terminal.keys("q")
        assert terminal.wait_for_exit() == "0", terminal.screen
    finally:
        if agent is not None and agent.poll() is None:
            agent.kill()
            agent.communicate()
        terminal.kill()
