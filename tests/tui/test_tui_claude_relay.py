"""A live Claude Code hook in the UI: the real command relay hands a PreToolUse to the inspector,
whose config hook asks (or a PermissionRequest no hook decided); the person answers in the
approval modal, and the answer is the hook's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Button, Label

from inspector.bridge.listener import ListenOptions
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.tui.app import InspectorApp, Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.widgets.exchange_list import ExchangeList
from tests.support.claude import decision, reply, spec
from tests.support.command_relay import HookRun, permission_request, pre_tool_use, run_relay
from tests.support.tui import make_app, opened, running
from tests.support.waiting import wait_for


@dataclass
class Prompted:
    app: InspectorApp
    pilot: Pilot[int]
    modal: ApprovalScreen
    asking: asyncio.Task[HookRun]  # the relay run, answered when the person has answered


@asynccontextmanager
async def prompted(tmp_path: Path, event: dict[str, Any]) -> AsyncIterator[Prompted]:
    """The UI listening for relays, its config one Claude Code hook that asks about Bash, with
    the approval modal open for `event`, relayed with a 60 s deadline."""
    socket = tmp_path / "relay.sock"
    asker = spec(reply(0, decision("ask", "run this?")), matcher="Bash")
    engine = Engine(Config(hooks=(asker,), host="claude", workdir=tmp_path))
    session = Session(engine, watch=False, listen=ListenOptions(socket_path=socket))
    app = make_app(session, tmp_path / "settings")
    async with running(app) as pilot:
        await wait_for(lambda: app.listener is not None)
        asking = asyncio.create_task(run_relay(socket, event, "--timeout", "60"))
        modal = await opened(pilot, ApprovalScreen, "the approval modal")
        yield Prompted(app, pilot, modal, asking)


async def test_a_claude_code_pretooluse_is_approved_by_the_person_in_the_modal(
    tmp_path: Path,
) -> None:
    async with prompted(tmp_path, pre_tool_use("rm -rf build")) as shown:
        (prompt,) = shown.app.engine.approvals.pending
        assert prompt.tool == "Bash" and prompt.timeout_s < 60  # the relay's deadline, not 60 s
        countdown = str(shown.modal.query_one("#countdown", Label).render())
        assert int(countdown.split(" s left")[0]) <= 60
        await shown.pilot.press("a")
        run = await shown.asking
        exchanges = shown.app.query_one(ExchangeList)
        await wait_for(
            lambda: any(getattr(r, "source", "") == "relay:claude" for r in exchanges.rows)
        )
    specific = run.output["hookSpecificOutput"]
    assert (specific["hookEventName"], specific["permissionDecision"]) == ("PreToolUse", "allow")


async def test_the_person_leaves_a_pretooluse_to_claude_codes_own_dialog_with_u(
    tmp_path: Path,
) -> None:
    async with prompted(tmp_path, pre_tool_use("rm -rf build")) as shown:
        assert "Let Claude Code ask" in str(shown.modal.query_one("#ask_agent", Button).label)
        await shown.pilot.press("u")
        run = await shown.asking
    specific = run.output["hookSpecificOutput"]
    assert (specific["permissionDecision"], specific["permissionDecisionReason"]) == (
        "ask",
        "run this?",
    )


async def test_a_relayed_permission_request_opens_the_modal_without_ask_and_a_deny_goes_back(
    tmp_path: Path,
) -> None:
    async with prompted(tmp_path, permission_request("rm -rf build")) as shown:
        assert not shown.modal.query("#ask_agent")  # a PermissionRequest answers allow or deny
        await shown.pilot.press("u", "d", *"keep it", "enter")
        run = await shown.asking
    decided = run.output["hookSpecificOutput"]
    assert decided == {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "keep it"},
    }
