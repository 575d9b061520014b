"""hook-inspector's OpenClaw bridge plugin (inspector/hosts/openclaw/plugin) loaded in a real
Node process, the host-mode harness, which calls its handlers the way the Gateway does; and an
inspector listening for it. The real Gateway runs in tests/real_agents/test_openclaw_*."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from inspector.bridge.listener import Listener
from inspector.engine import Engine
from inspector.hosts.openclaw.config import read_plugin
from inspector.hosts.openclaw.node_harness import Harness, Registration
from inspector.journal.journal import Journal
from tests.support.paths import HOOKS, HOSTS

BRIDGE = HOSTS / "openclaw" / "plugin"
PLUGINS = HOOKS / "openclaw"
JSONObject = dict[str, Any]


def exec_call(command: str) -> tuple[JSONObject, JSONObject]:
    """A before_tool_call event and ctx as the Gateway gives them for an `exec` tool call."""
    event = {"toolName": "exec", "params": {"command": command}, "runId": "r1", "toolCallId": "t1"}
    ctx = {"toolName": "exec", "agentId": "main", "sessionKey": "agent:main:main", "runId": "r1"}
    return event, ctx


@dataclass
class Gateway:
    """The bridge plugin in its own Node process; `journal` has the harness's own records."""

    harness: Harness
    journal: Journal

    def handler(self, hook_name: str, mode: str = "discovery") -> Registration:
        return next(
            r for r in self.harness.registrations if r.hook_name == hook_name and r.mode == mode
        )

    async def fire(
        self, hook_name: str, event: JSONObject, ctx: JSONObject, *, timeout_ms: int = 10_000
    ) -> Any:
        """What the plugin's handler returned (None for nothing); fails if it threw."""
        reply = await self.harness.call(self.handler(hook_name).index, event, ctx, timeout_ms)
        message = reply.message
        assert "threw" not in message and not message.get("timedOut"), message
        return message.get("result")


@asynccontextmanager
async def gateway(socket: Path, **config: Any) -> AsyncIterator[Gateway]:
    """The bridge plugin with `config` (its plugins.entries config), pointed at `socket`."""
    plugin = replace(read_plugin(BRIDGE), config={"socket": str(socket), **config})
    journal = Journal()
    harness = Harness(plugin, journal)
    await harness.start()
    try:
        yield Gateway(harness, journal)
    finally:
        await harness.stop()


@asynccontextmanager
async def inspector(engine: Engine, socket: Path) -> AsyncIterator[Listener]:
    async with engine:
        listener = Listener(engine, socket_path=socket)
        await listener.start()
        try:
            yield listener
        finally:
            await listener.close()
