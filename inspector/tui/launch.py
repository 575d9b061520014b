"""`hook-inspector [CONFIG]` and `hook-inspector open FILE`: build the session and run the app."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.bridge.listener import ListenOptions
from inspector.config.model import Config
from inspector.demo import DEMO_CONFIG, DEMO_SCENARIO
from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.journal.opening import Opening
from inspector.journal.private_file import JournalFileError
from inspector.journal.spool import spool_file
from inspector.tui.app import InspectorApp, Session

if TYPE_CHECKING:
    from inspector.otel.exporter import LiveSpans


def build_session(
    config_path: Path | None,
    journal_path: Path | None,
    listen: ListenOptions | None = None,
    *,
    store_on_disk: bool = False,
) -> Session:
    """With no CONFIG the bundled demo opens and plays its scenario at once. With `listen`,
    live agents' relays can connect too. `store_on_disk`: the journal file is the journal's
    store (see Engine)."""
    config = load_config(config_path or DEMO_CONFIG)
    engine = Engine(config, journal_path=journal_path, store_on_disk=store_on_disk)
    return Session(
        engine=engine,
        scenario=None if config_path else DEMO_SCENARIO,
        config_path=config_path,
        listen=listen,
    )


def read_only_session(journal_path: Path) -> Session:
    """A saved journal to look at, its records read back from disk as they are shown: no hooks
    start. One without an index that matches it is shown from its first lines while the rest
    is read (opening.py). Raises JournalLoadError for a file whose first lines are bad."""
    opening = Opening(journal_path)
    engine = Engine(Config(hooks=()), journal=opening.start())
    reading = None if opening.ended.is_set() else opening
    return Session(engine=engine, config_path=journal_path, read_only=True, opening=reading)


def launch(
    config_path: Path | None,
    journal_path: Path | None,
    listen: ListenOptions,
    spans: LiveSpans | None = None,
) -> int:
    """The UI. Its journal file (a private temporary one without --journal) is where records go
    once written, so a session left open for days keeps only the newest in memory. With `spans`
    (--otlp) every record goes to a collector too; what became of them is said on leaving."""
    with spool_file("hook-inspector-") as spool:
        try:
            session = build_session(config_path, journal_path or spool, listen, store_on_disk=True)
        except JournalFileError:
            if journal_path is not None:
                raise
            session = build_session(config_path, None, listen)  # no room: all in memory
        if spans is None:
            return run_app(InspectorApp(session))
        spans.attach(session.engine.journal)
        try:
            return run_app(InspectorApp(session))
        finally:
            print(f"hook-inspector: {spans.close()}", file=sys.stderr)


def open_session(journal_path: Path) -> int:
    return run_app(InspectorApp(read_only_session(journal_path)))


def run_app(app: InspectorApp) -> int:
    """The exit status: 1 when the app crashed (Textual printed the traceback), else 0."""
    app.run()
    return app.return_code or 0
