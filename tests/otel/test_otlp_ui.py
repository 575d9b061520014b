"""`hook-inspector --otlp URL` (the UI): the demo the UI plays arrives at the collector, and on
leaving one line says what became of the spans (the UI owns the terminal until then)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.journal.records import Event
from inspector.tui.app import InspectorApp
from inspector.tui.settings import SETTINGS_DIR_ENV
from tests.support.bridge_client import short_socket_path
from tests.support.otlp_receiver import otlp_receiver
from tests.support.tui import SIZE, until


def _play_the_demo_headless(app: InspectorApp) -> int:
    def ended() -> bool:
        records = app.engine.journal.records
        return any(isinstance(r, Event) and r.kind == "agent.turn.end" for r in records)

    async def play() -> int:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, ended, timeout=60, what="the demo's turn ended")
        return 0

    return asyncio.run(play())


def test_the_ui_sends_the_demo_and_says_so_on_leaving(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv(SETTINGS_DIR_ENV, str(tmp_path))
    monkeypatch.setattr("inspector.tui.launch.run_app", _play_the_demo_headless)
    with short_socket_path() as socket, otlp_receiver() as (url, received):
        assert main(["--otlp", url, "--socket", str(socket)]) == 0
    said = capsys.readouterr().err
    assert f"hook-inspector: {received.count()} span(s) sent to {url}/v1/traces" in said
    assert any(s.name == "turn turn-1" for s in received.spans)
    assert any(s.attributes.get("rpc.method") == "hook.approve_tool" for s in received.spans)
