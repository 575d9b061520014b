"""`hook-inspector [CONFIG]`: build the session and run the app."""

from __future__ import annotations

from pathlib import Path

from inspector.config import load_config
from inspector.demo import DEMO_CONFIG, DEMO_SCENARIO
from inspector.engine import Engine
from inspector.tui.app import InspectorApp, Session


def build_session(config_path: Path | None, journal_path: Path | None) -> Session:
    """With no CONFIG the bundled demo opens and plays its scenario at once."""
    config = load_config(config_path or DEMO_CONFIG)
    engine = Engine(config, journal_path=journal_path)
    return Session(
        engine=engine,
        scenario=None if config_path else DEMO_SCENARIO,
        config_path=config_path,
    )


def launch(config_path: Path | None, journal_path: Path | None) -> int:
    app = InspectorApp(build_session(config_path, journal_path))
    return app.run() or 0
