"""`check`: run every hook once per thing it takes, the way its host would, and judge each run by
that host's rules. Nothing here knows a host: the session's runtime probes its hooks (a PicoClaw
process hook gets one representative request per method it intercepts, a command hook runs once
per event it listens to, an OpenClaw plugin's hooks fire once each) and reports on them."""

from __future__ import annotations

from collections.abc import Callable

from inspector.config.model import Config
from inspector.engine import Engine
from inspector.hosts.probe import HookReport
from inspector.journal.journal import Journal

SOURCE = "check"


async def check(
    config: Config, watch: Callable[[Journal], object] | None = None
) -> list[HookReport]:
    """Every enabled hook of `config`, probed and judged, in config order. `watch` is given
    the session's journal before any hook starts (--otlp sends its records as spans)."""
    engine = Engine(config, restart_crashed=False)
    if watch is not None:
        watch(engine.journal)
    engine.approvals.unattended = True  # nobody answers a Claude Code `ask`: it is denied
    async with engine:
        await engine.runtime.probe(SOURCE)
    return engine.runtime.reports()
