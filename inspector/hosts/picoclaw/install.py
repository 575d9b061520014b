"""PicoClaw has nothing for `hook-inspector install` to do: its config.json names its process
hooks itself, and the relay is one of them. `install picoclaw` says how instead."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from inspector.hosts.installer import NoInstaller


def _console_script() -> str:
    """This installation's `hook-inspector`, by its absolute path when it is there: PicoClaw's
    environment may not have the virtualenv on its PATH."""
    script = Path(sys.executable).with_name("hook-inspector")
    return str(script) if script.is_file() else "hook-inspector"


NOT_INSTALLED = NoInstaller(
    "PicoClaw runs the relay as one of its own process hooks, which its config.json names under"
    f" hooks.processes: a process whose command is {json.dumps([_console_script(), 'relay'])}"
    ' (see "Inspect a running PicoClaw" in the manual, inspector/docs/picoclaw.md)'
)
