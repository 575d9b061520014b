"""A reload to a config of another host replaces the session's runtime: the old hooks stop with
their own host's name on their last records, and the new host's hooks that fail to start are
reported as failed, as a same-host reload reports them."""

from __future__ import annotations

import sys

from inspector.config.model import Config, HookSpec
from inspector.engine import Engine
from inspector.hosts.claude import NAME as CLAUDE
from inspector.hosts.picoclaw import NAME as PICOCLAW
from inspector.journal.records import Lifecycle
from tests.support.paths import HOOKS
from tests.support.scripted import config_of, scripted


async def test_a_switch_stops_the_old_hooks_under_their_own_host() -> None:
    async with Engine(config_of(scripted("gate", intercept=("before_tool",)))) as engine:
        reload = await engine.apply_config(Config((), host=CLAUDE))
        stopped = [r for r in engine.journal.of_type(Lifecycle) if r.state == "stopped"]
    assert reload.removed == ["gate"] and reload.failed == []
    assert [(record.hook, record.host) for record in stopped] == [("gate", PICOCLAW)]
    assert engine.runtime.host_name == CLAUDE


async def test_a_switch_reports_the_new_hooks_that_did_not_start() -> None:
    crashing = HookSpec(
        name="bad", command=(sys.executable, str(HOOKS / "crash_at_start.py")), observe=("*",)
    )
    async with Engine(Config((), host=CLAUDE)) as engine:
        reload = await engine.apply_config(config_of(crashing))
    assert reload.added == ["bad"]
    assert reload.failed == ["bad"]
