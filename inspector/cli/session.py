"""What `run` and `check` share: which config to use and whether a session went well."""

from __future__ import annotations

from pathlib import Path

from inspector.config import Config, load_config
from inspector.demo import DEMO_CONFIG
from inspector.journal.journal import Journal
from inspector.journal.records import Lifecycle


def config_or_demo(path: Path | None) -> Config:
    return load_config(path if path is not None else DEMO_CONFIG)


def error_findings(journal: Journal) -> int:
    return sum(
        1
        for record in journal.records
        for finding in record.findings_list
        if finding.severity == "error"
    )


def hooks_that_never_started(journal: Journal, names: list[str]) -> list[str]:
    ready = {record.hook for record in journal.of_type(Lifecycle) if record.state == "ready"}
    return [name for name in names if name not in ready]
