"""SVG snapshots of the main screens. No processes run: the session is a journal of hand-made
records with fixed times (shown in UTC), and hook objects that were never started."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static, TabbedContent, TextArea

from inspector.demo import DEMO_CONFIG
from inspector.engine import Engine
from inspector.hooks.approvals import ApprovalPrompt, EarlierAnswer
from inspector.hosts.load import load_config
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.journal.records import (
    Decision,
    Event,
    Exchange,
    Finding,
    Lifecycle,
    Noise,
    Record,
    Stderr,
)
from inspector.tui.app import InspectorApp, Session
from inspector.tui.screens import approval as approval_module
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.screens.composer import ComposeRequest, ComposerScreen
from inspector.tui.settings import SETTINGS_FILE
from inspector.tui.widgets.detail_pane import DetailPane, tab_id
from tests.support.tui import SIZE, exchange_list, make_app, opened, steady, until

T0 = 1_795_340_467.0  # 2026-11-22 09:41:07 UTC
META = {"AgentID": "main", "TurnID": "turn-1", "SessionKey": "agent:main:main"}
BUILD = {"command": "rm -rf ./build", "api_token": "sk-live-1234567890abcdef"}
REDACTED = {"command": "rm -rf ./build", "api_token": "[REDACTED]"}
MONOTONIC_NOW = 5_000.0  # the approval modal's clock, frozen

SnapPilot = Pilot[int]
Snap = Callable[..., bool]


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The lists show local clock times: make local time UTC while a snapshot renders."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# ---- the session -------------------------------------------------------------------------------


def wire(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"meta": META, "tool": tool, "arguments": arguments}


def exchange(
    at: float,
    hook: str,
    method: str,
    params: dict[str, Any],
    result: dict[str, Any],
    *,
    rpc_id: int,
    ms: float,
    action: str | None = None,
    findings: tuple[Finding, ...] = (),
) -> Exchange:
    """A call that was answered, `at` seconds into the session."""
    request = {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params}
    response = {"jsonrpc": "2.0", "id": rpc_id, "result": result}
    hello = method == "hook.hello"
    return Exchange(
        ts=T0 + at,
        hook=hook,
        method=method,
        request=request,
        response=response,
        status="ok",
        duration_ms=ms,
        findings=list(findings),
        source="host" if hello else "scenario",
        turn=None if hello else "turn-1",
        action=action,
        rpc_id=rpc_id,
        raw_request=wire(request),
        raw_response=wire(response),
    )


def event(at: float, kind: str, severity: str = "info", **payload: Any) -> Event:
    envelope = {"id": f"evt-{at:g}", "kind": kind, "payload": payload}
    return Event(
        ts=T0 + at,
        kind=kind,
        severity=severity,
        payload=envelope,
        source="scenario",
        delivered=["event_logger"],
    )


def hello(at: float, hook: str, modes: list[str], ms: float) -> Exchange:
    params = {"name": hook, "version": 1, "modes": modes}
    return exchange(at, hook, "hook.hello", params, {}, rpc_id=1, ms=ms)


UNREAD_KEY = Finding(
    "unknown-result-key",
    "warning",
    'the result has a key PicoClaw does not read: "note"',
    "PicoClaw ignores the key",
)
NOT_JSON = Finding(
    "stdout-not-json",
    "error",
    "a stdout line that is not JSON-RPC",
    "PicoClaw logs the line and skips it",
)


def chosen() -> Exchange:
    """The exchange the detail snapshots show: a modify with a diff, stderr and a finding."""
    result = {"action": "modify", "call": call("exec", REDACTED), "note": "1 secret"}
    return exchange(
        0.330,
        "redactor",
        "hook.before_tool",
        call("exec", BUILD),
        result,
        rpc_id=3,
        ms=2.4,
        action="modify",
        findings=(UNREAD_KEY,),
    )


def records() -> list[Record]:
    weather = call("get_weather", {"city": "Lisbon"})
    disk = call("exec", {"command": "rm -rf /"})
    answer = {"for_llm": "Weather in Lisbon: sunny, 18 C", "is_error": False}
    denied = "review_gate blocked `rm -rf /`: it deletes / or your home"
    timed_out = Exchange(
        ts=T0 + 2.5,
        hook="weather",
        method="hook.after_llm",
        request={"jsonrpc": "2.0", "id": 7, "method": "hook.after_llm", "params": {}},
        status="timeout",
        error="no answer within 5000 ms",
        duration_ms=5000.0,
        source="composer",
        rpc_id=7,
        raw_request='{"jsonrpc":"2.0","id":7,"method":"hook.after_llm","params":{}}',
    )
    return [
        hello(0.000, "redactor", ["tool"], 41.3),
        hello(0.001, "weather", ["tool"], 38.9),
        hello(0.002, "review_gate", ["approve"], 44.0),
        hello(0.003, "event_logger", ["observe"], 40.2),
        event(0.300, "agent.turn.start", UserMessage="What's the weather in Lisbon?"),
        event(0.301, "agent.llm.request", Model="gpt-4o-mini"),
        event(0.302, "agent.llm.response", ToolCalls=2),
        exchange(
            0.310,
            "redactor",
            "hook.before_tool",
            weather,
            {"action": "continue"},
            rpc_id=2,
            ms=0.9,
            action="continue",
        ),
        exchange(
            0.312,
            "weather",
            "hook.before_tool",
            weather,
            {"action": "respond", "result": answer},
            rpc_id=2,
            ms=1.2,
            action="respond",
        ),
        Decision(ts=T0 + 0.314, stage="before_tool", verdict="respond", by="weather"),
        Stderr(ts=T0 + 0.329, hook="redactor", line="checking exec arguments for secrets"),
        chosen(),
        Stderr(ts=T0 + 0.331, hook="redactor", line="redacted api_token in exec arguments"),
        exchange(
            0.334,
            "weather",
            "hook.before_tool",
            call("exec", REDACTED),
            {"action": "continue"},
            rpc_id=3,
            ms=0.4,
            action="continue",
        ),
        exchange(
            0.336,
            "review_gate",
            "hook.approve_tool",
            call("exec", REDACTED),
            {"approved": True},
            rpc_id=2,
            ms=0.7,
            action="approved",
        ),
        event(0.338, "agent.tool.exec_start", Tool="exec"),
        event(0.340, "agent.tool.exec_end", Tool="exec"),
        Noise(
            ts=T0 + 0.341,
            hook="weather",
            line="debug: cache miss for Lisbon",
            size=28,
            findings=[NOT_JSON],
        ),
        exchange(
            0.350,
            "review_gate",
            "hook.approve_tool",
            disk,
            {"approved": False, "reason": denied},
            rpc_id=3,
            ms=0.6,
            action="denied",
        ),
        event(0.352, "agent.tool.exec_skipped", "warn", Tool="exec", Reason=denied),
        event(0.360, "agent.turn.end", Status="completed"),
        timed_out,
    ]


def still_session() -> Session:
    """The demo's hooks, never started: the journal says they are ready (after the traffic, so
    the records shown keep their numbers)."""
    engine = Engine(load_config(DEMO_CONFIG))
    for record in records():
        engine.journal.append(record)
    for pid, spec in enumerate(engine.config.hooks, start=4101):
        engine.journal.append(Lifecycle(ts=T0 + 0.4, hook=spec.name, state="ready", pid=pid))
        engine.runtime.hooks[spec.name] = ProcessHook(spec, engine.journal, engine.config.defaults)
    return Session(engine, read_only=True)


def still_app(settings: Path) -> InspectorApp:
    return make_app(still_session(), settings)


# ---- driving ----------------------------------------------------------------------------------


def tab_text(app: InspectorApp, tab: str) -> str:
    body = app.query_one(f"#{tab_id(tab)}").query_one("TextArea, Static")
    if isinstance(body, TextArea):
        return body.text
    assert isinstance(body, Static)
    return str(body.render())


async def settle(pilot: SnapPilot) -> None:
    """The lists have taken in the journal and the Request tab shows the highlighted exchange."""
    app = pilot.app
    assert isinstance(app, InspectorApp)

    def request_shown() -> bool:
        record = exchange_list(app).highlighted_record
        text = tab_text(app, "request")  # "Nothing selected." until the pane has caught up
        shown = json.loads(text) if text.startswith("{") else None
        return isinstance(record, Exchange) and shown == record.request

    await until(pilot, request_shown, what="the highlighted request in the detail pane")
    steady(app.screen)


async def highlight_chosen(pilot: SnapPilot) -> None:
    await settle(pilot)
    app = pilot.app
    assert isinstance(app, InspectorApp)
    rows = exchange_list(app).rows
    row = next(i for i, r in enumerate(rows) if isinstance(r, Exchange) and r.action == "modify")
    await pilot.click(exchange_list(app), offset=(2, row + 1))  # + the header line
    await settle(pilot)
    # The tab labels count its stderr lines and findings; clicks on tabs need them in place.
    tabs = app.query_one(DetailPane).query_one(TabbedContent)
    await until(
        pilot,
        lambda: tabs.get_tab(tab_id("findings")).label_text == "Findings (1)",
        what="the tab labels counted",
    )


TAB_SHOWS = {
    "request": '"sk-live-1234567890abcdef"',
    "response": '"[REDACTED]"',
    "diff": "+++ result.call",
    "raw": "→ request",
    "stderr": "redacted api_token in exec arguments",
    "findings": "unknown-result-key",
}


def open_tab(tab: str) -> Callable[[SnapPilot], Awaitable[None]]:
    async def run_before(pilot: SnapPilot) -> None:
        await highlight_chosen(pilot)
        app = pilot.app
        assert isinstance(app, InspectorApp)
        await pilot.click(f"#--content-tab-{tab_id(tab)}")
        await until(pilot, lambda: TAB_SHOWS[tab] in tab_text(app, tab), what=f"the {tab} tab")
        steady(app.screen)

    return run_before


# ---- snapshots ---------------------------------------------------------------------------------


def test_main_screen(snap_compare: Snap, tmp_path: Path) -> None:
    assert snap_compare(still_app(tmp_path), terminal_size=SIZE, run_before=settle)


@pytest.mark.parametrize("size", [(100, 30), (60, 20)], ids=["100x30", "60x20"])
def test_main_screen_small(snap_compare: Snap, tmp_path: Path, size: tuple[int, int]) -> None:
    """The panes stack, the hooks panel and event stream shrink, the hook column stays."""
    assert snap_compare(still_app(tmp_path), terminal_size=size, run_before=settle)


def test_main_screen_light_theme(snap_compare: Snap, tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text("theme: inspector-light\n")
    assert snap_compare(still_app(tmp_path), terminal_size=SIZE, run_before=settle)


@pytest.mark.parametrize("tab", list(TAB_SHOWS))
def test_detail_tab(snap_compare: Snap, tmp_path: Path, tab: str) -> None:
    assert snap_compare(still_app(tmp_path), terminal_size=SIZE, run_before=open_tab(tab))


def test_composer_resending_an_exchange(snap_compare: Snap, tmp_path: Path) -> None:
    # A saved session refuses `e`, so the composer is opened as `e` opens it in a live one.
    async def run_before(pilot: SnapPilot) -> None:
        await settle(pilot)
        app = pilot.app
        assert isinstance(app, InspectorApp)
        params = call("exec", BUILD)
        request = ComposeRequest("redactor", "hook.before_tool", params, original=params)
        await app.push_screen(ComposerScreen(app.engine.runtime.composer(), initial=request))
        steady(app.screen)

    assert snap_compare(still_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_approval_modal(
    snap_compare: Snap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The modal counts down against time.monotonic() and takes no clock: freeze its module's.
    monkeypatch.setattr(approval_module, "time", SimpleNamespace(monotonic=lambda: MONOTONIC_NOW))
    app = still_app(tmp_path)

    async def run_before(pilot: SnapPilot) -> None:
        await settle(pilot)
        app.engine.approvals.request(
            ApprovalPrompt(
                id="p1",
                exchange=12,
                hook="me",
                tool="exec",
                arguments=BUILD,
                agent_id="main",
                session_key="agent:main:main",
                turn_id="turn-1",
                earlier=(EarlierAnswer("review_gate", "approved"),),
                severity="high",
                deadline=MONOTONIC_NOW + 42,
                timeout_s=60.0,
                on_timeout="deny",
            )
        )
        modal = await opened(pilot, ApprovalScreen, "the modal")
        await until(pilot, lambda: "42 s left" in str(modal.query_one("#countdown").render()))
        steady(app.screen)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
