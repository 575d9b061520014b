"""Hot reload: from the write of a changed hook script to the new process having answered
`hook.hello`, against the hook's own start-up (spawn and hello) measured in the same run.
The difference is what watching, debouncing, diffing and swapping add."""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from inspector.config.model import Defaults, HookSpec
from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.journal.journal import Journal
from inspector.journal.records import Record, Reload
from inspector.reload.watcher import Reloader

from . import Row, row

ECHO_HOOK = Path(__file__).with_name("echo_hook.py")
TARGET_OVERHEAD_MS = 300.0


async def start_up_ms(script: Path) -> float:
    spec = HookSpec(name="h", command=(sys.executable, str(script)), intercept=("before_tool",))
    hook = ProcessHook(spec, Journal(), Defaults(), restart=False)
    started = time.perf_counter()
    await hook.start()
    elapsed = (time.perf_counter() - started) * 1000
    await hook.stop()
    return elapsed


async def reload_ms(engine: Engine, script: Path, version: int) -> float:
    seen = asyncio.get_running_loop().create_future()

    def on_record(record: Record, new: bool) -> None:
        if isinstance(record, Reload) and record.restarted and not seen.done():
            seen.set_result(time.perf_counter())

    unsubscribe = engine.journal.subscribe(on_record)
    written = time.perf_counter()
    script.write_text(ECHO_HOOK.read_text() + f"\n# version {version}\n")
    try:
        return (await asyncio.wait_for(seen, 30) - written) * 1000
    finally:
        unsubscribe()


async def measure(rounds: int) -> tuple[list[float], list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "hook.py"
        script.write_text(ECHO_HOOK.read_text())
        config = Path(folder) / "hooks.yaml"
        command = f"[{sys.executable}, hook.py]"
        config.write_text(f"hooks:\n  h:\n    command: {command}\n    intercept: [before_tool]\n")
        startups, reloads = [], []
        async with Engine(load_config(config)) as engine:
            reloader = Reloader(engine, config)
            watching = asyncio.create_task(reloader.watch())
            await reloader.armed.wait()
            try:
                for version in range(rounds):  # interleaved, so load hits both alike
                    startups.append(await start_up_ms(script))
                    reloads.append(await reload_ms(engine, script, version))
            finally:
                watching.cancel()
        return startups, reloads


def run(quick: bool) -> list[Row]:
    startups, reloads = asyncio.run(measure(5 if quick else 30))
    startup = statistics.median(startups)
    total = statistics.median(reloads)
    overhead = statistics.median(r - s for r, s in zip(reloads, startups, strict=True))
    verdict = "met" if overhead < TARGET_OVERHEAD_MS else "missed"
    return [
        row(
            "reload: script write to new hello answered, median ms",
            startup,
            total,
            None,
            f"baseline = the hook's own start-up; reload adds {overhead:.0f} ms "
            f"(target < {TARGET_OVERHEAD_MS:.0f} ms: {verdict})",
            limit=startup + TARGET_OVERHEAD_MS,
        )
    ]
