"""Regenerate the README's screenshots: screenshots/*.svg, and *.png when a converter is present.

    .venv/bin/python screenshots/take.py

Each shot runs the app headless at 160x48 (run_test) and saves an SVG once it shows what it is
for. Most run the bundled demo and wait until its scenario has finished (or, for the approval,
until the prompt is open; for the held request, until the intercept holds the first tool call).
Two show the other hosts: a PreToolUse recorded from the real Claude Code CLI, handed to the app's
listener by a real `hook-inspector relay --host claude` process, with the approval prompt it
opened; the OpenClaw example plugin (inspector/examples/openclaw, run by node) after
its scenario, filtered to its before_tool_call chain; and a live OpenClaw turn handed to the app
by hook-inspector's own bridge plugin (in a Node process, called as the Gateway calls it), with
the example's requireApproval open in the prompt; and a real `codex exec` relaying its
PreToolUse through what `install codex` wrote (codex_live.py), and a real `gemini -p` relaying
its BeforeTool through what `install gemini` wrote (gemini_live.py). PNGs come from
cairosvg when importable (with fonts-firacode installed they match the SVG pixel for pixel), else
from rsvg-convert when it is on PATH, else they are skipped with a note.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import yaml
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from inspector.bridge.listener import ListenOptions
from inspector.demo import DEMO_CONFIG, DEMO_FOLDER, DEMO_SCENARIO, EXAMPLES
from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.hosts.openclaw import BRIDGE_PLUGIN_FOLDER
from inspector.hosts.openclaw.config import read_plugin
from inspector.hosts.openclaw.node_harness import Harness
from inspector.journal.journal import Journal
from inspector.relay.command_wire import INSIDE_INSPECTOR
from inspector.tui.app import InspectorApp, Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.screens.composer import ComposerScreen
from inspector.tui.settings import SETTINGS_DIR_ENV
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.hooks_panel import HooksPanel
from inspector.tui.widgets.record_list import RecordList

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "screenshots"
SIZE = (160, 48)
DEADLINE_S = 30.0

Shot = Callable[[Pilot[int]], Awaitable[None]]


async def wait_until(pilot: Pilot[int], what: str, condition: Callable[[], bool]) -> None:
    deadline = asyncio.get_running_loop().time() + DEADLINE_S
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise SystemExit(f"screenshots: timed out waiting for {what}")
        await pilot.pause(0.05)


async def settle(pilot: Pilot[int]) -> None:
    """Every record and counter on screen, and no blinking cursor."""
    app = pilot.app
    main_screen = app.screen_stack[0]
    for record_list in main_screen.query(RecordList):
        record_list.flush()
    main_screen.query_one(HooksPanel).refresh_rows()
    for field in [*app.screen.query(TextArea), *app.screen.query(Input)]:
        field.cursor_blink = False
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def scenario_finished(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, InspectorApp)
    engine_workers = [worker for worker in app.workers if worker.group == "engine"]
    await asyncio.gather(*(worker.wait() for worker in engine_workers))
    await app.engine.runtime.settle()


async def composer_open(pilot: Pilot[int]) -> None:
    await scenario_finished(pilot)
    await settle(pilot)  # so the highlighted exchange is the last one
    await pilot.press("e")  # edit the highlighted exchange: the last approval
    await wait_until(pilot, "the composer", lambda: isinstance(pilot.app.screen, ComposerScreen))


async def approval_open(pilot: Pilot[int]) -> None:
    await wait_until(pilot, "the approval", lambda: isinstance(pilot.app.screen, ApprovalScreen))


def demo_session() -> Session:
    engine = Engine(load_config(DEMO_CONFIG))
    return Session(engine=engine, scenario=DEMO_SCENARIO)


HELD = "method:before_tool"


def held_session() -> Session:
    """The demo with an intercept on: its first tool call waits at the stage's entry."""
    session = demo_session()
    session.engine.set_intercept(HELD)
    return session


async def request_held(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, InspectorApp)
    app.query_one("#intercept", Input).value = HELD  # as if typed: the field shows what holds
    await wait_until(pilot, "a held call", lambda: bool(app.engine.held))


def demo_with_me_session(folder: Path) -> Session:
    """The demo plus a person (`me`) in the approval chain after review_gate."""
    hooks = yaml.safe_load(DEMO_CONFIG.read_text(encoding="utf-8"))["hooks"]
    for spec in hooks.values():
        spec["dir"] = str(DEMO_FOLDER)
    hooks["me"] = {"kind": "manual", "priority": 40}
    path = folder / "demo-with-me.yaml"
    path.write_text(yaml.safe_dump({"hooks": hooks}), encoding="utf-8")
    return Session(engine=Engine(load_config(path)), scenario=DEMO_SCENARIO)


CLAUDE_CALLS = ROOT / "tests" / "real_agents" / "data" / "claude-code-2.1.197" / "hook-calls.json"
# Fixed stand-ins for the values the recording replaced, so every run shows the same text.
CLAUDE_STAND_INS = {
    "<session_id>": "6d3c1f0e-8b2a-4c57-9e41-2f7a5b0c9d18",
    "<prompt_id>": "a41e9b72-5c03-4d8e-b6f1-0e27c4d9a853",
    "<project-slug>": "-home-me-project",
    "<project>": "/home/me/project",
    "<home>": "/home/me",
}
ASK_EVERY_BASH = """\
hooks:
  me:
    kind: command
    host: claude
    event: PreToolUse
    matcher: Bash
    command: >-
      echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse",
      "permissionDecision": "ask", "permissionDecisionReason": "Bash goes through me"}}'
"""


def recorded_pre_tool_use() -> str:
    """The first PreToolUse Claude Code sent in the recorded session, as its stdin line."""
    recording = json.loads(CLAUDE_CALLS.read_text(encoding="utf-8"))
    call = next(call for call in recording["calls"] if call["event"] == "PreToolUse")
    line = json.dumps(call["payload"], separators=(",", ":"))
    for placeholder, value in CLAUDE_STAND_INS.items():
        line = line.replace(placeholder, value)
    return line + "\n"


class RelayedPreToolUse:
    """Claude Code's side of the shot: the command relay, run as Claude Code runs it, hands the
    recorded PreToolUse to the app's listener; the shot is taken while the prompt waits."""

    # Relative to the shot's working folder, so the status line shows the same paths every run.
    config = Path("inspector.yaml")
    socket = Path("relay.sock")

    def __init__(self) -> None:
        self._relay: asyncio.subprocess.Process | None = None

    def session(self) -> Session:
        return listening_session(self.config, ASK_EVERY_BASH, self.socket)

    async def __call__(self, pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, InspectorApp)
        await wait_until(pilot, "the listener", lambda: app.listener is not None)
        environ = {key: value for key, value in os.environ.items() if key != INSIDE_INSPECTOR}
        environ.update(CLAUDE_PROJECT_DIR=CLAUDE_STAND_INS["<project>"], CLAUDECODE="1")
        environ["CLAUDE_CODE_SESSION_ID"] = CLAUDE_STAND_INS["<session_id>"]
        self._relay = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "inspector", "relay", "--host", "claude"),
            *("--socket", str(self.socket), "--timeout", "600"),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            env=environ,
        )
        assert self._relay.stdin is not None
        self._relay.stdin.write(recorded_pre_tool_use().encode())
        self._relay.stdin.close()
        await approval_open(pilot)
        await wait_until(pilot, "the relayed exchange", lambda: has_relayed_row(app))

    async def finished(self) -> None:
        """The relay ends once the app has closed its listener."""
        if self._relay is not None:
            await asyncio.wait_for(self._relay.wait(), DEADLINE_S)


def listening_session(config: Path, hooks: str, socket: Path) -> Session:
    """The app on `hooks` (written to `config`), listening for relays at `socket`."""
    config.write_text(hooks, encoding="utf-8")
    engine = Engine(load_config(config))
    listen = ListenOptions(socket_path=socket)
    return Session(engine, config_path=config, watch=False, listen=listen)


def has_relayed_row(app: InspectorApp, relay: str = "claude") -> bool:
    exchanges = app.screen_stack[0].query_one(ExchangeList)
    exchanges.flush()
    return any(getattr(row, "source", "") == f"relay:{relay}" for row in exchanges.rows)


OPENCLAW_PLUGIN = EXAMPLES / "openclaw"
CHAIN = "method:before_tool_call"


def openclaw_session() -> Session:
    """As `hook-inspector inspector/examples/openclaw` opens it, scenario played."""
    plugin = OPENCLAW_PLUGIN.relative_to(ROOT)  # the status line shows it as typed
    engine = Engine(load_config(OPENCLAW_PLUGIN))
    return Session(engine, scenario=OPENCLAW_PLUGIN / "scenario.yaml", config_path=plugin)


async def openclaw_chain(pilot: Pilot[int]) -> None:
    """The scenario played, then only its before_tool_call exchanges: each handler in turn."""
    app = pilot.app
    assert isinstance(app, InspectorApp)
    await wait_until(
        pilot, "the watcher", lambda: bool(app.reloader and app.reloader.armed.is_set())
    )
    await scenario_finished(pilot)
    app.query_one("#filter", Input).value = CHAIN  # as if typed


# One turn of a live Gateway as OpenClaw 2026.9.6 fires it (the shapes of
# tests/real_agents/test_openclaw_relayed.py), with stand-in ids.
RUN = {"runId": "7c1e2f40-5b9d-4c3e-9a61-0f2d8e4b6a17"}
CTX = {
    "agentId": "main",
    "sessionKey": "agent:main:explicit:3f6a9c2e-81d4-4b7f-a5e0-c29d17b84f63",
    "sessionId": "3f6a9c2e-81d4-4b7f-a5e0-c29d17b84f63",
    **RUN,
}
LIVE_TURN: tuple[tuple[str, dict[str, Any], dict[str, Any]], ...] = (
    ("before_model_resolve", {"prompt": "Clean up the build folder, then look up the fix."}, CTX),
    ("before_prompt_build", {"prompt": "Clean up the build folder, then look up the fix."}, CTX),
    ("llm_input", {**RUN, "provider": "fake", "model": "fake-model-1", "imagesCount": 0}, CTX),
    (
        "before_tool_call",
        {"toolName": "exec", "params": {"command": "rm -rf /"}, **RUN, "toolCallId": "call_1"},
        {**CTX, "toolName": "exec", "toolCallId": "call_1"},
    ),
    (
        "after_tool_call",
        {
            "toolName": "exec",
            "params": {"command": "rm -rf /"},
            **RUN,
            "toolCallId": "call_1",
            "error": "refusing to run: rm -rf /",
            "durationMs": 0,
        },
        {**CTX, "toolName": "exec", "toolCallId": "call_1"},
    ),
    (
        "before_tool_call",
        {
            "toolName": "web_search",
            "params": {"query": "ENOSPC during npm install"},
            **RUN,
            "toolCallId": "call_2",
        },
        {**CTX, "toolName": "web_search", "toolCallId": "call_2"},
    ),
)


class LiveGateway:
    """OpenClaw's side of the shot: hook-inspector's bridge plugin, loaded in a Node process
    (the host-mode harness calls its handlers as the Gateway does), hands one turn's hooks to
    the app, whose config is the tool-guard example; the shot is taken while its
    requireApproval for web_search waits in the prompt."""

    socket = Path("relay.sock")

    def __init__(self) -> None:
        self._harness: Harness | None = None
        self._calls: list[asyncio.Task[Any]] = []

    def session(self) -> Session:
        plugin = OPENCLAW_PLUGIN.relative_to(ROOT)
        engine = Engine(load_config(OPENCLAW_PLUGIN))
        listen = ListenOptions(socket_path=self.socket)
        return Session(engine, config_path=plugin, watch=False, listen=listen)

    async def __call__(self, pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, InspectorApp)
        await wait_until(pilot, "the listener", lambda: app.listener is not None)
        bridge = replace(
            read_plugin(BRIDGE_PLUGIN_FOLDER),
            config={"socket": str(self.socket.absolute()), "timeoutMs": 600_000},
        )
        self._harness = Harness(bridge, Journal())
        await self._harness.start()
        handlers = {r.hook_name: r for r in self._harness.registrations if r.mode == "discovery"}
        for hook, event, ctx in LIVE_TURN:
            call = self._harness.call(handlers[hook].index, event, ctx, 600_000)
            self._calls.append(asyncio.create_task(call))
            if hook != "before_tool_call" or event["toolName"] != "web_search":
                await self._calls[-1]  # in turn, as the Gateway fires them
        await approval_open(pilot)
        await wait_until(pilot, "the relayed exchanges", lambda: has_relayed_row(app, "openclaw"))

    async def finished(self) -> None:
        """The waiting call ends once the app has closed its listener."""
        await asyncio.wait_for(asyncio.gather(*self._calls), DEADLINE_S)
        if self._harness is not None:
            await self._harness.stop()


async def take(name: str, session: Session, shot: Shot, settings: Path) -> Path:
    app = InspectorApp(session, settings_path=settings)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await shot(pilot)
        await settle(pilot)
        svg = Path(app.save_screenshot(filename=f"{name}.svg", path=str(OUT)))
    print(f"wrote {svg.relative_to(OUT.parent)}")
    return svg


class LiveShot(Protocol):
    """A shot with a live agent's side: the session it opens, the steps, and the agent's end."""

    def session(self) -> Session: ...

    async def __call__(self, pilot: Pilot[int]) -> None: ...

    async def finished(self) -> None: ...


async def take_live(name: str, shot: LiveShot, root: Path, settings: Path) -> Path:
    """A shot run in a private folder of its own, where its socket is; the agent's side ends
    once the app has closed its listener."""
    folder = root / name
    folder.mkdir(mode=0o700)
    with contextlib.chdir(folder):
        svg = await take(name, shot.session(), shot, settings)
        await shot.finished()
    return svg


def settings_dir(root: Path, name: str, theme: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "settings.yaml").write_text(f"theme: {theme}\n", encoding="utf-8")
    return folder


async def take_all(root: Path) -> list[Path]:
    dark = "inspector-dark"
    return [
        await take("main", demo_session(), scenario_finished, settings_dir(root, "a", dark)),
        await take("composer", demo_session(), composer_open, settings_dir(root, "b", dark)),
        await take(
            "approval", demo_with_me_session(root), approval_open, settings_dir(root, "c", dark)
        ),
        await take("held", held_session(), request_held, settings_dir(root, "e", dark)),
        await take_live(
            "claude-approval", RelayedPreToolUse(), root, settings_dir(root, "f", dark)
        ),
        await take("openclaw", openclaw_session(), openclaw_chain, settings_dir(root, "g", dark)),
        await take_live("openclaw-live", LiveGateway(), root, settings_dir(root, "h", dark)),
        await take_live("codex-live", live_codex(), root, settings_dir(root, "i", dark)),
        await take_live("gemini-live", live_gemini(), root, settings_dir(root, "j", dark)),
        await take(
            "light",
            demo_session(),
            scenario_finished,
            settings_dir(root, "d", "inspector-light"),
        ),
    ]


def live_codex() -> LiveShot:
    """The live Codex shot (codex_live.py), which needs the tests' real Codex kit."""
    from codex_live import LiveCodex

    return LiveCodex()


def live_gemini() -> LiveShot:
    """The live Gemini CLI shot (gemini_live.py), which needs the tests' real Gemini CLI kit."""
    from gemini_live import LiveGemini

    return LiveGemini()


def png_converter() -> Callable[[Path, Path], None] | None:
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError):  # OSError: the package is there but libcairo2 is not
        cairosvg = None
    if cairosvg is not None:
        return lambda svg, png: cairosvg.svg2png(url=str(svg), write_to=str(png))
    rsvg = shutil.which("rsvg-convert")
    if rsvg is not None:
        return lambda svg, png: subprocess.run([rsvg, str(svg), "-o", str(png)], check=True)
    return None


def main() -> int:
    OUT.mkdir(exist_ok=True)
    os.chdir(ROOT)  # paths on screen are relative to the checkout, wherever it is
    with tempfile.TemporaryDirectory(prefix="hook-inspector-shots-") as tmp:
        os.environ[SETTINGS_DIR_ENV] = tmp  # never the user's settings, themes or keymap
        svgs = asyncio.run(take_all(Path(tmp)))
    write_pngs(svgs)
    return 0


def take_alone(name: str, shot: LiveShot) -> None:
    """One live shot, as take_all takes it, and its PNG: for a shot's own script."""
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory(prefix="hook-inspector-shots-") as tmp:
        os.environ[SETTINGS_DIR_ENV] = tmp
        root = Path(tmp)
        svg = asyncio.run(take_live(name, shot, root, settings_dir(root, "a", "inspector-dark")))
    write_pngs([svg])


def write_pngs(svgs: list[Path]) -> None:
    convert = png_converter()
    if convert is None:
        print(
            "PNGs skipped: no converter. For pixel-faithful PNGs: pip install cairosvg and "
            "apt-get install fonts-firacode libcairo2 (or apt-get install librsvg2-bin).",
            file=sys.stderr,
        )
        return
    for svg in svgs:
        png = svg.with_suffix(".png")
        convert(svg, png)
        print(f"wrote {png.relative_to(OUT.parent)}")


if __name__ == "__main__":
    sys.exit(main())
