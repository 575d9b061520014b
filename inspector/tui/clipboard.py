"""Copying text out of the terminal: tmux's paste buffer when inside tmux, else OSC 52.

tmux's default `set-clipboard external` drops an application's OSC 52, so inside tmux the text
goes in through `tmux load-buffer -w`: it lands in tmux's buffer (prefix ] pastes it) and tmux
itself passes it on to the outer terminal's clipboard where the terminal allows."""

from __future__ import annotations

import os
import subprocess
from typing import Any

from textual.app import App

TMUX_TIMEOUT_S = 5.0


def copy_text(app: App[Any], text: str) -> str:
    """Copy `text`; returns where it went, for the person to know where to paste from."""
    if os.environ.get("TMUX") and _into_tmux(text):
        return "tmux's paste buffer (prefix ]) and, where allowed, the terminal's clipboard"
    app.copy_to_clipboard(text)
    return "the terminal's clipboard (OSC 52, where the terminal allows it)"


def _into_tmux(text: str) -> bool:
    try:
        result = subprocess.run(
            ["tmux", "load-buffer", "-w", "-"],
            input=text.encode(),
            capture_output=True,
            timeout=TMUX_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0
