"""A live Claude Code hook in the UI: the real command relay hands a PreToolUse to the inspector,
whose config hook asks; the person answers in the approval modal, and the answer is the hook's."""

from __future__ import annotations

import asyncio
from pathlib import Path

from claude_support import decision, reply, spec
from command_relay_support import pre_tool_use, run_relay
from conftest import wait_for
from textual.widgets import Button
from tui_support import make_app, opened, running

from inspector.bridge.listener import ListenOptions
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.tui.app import InspectorApp, Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.widgets.exchange_list import ExchangeList


def asking_app(tmp_path: Path, socket: Path) -> InspectorApp:
    """The UI listening on `socket`, its config one Claude Code hook that asks about Bash."""
    asker = spec(reply(0, decision("ask", "run this?")), matcher="Bash")
    engine = Engine(Config(hooks=(asker,), host="claude", workdir=tmp_path))
    session = Session(engine, watch=False, listen=ListenOptions(socket_path=socket))
    return make_app(session, tmp_path / "settings")


async def test_a_claude_code_pretooluse_is_approved_by_the_person_in_the_modal(
    tmp_path: Path,
) -> None:
    socket = tmp_path / "relay.sock"
    app = asking_app(tmp_path, socket)
    async with running(app) as pilot:
        await wait_for(lambda: app.listener is not None)
        asking = asyncio.create_task(
            run_relay(socket, pre_tool_use("rm -rf build"), "--timeout", "60")
        )
        await opened(pilot, ApprovalScreen, "the approval modal")
        (prompt,) = app.engine.approvals.pending
        assert prompt.tool == "Bash" and prompt.timeout_s < 60  # the relay's deadline, not 60 s
        await pilot.press("a")
        run = await asking
        exchanges = app.query_one(ExchangeList)
        await wait_for(
            lambda: any(getattr(r, "source", "") == "relay:claude" for r in exchanges.rows)
        )
    specific = run.output["hookSpecificOutput"]
    assert (specific["hookEventName"], specific["permissionDecision"]) == ("PreToolUse", "allow")


async def test_the_person_leaves_a_pretooluse_to_claude_codes_own_dialog_with_u(
    tmp_path: Path,
) -> None:
    socket = tmp_path / "relay.sock"
    app = asking_app(tmp_path, socket)
    async with running(app) as pilot:
        await wait_for(lambda: app.listener is not None)
        asking = asyncio.create_task(
            run_relay(socket, pre_tool_use("rm -rf build"), "--timeout", "60")
        )
        modal = await opened(pilot, ApprovalScreen, "the approval modal")
        assert "Let Claude Code ask" in str(modal.query_one("#ask_agent", Button).label)
        await pilot.press("u")
        run = await asking
    specific = run.output["hookSpecificOutput"]
    assert (specific["permissionDecision"], specific["permissionDecisionReason"]) == (
        "ask",
        "run this?",
    )
