"""A real session's hook calls as committed data: data/claude-code-VERSION/hook-calls.json.

Volatile values are replaced by placeholders (`<session_id>`, `<prompt_id>`, `<project>`,
`<project-slug>` as in transcript paths, `<home>`, and `<duration_ms>`, `<turn_id>`,
`<message_id>` by key; the variables in VOLATILE_ENV by name; Claude Code's own folder in the
temporary folder, `<claude-tmp>`), so the same run gives the same text. With
HOOK_INSPECTOR_WRITE_DATA=1 the run rewrites the file (for a version added to
claude_cli.VERSIONS).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_cli import PACKAGE
from recorded_hooks import HookCall

DATA = Path(__file__).parent / "data"
WRITE_DATA = os.environ.get("HOOK_INSPECTOR_WRITE_DATA") == "1"
VOLATILE_KEYS = frozenset({"duration_ms", "turn_id", "message_id"})  # by key, wherever they are
# Variables whose whole value each run makes anew (2.1.332: its process, its messaging socket).
VOLATILE_ENV = frozenset(
    {"CLAUDE_PID", "CLAUDE_CODE_MESSAGING_SOCKET", "CLAUDE_CODE_MESSAGING_TOKEN"}
)


@dataclass(frozen=True)
class RealSession:
    version: str  # the CLI's
    run: str  # the command line, for the reader
    model: str  # what the fake model answered, for the reader

    def as_data(
        self, calls: list[HookCall], started_with: Mapping[str, str], project: Path, home: Path
    ) -> str:
        """`calls` as the data file's text: key order kept, volatile values replaced. With
        WRITE_DATA the text is written to the data file too."""
        prompt_id = next(call.payload["prompt_id"] for call in calls if "prompt_id" in call.payload)
        names = {
            calls[0].payload["session_id"]: "<session_id>",
            prompt_id: "<prompt_id>",
            str(project): "<project>",
            re.sub(r"[^A-Za-z0-9]", "-", str(project)): "<project-slug>",
            str(home): "<home>",
            f"{tempfile.gettempdir()}/claude-{os.getuid()}/": "<claude-tmp>/",
        }
        recorded = {
            "cli": f"{PACKAGE}@{self.version}",
            "run": self.run,
            "model": self.model,
            "calls": [
                {
                    "event": call.event,
                    "payload": _normalised(call.payload, names),
                    "stdin_ends_with_newline": call.stdin.endswith("\n"),
                    "cwd": _normalised(call.cwd, names),
                    "env_added": {
                        name: _normalised_env(name, call.env[name], names)
                        for name in sorted(call.env_added(started_with))
                    },
                }
                for call in calls
            ],
        }
        text = json.dumps(recorded, indent=2) + "\n"
        if WRITE_DATA:
            data_file(self.version).parent.mkdir(parents=True, exist_ok=True)
            data_file(self.version).write_text(text)
        return text


def data_file(version: str) -> Path:
    return DATA / f"claude-code-{version}" / "hook-calls.json"


def committed(version: str) -> str:
    """The data file's text for `version` of the CLI."""
    return data_file(version).read_text()


def _normalised_env(name: str, value: str, names: dict[str, str]) -> str:
    return f"<{name}>" if name in VOLATILE_ENV else _normalised(value, names)


def _normalised(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {
            key: f"<{key}>" if key in VOLATILE_KEYS else _normalised(item, names)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_normalised(item, names) for item in value]
    if isinstance(value, str):
        for volatile in sorted(names, key=len, reverse=True):
            value = value.replace(volatile, names[volatile])
    return value
