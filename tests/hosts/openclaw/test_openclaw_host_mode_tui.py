"""An OpenClaw plugin folder opened in the UI: its hooks play a scenario, a requireApproval
opens the approval modal, and saving the plugin reloads it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.records import Decision, Exchange, Reload
from inspector.tui.app import Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.screens.composer import ComposerScreen
from tests.support.paths import EXAMPLES, HOOKS
from tests.support.tui import make_app, opened, running
from tests.support.waiting import wait_for

EXAMPLE = EXAMPLES / "openclaw"
PLUGINS = HOOKS / "openclaw"

if shutil.which("node") is None:
    pytest.skip("node is not installed", allow_module_level=True)


def answered(engine: Engine, hook_name: str) -> list[Exchange]:
    return [
        e for e in engine.journal.exchanges() if e.method == hook_name and e.status != "pending"
    ]


async def test_a_plugin_plays_in_the_ui_and_a_saved_entry_reloads(tmp_path: Path) -> None:
    folder = shutil.copytree(EXAMPLE, tmp_path / "tool-guard")
    engine = Engine(load_config(folder))
    app = make_app(Session(engine, config_path=folder), tmp_path / "settings")
    async with running(app):
        await wait_for(lambda: app.reloader is not None and app.reloader.armed.is_set())
        app.play_scenario(folder / "scenario.yaml")
        await wait_for(lambda: any(d.verdict == "block" for d in engine.journal.of_type(Decision)))
        assert len(answered(engine, "before_tool_call")) == 4  # 3 handlers, then 1 that blocks
        entry = folder / "index.js"
        entry.write_text(entry.read_text().replace("refusing to run", "not on my watch"))
        await wait_for(lambda: any(r.restarted for r in engine.journal.of_type(Reload)))
        [reload] = [r for r in engine.journal.of_type(Reload) if r.restarted]
        assert reload.restarted == ["tool-guard"] and reload.error is None
        app.play_scenario(folder / "scenario.yaml")
        await wait_for(lambda: "not on my watch" in _block_reasons(engine))


async def test_require_approval_opens_the_approval_modal(tmp_path: Path) -> None:
    folder = PLUGINS / "approver"
    engine = Engine(load_config(folder))
    app = make_app(Session(engine, config_path=folder, watch=False), tmp_path / "settings")
    async with running(app) as pilot:
        app.play_scenario(PLUGINS / "scenario.yaml")
        await opened(pilot, ApprovalScreen, "the approval modal", timeout=30)
        await pilot.press("a")
        await wait_for(lambda: bool(engine.journal.of_type(Decision)))
        [decision] = engine.journal.of_type(Decision)
        assert (decision.stage, decision.verdict) == ("before_tool_call", "allow")


async def test_the_composer_sends_a_hook_s_event_to_one_handler(tmp_path: Path) -> None:
    engine = Engine(load_config(PLUGINS / "order"))
    app = make_app(Session(engine, config_path=PLUGINS / "order", watch=False), tmp_path / "s")
    async with running(app) as pilot:
        await wait_for(
            lambda: engine.runtime.plugin is not None and bool(engine.runtime.plugin.registrations)
        )
        await pilot.press("c")
        screen = await opened(pilot, ComposerScreen, "the composer")
        assert '"toolName": "exec"' in screen.query_one("#editor").text  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await wait_for(lambda: bool(answered(engine, "before_tool_call")))
        [sent] = answered(engine, "before_tool_call")
        assert (sent.hook, sent.source, sent.status) == ("order#1", "composer", "ok")


def _block_reasons(engine: Engine) -> str:
    return " ".join(d.reason for d in engine.journal.of_type(Decision) if d.verdict == "block")
