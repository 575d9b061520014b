"""Helpers for the j-cli tests: specs that run the real scripts in tests/hooks/jcli."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from inspector.config.model import CommandHookSpec
from inspector.journal.journal import Journal
from inspector.journal.records import Decision, Exchange
from tests.support.paths import HOOKS

SCRIPTS = HOOKS / "jcli"


def sh(script: str, *args: object) -> str:
    """A command line running one of the shell scripts, as a HOOK.yaml `command` would."""
    return " ".join(shlex.quote(str(part)) for part in ("sh", SCRIPTS / script, *args))


def reply(answer: str | dict[str, Any]) -> str:
    return sh("reply.sh", answer if isinstance(answer, str) else json.dumps(answer))


def record(log: Path, answer: str | dict[str, Any] = "{}") -> str:
    text = answer if isinstance(answer, str) else json.dumps(answer)
    parts = (sys.executable, SCRIPTS / "record.py", log, text)
    return " ".join(shlex.quote(str(part)) for part in parts)


def recorded(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def spec(
    name: str, command: str, event: str = "pre_tool_execution", **fields: Any
) -> CommandHookSpec:
    fields.setdefault("timeout_ms", 5000)
    return CommandHookSpec(name=name, host="jcli", event=event, command=command, **fields)


def exchanges(journal: Journal) -> list[Exchange]:
    return list(journal.exchanges())


def decisions(journal: Journal) -> list[Decision]:
    return list(journal.of_type(Decision))


def codes(exchange: Exchange) -> list[str]:
    return [finding.code for finding in exchange.findings]
