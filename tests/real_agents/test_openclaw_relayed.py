"""A real OpenClaw Gateway behind hook-inspector: `hook-inspector install openclaw` puts the bridge
plugin into the Gateway's openclaw.json, and the inspector, started with the `guard` plugin
(openclaw_plugins/guard), answers the Gateway's live `exec` calls: it blocks one, a person allows
one in the UI, it rewrites one, and with no inspector the call goes on as if it were absent.

One Gateway serves the module; each test starts its own inspector on the socket the plugin was
installed with and runs one `openclaw agent` turn, whose fake model (fake_openai.py) calls `exec`
with the test's command. A marker file says whether the command really ran.
"""

from __future__ import annotations

import asyncio
import shlex
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import openclaw_cli
import pytest
from fake_openai import FINAL_PREFIX, FakeOpenAI
from openclaw_fixtures import openclaw, unavailable  # noqa: F401 (fixtures used by name)

from inspector.bridge.listener import Listener, ListenOptions
from inspector.cli.main import main
from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Decision, Event, Exchange
from inspector.tui.app import Session
from inspector.tui.screens.approval import ApprovalScreen
from tests.support.tui import make_app, opened, running
from tests.support.waiting import wait_for

GUARD = Path(__file__).parent / "openclaw_plugins" / "guard"
GUARD_REASON = "the guard in hook-inspector blocked this"


@dataclass(frozen=True)
class Live:
    gateway: openclaw_cli.Gateway
    model: FakeOpenAI
    socket: Path
    folder: Path

    async def turn(self, command: str) -> openclaw_cli.AgentRun:
        """One agent turn whose model runs `command` with exec, off the event loop."""
        self.model.command = command
        run = await asyncio.to_thread(
            self.gateway.agent, "Run the command, please.", session_id=str(uuid.uuid4())
        )
        assert run.exit_code == 0, f"openclaw agent failed:\n{run.stderr}"
        return run

    def said(self, run: openclaw_cli.AgentRun) -> list[str]:
        return [payload["text"] for payload in run.result["result"]["payloads"]]


@pytest.fixture(scope="module")
def live(
    openclaw: openclaw_cli.OpenClaw, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Live]:
    folder = tmp_path_factory.mktemp("openclaw-bridge")
    socket = folder / "inspector" / "relay.sock"
    with FakeOpenAI() as model:
        gateway = openclaw_cli.Gateway(openclaw, folder, openclaw_cli.free_port())
        openclaw_cli.write_config(
            folder, model_url=model.url, port=gateway.port, token=gateway.token
        )
        config = folder / ".openclaw" / "openclaw.json"
        installed = ["install", "openclaw", "--config", str(config), "--socket", str(socket)]
        assert main([*installed, "--timeout", "60"]) == 0
        try:
            gateway.start()
        except openclaw_cli.Unavailable as error:
            unavailable(str(error))
        try:
            yield Live(gateway, model, socket, folder)
        finally:
            gateway.stop()


@asynccontextmanager
async def inspector(engine: Engine, socket: Path) -> AsyncIterator[Listener]:
    """The inspector listening where the plugin was installed to look, once the plugin (which
    tries at most once a second) has connected."""
    async with engine:
        listener = Listener(engine, socket_path=socket)
        await listener.start()
        try:
            await wait_for(lambda: bool(listener.plugin_sessions), timeout=60)
            yield listener
        finally:
            await listener.close()


def relayed(engine: Engine, hook: str, command: str) -> list[Exchange]:
    return [
        record
        for record in engine.journal.of_type(Exchange)
        if record.hook == "openclaw"
        and record.method == hook
        and (record.request or {}).get("event", {}).get("params", {}).get("command") == command
    ]


def fired(engine: Engine) -> set[str]:
    """Every hook the Gateway sent: relayed calls and events."""
    calls = {r.method for r in engine.journal.of_type(Exchange) if r.hook == "openclaw"}
    return calls | {r.kind for r in engine.journal.of_type(Event) if r.source == "relay:openclaw"}


async def test_a_hook_in_the_inspectors_config_blocks_the_gateways_exec(live: Live) -> None:
    marker = live.folder / "blocked-marker"
    command = f"touch {shlex.quote(str(marker))} # BLOCK-ME"
    engine = Engine(load_config(GUARD))
    async with inspector(engine, live.socket) as listener:
        run = await live.turn(command)
        assert list(listener.plugin_sessions) == ["openclaw"]  # one connection per process
        await wait_for(lambda: "agent_end" in fired(engine), timeout=60)
    assert not marker.exists()  # the command never ran
    assert f"{FINAL_PREFIX}{GUARD_REASON}" in live.said(run)  # the model was told why
    (call,) = relayed(engine, "before_tool_call", command)
    assert call.action == "block" and call.status == "ok"
    assert call.request["event"]["toolName"] == "exec"
    assert call.request["ctx"]["agentId"] == openclaw_cli.AGENT
    assert "abortSignal" not in call.request["ctx"]  # OpenClaw's machinery stays out
    (decision,) = engine.journal.of_type(Decision)
    assert (decision.verdict, decision.by, decision.tool) == ("block", "guard#1", "exec")
    # the call, the guard's run and the decision are in the agent run OpenClaw names (issue 30)
    (guard_run,) = [r for r in engine.journal.of_type(Exchange) if r.hook == "guard#1"]
    assert call.turn == guard_run.turn == decision.turn == call.request["ctx"]["runId"]
    after = [e for e in engine.journal.of_type(Event) if e.kind == "after_tool_call"]
    assert after and after[-1].payload["event"]["error"] == GUARD_REASON
    # every hook of the turn is in the journal, those that decide as exchanges
    assert {"before_model_resolve", "before_prompt_build", "llm_input", "llm_output"} <= fired(
        engine
    )


async def test_params_the_inspector_rewrites_are_what_the_gateway_runs(live: Live) -> None:
    asked = live.folder / "asked-REWRITE-ME"
    rewritten = live.folder / "asked-rewritten"
    command = f"touch {shlex.quote(str(asked))}"
    engine = Engine(load_config(GUARD))
    async with inspector(engine, live.socket):
        await live.turn(command)
    assert rewritten.exists() and not asked.exists()
    (call,) = relayed(engine, "before_tool_call", command)
    assert call.action == "modify"
    assert call.response["result"] == {
        "params": {"command": f"touch {shlex.quote(str(rewritten))}"}
    }


async def test_a_person_allows_the_gateways_exec_in_the_ui(live: Live, tmp_path: Path) -> None:
    marker = live.folder / "allowed-marker"
    command = f"touch {shlex.quote(str(marker))} # ASK-ME"
    engine = Engine(load_config(GUARD))
    session = Session(engine, watch=False, listen=ListenOptions(socket_path=live.socket))
    app = make_app(session, tmp_path / "settings")
    async with running(app) as pilot:
        await wait_for(lambda: app.listener is not None and bool(app.listener.plugin_sessions))
        turn = asyncio.create_task(live.turn(command))
        await opened(pilot, ApprovalScreen, "the approval modal")
        (prompt,) = app.engine.approvals.pending
        assert (prompt.tool, prompt.arguments) == ("exec", {"command": command})
        await pilot.press("a")
        run = await turn
    assert marker.exists()  # OpenClaw ran it: OpenClaw's own approval never came into it
    assert not any("approval" in text.lower() for text in live.said(run))
    (call,) = relayed(app.engine, "before_tool_call", command)
    assert call.action == "continue"


async def test_with_no_inspector_the_gateway_goes_on_and_the_calls_wait_for_one(
    live: Live,
) -> None:
    marker = live.folder / "unwatched-marker"
    command = f"touch {shlex.quote(str(marker))} # BLOCK-ME"  # nobody listens to say no
    run = await live.turn(command)
    assert marker.exists()
    assert not any(GUARD_REASON in text for text in live.said(run))
    engine = Engine(load_config(GUARD))
    async with inspector(engine, live.socket):
        await wait_for(lambda: bool(kept(engine, command)), timeout=60)
    (before,) = kept(engine, command)
    assert before.payload["answered"] is None  # noInspector: continue
    assert [f.code for f in before.findings] == ["openclaw-fired-without-inspector"]
    assert relayed(engine, "before_tool_call", command) == []  # nothing answered it late


def kept(engine: Engine, command: str) -> list[Event]:
    return [
        event
        for event in engine.journal.of_type(Event)
        if event.kind == "before_tool_call"
        and event.payload["event"].get("params", {}).get("command") == command
    ]
