"""The live Gemini CLI shot: a real `gemini -p` (the tests' cached 0.61.0, driven by the tests'
fake Gemini API) whose project hook-inspector's own `install gemini` set up, relaying its
BeforeTool to the app; the app's config hook answers `ask`, so the approval prompt is open for
the person.

    .venv/bin/python screenshots/gemini_live.py   # this shot alone; take.py takes it with the rest
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from take import (
    DEADLINE_S,
    ROOT,
    approval_open,
    has_relayed_row,
    listening_session,
    take_alone,
    wait_until,
)
from textual.pilot import Pilot

from inspector.hosts.gemini.install import INSTALLER
from inspector.hosts.installer import Options, Place
from inspector.tui.app import InspectorApp, Session

sys.path.insert(0, str(ROOT / "tests" / "real_agents"))
from fake_gemini import SHELL, FakeGemini, Reply, shell
from gemini_cli import VERSIONS, cache_folder, install

ASK = json.dumps({"decision": "ask", "reason": "shell commands go through me"})
ME = {"kind": "command", "host": "gemini", "event": "BeforeTool", "matcher": SHELL}
ASK_EVERY_SHELL = json.dumps({"hooks": {"me": ME | {"command": f"cat > /dev/null; echo '{ASK}'"}}})


class LiveGemini:
    """Gemini CLI's side of the shot: `install gemini` into a project of the shot's folder, then
    a real `gemini -p` whose model asks for one shell command; the shot is taken while the
    prompt waits. Closing the app leaves the call unanswered: the relay (--quiet) says nothing,
    and Gemini CLI goes on as if the hook were absent."""

    config = Path("inspector.yaml")
    socket = Path("relay.sock")

    def __init__(self) -> None:
        self._run: asyncio.Task[object] | None = None

    def session(self) -> Session:
        return listening_session(self.config, ASK_EVERY_SHELL, self.socket)

    async def __call__(self, pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, InspectorApp)
        await wait_until(pilot, "the listener", lambda: app.listener is not None)
        home, project = Path("home").absolute(), Path("project").absolute()
        (project / "build").mkdir(parents=True)
        options = Options(events="BeforeTool", matcher=SHELL, socket=self.socket)
        INSTALLER.install(Place(project=project), options)
        cli = install(cache_folder(VERSIONS[-1]), VERSIONS[-1])
        script = [Reply(calls=(shell("rm -rf build"),)), Reply("Done.")]

        def play() -> object:
            with FakeGemini(script) as api:
                return cli.run(project, "Clean out the build folder.", api_url=api.url, home=home)

        self._run = asyncio.create_task(asyncio.to_thread(play))
        await approval_open(pilot)
        await wait_until(pilot, "the relayed exchange", lambda: has_relayed_row(app, "gemini"))

    async def finished(self) -> None:
        if self._run is not None:
            await asyncio.wait_for(self._run, DEADLINE_S * 4)


def main() -> int:
    take_alone("gemini-live", LiveGemini())
    return 0


if __name__ == "__main__":
    sys.exit(main())
