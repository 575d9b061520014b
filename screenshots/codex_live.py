"""The live Codex shot: a real `codex exec` (the tests' cached 0.171.0, driven by the tests' fake
Responses API) whose project hook.inspector's own `install codex` set up, relaying its PreToolUse
to the app; the app's config hook answers `ask`, so the approval prompt is open for the person.

    .venv/bin/python screenshots/codex_live.py   # this shot alone; take.py takes it with the rest
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path

from take import (
    DEADLINE_S,
    OUT,
    ROOT,
    approval_open,
    has_relayed_row,
    settings_dir,
    take_live,
    wait_until,
)
from textual.pilot import Pilot

from inspector.bridge.listener import ListenOptions
from inspector.engine import Engine
from inspector.hosts.codex.install import INSTALLER
from inspector.hosts.installer import Options, Place
from inspector.hosts.load import load_config
from inspector.tui.app import InspectorApp, Session
from inspector.tui.settings import SETTINGS_DIR_ENV

sys.path.insert(0, str(ROOT / "tests" / "real_agents"))
from codex_cli import VERSIONS, install, trust_project
from fake_responses import FakeResponses, Reply, exec_command

ASK_EVERY_BASH = {
    "hooks": {
        "me": {
            "kind": "command",
            "host": "codex",
            "event": "PreToolUse",
            "matcher": "Bash",
            "command": "cat > /dev/null; echo '"
            + json.dumps(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "ask",
                        "permissionDecisionReason": "Bash goes through me",
                    }
                }
            )
            + "'",
        }
    }
}


class LiveCodex:
    """Codex's side of the shot: `install codex` into a project of the shot's folder, then a
    real `codex exec` whose model asks for one shell command; the shot is taken while the
    prompt waits. Closing the app leaves the call unanswered: Codex is told no and ends."""

    config = Path("inspector.yaml")
    socket = Path("relay.sock")

    def __init__(self) -> None:
        self._run: asyncio.Task[object] | None = None

    def session(self) -> Session:
        self.config.write_text(json.dumps(ASK_EVERY_BASH), encoding="utf-8")
        engine = Engine(load_config(self.config))
        listen = ListenOptions(socket_path=self.socket)
        return Session(engine, config_path=self.config, watch=False, listen=listen)

    async def __call__(self, pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, InspectorApp)
        await wait_until(pilot, "the listener", lambda: app.listener is not None)
        home, project = Path("home").absolute(), Path("project").absolute()
        (project / ".codex").mkdir(parents=True)
        trust_project(home, project)
        with _codex_home(home / ".codex"):  # the shot's, never the user's
            INSTALLER.install(
                Place(project=project), Options(events="PreToolUse", socket=self.socket)
            )
        cli = install(VERSIONS[-1])
        script = [Reply(tool_calls=(exec_command("rm -r build", "call_1"),)), Reply("Done.")]

        def play() -> object:
            with FakeResponses(script) as api:
                return cli.run(project, "Clean out the build folder.", api_url=api.url, home=home)

        self._run = asyncio.create_task(asyncio.to_thread(play))
        await approval_open(pilot)
        await wait_until(pilot, "the relayed exchange", lambda: has_relayed_row(app, "codex"))

    async def finished(self) -> None:
        if self._run is not None:
            await asyncio.wait_for(self._run, DEADLINE_S * 4)


@contextlib.contextmanager
def _codex_home(folder: Path):  # type: ignore[no-untyped-def]
    before = os.environ.get("CODEX_HOME")
    os.environ["CODEX_HOME"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            del os.environ["CODEX_HOME"]
        else:
            os.environ["CODEX_HOME"] = before


def main() -> int:
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory(prefix="hook-inspector-shots-") as tmp:
        os.environ[SETTINGS_DIR_ENV] = tmp
        root = Path(tmp)
        svg = asyncio.run(
            take_live("codex-live", LiveCodex(), root, settings_dir(root, "c", "inspector-dark"))
        )
    print(f"wrote {svg.relative_to(OUT.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
