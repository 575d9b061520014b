"""The shell line "copy as shell" gives for a command hook's run replays it: the same stdin into
the same command, through the hook's shell, in its folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

from inspector.engine import Engine
from inspector.hosts.load import load_config
from tests.drivers.test_check_hosts import claude_project, command


async def test_the_one_liner_of_a_command_hooks_run_gives_it_the_same_stdin(
    tmp_path: Path,
) -> None:
    # the hook writes its stdin and its folder to a file, so the replay can be compared with it
    seen = tmp_path / "seen.txt"
    project = claude_project(tmp_path, {"Stop": [command(f"{{ cat; pwd; }} > {seen}")]})
    async with Engine(load_config(project)) as engine:
        context = engine.runtime.composer().template("Stop")
        exchange = await engine.send_to_hook(engine.runtime.hook_names()[0], "Stop", context)
        line = engine.runtime.one_liner(exchange)
    ran = seen.read_text()
    seen.unlink()
    assert line is not None
    subprocess.run(["sh", "-c", line], check=True, timeout=30)
    assert seen.read_text() == ran
    assert ran.startswith(exchange.raw_request or "-")
