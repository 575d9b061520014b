"""Settings that put hooks/record.py on events, and what the recorder wrote.

Each call of the recorder is one JSON line in its log: the raw stdin, the environment and the
working folder (see hooks/record.py).
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

JSONObject = dict[str, Any]

RECORDER = Path(__file__).parent / "hooks" / "record.py"


def recorder(log: Path, answer: str = "") -> str:
    """The command line that records to `log` and answers `rm -rf` with `answer`."""
    words = [sys.executable, str(RECORDER), str(log), *([answer] if answer else [])]
    return " ".join(shlex.quote(word) for word in words)


def recording_settings(command: str, events: Iterable[str]) -> JSONObject:
    """A settings.json that runs `command` on every one of `events`, whatever the matcher."""
    handler = {"type": "command", "command": command}
    return {"hooks": {event: [{"hooks": [handler]}] for event in events}}


def write_settings(project: Path, settings: JSONObject) -> None:
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))


@dataclass(frozen=True)
class HookCall:
    stdin: str
    env: dict[str, str]
    cwd: str

    @property
    def payload(self) -> JSONObject:
        value: JSONObject = json.loads(self.stdin)
        return value

    @property
    def event(self) -> str:
        return str(self.payload["hook_event_name"])

    def env_added(self, started_with: Mapping[str, str]) -> set[str]:
        """The variables the host set or changed for the hook, against its own environment."""
        return {name for name, value in self.env.items() if started_with.get(name) != value}


def read_calls(log: Path) -> list[HookCall]:
    """Every call the recorder logged, in order; none when it never ran."""
    if not log.exists():
        return []
    return [HookCall(**json.loads(line)) for line in log.read_text().splitlines() if line]
