"""What `run` and `check` share: which config to use, how SIGTERM ends them, and whether a
session went well."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from inspector.config import Config
from inspector.demo import DEMO_CONFIG
from inspector.hosts.load import load_config
from inspector.journal.journal import Journal
from inspector.journal.records import (
    EXITED,
    STATUS_ERROR,
    STATUS_EXITED,
    STATUS_INVALID,
    STATUS_NOT_SENT,
    STATUS_TIMEOUT,
    Exchange,
    Lifecycle,
)

EXIT_TERMINATED = 128 + signal.SIGTERM
FAILED_CALL = frozenset(
    {STATUS_ERROR, STATUS_TIMEOUT, STATUS_EXITED, STATUS_INVALID, STATUS_NOT_SENT}
)


def config_or_demo(path: Path | None) -> Config:
    return load_config(path if path is not None else DEMO_CONFIG)


async def until_sigterm(work: Coroutine[Any, Any, int]) -> int:
    """Run `work`. SIGTERM cancels it the way Ctrl-C does: the call in flight ends `cancelled`,
    every hook is stopped (stdin closed, then its process group killed) and the journal gets
    the last records; then the exit status is 143. A second SIGTERM does not cut that short."""
    task = asyncio.ensure_future(work)
    terminated = asyncio.Event()

    def terminate() -> None:
        if not terminated.is_set():
            terminated.set()
            task.cancel()

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, terminate)
    try:
        return await task
    except asyncio.CancelledError:
        if terminated.is_set():
            return EXIT_TERMINATED
        raise
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


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


def failed_calls(journal: Journal, run_failed: Callable[[Exchange], bool]) -> list[Exchange]:
    """Calls that got no usable answer: an error, a timeout, a hook that exited mid-call, an
    answer PicoClaw cannot decode, or a request never sent; and that the host (`run_failed`)
    counts as failed, not as an answer: a Claude Code exit 2 that blocks is its answer."""
    return [
        record
        for record in journal.of_type(Exchange)
        if record.status in FAILED_CALL and run_failed(record)
    ]


def crashes(journal: Journal) -> list[Lifecycle]:
    """Hooks that exited on their own (a stop the inspector asked for is `stopped`)."""
    return [record for record in journal.of_type(Lifecycle) if record.state == EXITED]
