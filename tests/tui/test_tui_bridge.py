"""A live agent in the UI: a fake PicoClaw runs the real `hook-inspector relay` as its hook; the
inspector's UI shows its traffic and a human answers its approval in the modal."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from inspector.bridge.listener import ListenOptions
from inspector.config.model import HookSpec
from inspector.engine import Engine
from inspector.journal.records import Decision
from inspector.tui.app import Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.hooks_panel import HooksPanel
from tests.support.fake_agent import FakeAgent
from tests.support.scripted import config_of, scripted
from tests.support.tui import make_app, opened, running
from tests.support.waiting import wait_for


def relay_command(socket: Path) -> list[str]:
    console_script = Path(sys.executable).parent / "hook-inspector"
    return [str(console_script), "relay", "--name", "picoclaw", "--socket", str(socket)]


async def test_an_agents_approval_is_answered_by_the_human_in_the_modal(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    human = HookSpec(name="me", kind="manual", intercept=("approve_tool",), priority=50)
    gate = scripted("gate", {}, intercept=("approve_tool",), priority=10)
    engine = Engine(config_of(gate, human))
    session = Session(engine, watch=False, listen=ListenOptions(socket_path=socket))
    app = make_app(session, tmp_path / "settings")
    async with running(app) as pilot:
        await wait_for(lambda: app.listener is not None)
        agent = FakeAgent(relay_command(socket))
        await agent.start()
        try:
            await agent.hello("picoclaw", ["approve"])
            asking = asyncio.create_task(
                agent.call("hook.approve_tool", {"tool": "exec", "arguments": {"command": "ls"}})
            )
            await opened(pilot, ApprovalScreen, "the approval modal")
            await pilot.press("a")
            answer = await asking
        finally:
            await agent.close()
        assert answer.result is not None and answer.result["approved"] is True
        human_said = [d for d in engine.journal.of_type(Decision) if d.by == "human"]
        assert [d.verdict for d in human_said] == ["allow_once"]
        exchanges = app.query_one(ExchangeList)
        # The list takes new records on its 20 Hz ingest tick, which may not have come yet.
        await wait_for(
            lambda: any(getattr(r, "source", "") == "relay:picoclaw" for r in exchanges.rows)
        )


async def test_a_connected_agent_is_listed_in_the_hooks_panel(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(config_of(scripted("gate", {}, intercept=("approve_tool",))))
    session = Session(engine, watch=False, listen=ListenOptions(socket_path=socket))
    app = make_app(session, tmp_path / "settings")
    async with running(app):
        await wait_for(lambda: app.listener is not None)
        agent = FakeAgent(relay_command(socket))
        await agent.start()
        panel = app.query_one(HooksPanel)
        try:
            await agent.hello("picoclaw", ["approve"])
            await wait_for(lambda: "relay:picoclaw" in [str(key.value) for key in panel.rows])
            assert str(panel.get_row("relay:picoclaw")[1]) == "connected"
        finally:
            await agent.close()
        await wait_for(lambda: str(panel.get_row("relay:picoclaw")[1]) == "disconnected")
