"""A live OpenClaw hook in the UI: the bridge plugin (in a real Node process) hands a
before_tool_call to the inspector, whose own OpenClaw plugin asks for approval; the person
answers in the approval modal, and the answer goes straight back as the hook's result."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Label

from inspector.bridge.listener import ListenOptions
from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.tui.app import Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.widgets.exchange_list import ExchangeList
from tests.support.openclaw_bridge import PLUGINS, exec_call, gateway
from tests.support.tui import make_app, opened, running
from tests.support.waiting import wait_for


async def test_a_person_allows_a_live_openclaw_tool_call_in_the_modal(tmp_path: Path) -> None:
    socket = tmp_path / "relay.sock"
    engine = Engine(load_config(PLUGINS / "approver"))
    session = Session(engine, watch=False, listen=ListenOptions(socket_path=socket))
    app = make_app(session, tmp_path / "settings")
    async with running(app) as pilot, gateway(socket, timeoutMs=30_000) as live:
        # the plugin may have looked before the app listened: it looks again within a second
        await wait_for(lambda: app.listener is not None and bool(app.listener.plugin_sessions))
        asking = asyncio.create_task(live.fire("before_tool_call", *exec_call("make deploy")))
        modal = await opened(pilot, ApprovalScreen, "the approval modal")
        (prompt,) = app.engine.approvals.pending
        assert prompt.hook == "approver: Run exec?" and prompt.tool == "exec"
        assert prompt.timeout_s < 30  # the Gateway's deadline, not requireApproval's 120 s
        countdown = str(modal.query_one("#countdown", Label).render())
        assert int(countdown.split(" s left")[0]) <= 30
        await pilot.press("a")
        assert await asking is None  # no decision left: OpenClaw runs the tool
        rows = app.query_one(ExchangeList)
        await wait_for(lambda: any(getattr(r, "hook", "") == "openclaw" for r in rows.rows))
    (call,) = [r for r in rows.rows if getattr(r, "hook", "") == "openclaw"]
    assert call.method == "before_tool_call" and call.action == "continue"
