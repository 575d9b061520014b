"""Regenerate the README's screenshots: screenshots/*.svg, and *.png when a converter is present.

    .venv/bin/python scripts/screenshots.py

Each shot runs the bundled demo headless at 160x48 (run_test), waits until the scenario has
finished (or, for the approval, until the prompt is open; for the held request, until the
intercept holds the first tool call), then saves an SVG. PNGs come from
cairosvg when importable (with fonts-firacode installed they match the SVG pixel for pixel), else
from rsvg-convert when it is on PATH, else they are skipped with a note.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import yaml
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from inspector.demo import DEMO_CONFIG, DEMO_SCENARIO, EXAMPLES
from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.tui.app import InspectorApp, Session
from inspector.tui.screens.approval import ApprovalScreen
from inspector.tui.screens.composer import ComposerScreen
from inspector.tui.settings import SETTINGS_DIR_ENV
from inspector.tui.widgets.hooks_panel import HooksPanel
from inspector.tui.widgets.record_list import RecordList

OUT = Path(__file__).resolve().parents[1] / "screenshots"
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
    await app.engine.pipeline.drain_events()


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
        spec["dir"] = str(EXAMPLES)
    hooks["me"] = {"kind": "manual", "priority": 40}
    path = folder / "demo-with-me.yaml"
    path.write_text(yaml.safe_dump({"hooks": hooks}), encoding="utf-8")
    return Session(engine=Engine(load_config(path)), scenario=DEMO_SCENARIO)


async def take(name: str, session: Session, shot: Shot, settings: Path) -> Path:
    app = InspectorApp(session, settings_path=settings)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await shot(pilot)
        await settle(pilot)
        svg = Path(app.save_screenshot(filename=f"{name}.svg", path=str(OUT)))
    print(f"wrote {svg.relative_to(OUT.parent)}")
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
        await take(
            "light",
            demo_session(),
            scenario_finished,
            settings_dir(root, "d", "inspector-light"),
        ),
    ]


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
    with tempfile.TemporaryDirectory(prefix="hook-inspector-shots-") as tmp:
        os.environ[SETTINGS_DIR_ENV] = tmp  # never the user's settings, themes or keymap
        svgs = asyncio.run(take_all(Path(tmp)))
    convert = png_converter()
    if convert is None:
        print(
            "PNGs skipped: no converter. For pixel-faithful PNGs: pip install cairosvg and "
            "apt-get install fonts-firacode libcairo2 (or apt-get install librsvg2-bin).",
            file=sys.stderr,
        )
        return 0
    for svg in svgs:
        png = svg.with_suffix(".png")
        convert(svg, png)
        print(f"wrote {png.relative_to(OUT.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
