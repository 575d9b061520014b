"""Hot reload with real editors' save patterns on a real running pipeline."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yaml

from inspector.engine import Engine
from inspector.hosts.load import load_config
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.journal.records import Reload
from inspector.reload.watcher import Reloader
from tests.support.waiting import wait_for

HOOK_SOURCE = """\
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    result = {} if message["method"] == "hook.hello" else {"action": "continue", "reason": VERSION}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
"""


def hook_script(version: str) -> str:
    return f"VERSION = {version!r}\n" + HOOK_SOURCE


def config_text(*names: str, priority: int = 0) -> str:
    hooks = {
        name: {
            "command": [sys.executable, f"{name}.py"],
            "intercept": ["before_tool"],
            "priority": priority,
        }
        for name in names
    }
    return yaml.safe_dump({"hooks": hooks})


class Workspace:
    def __init__(self, root: Path, engine: Engine, reloader: Reloader) -> None:
        self.root = root
        self.engine = engine
        self.reloader = reloader

    @property
    def reloads(self) -> list[Reload]:
        return list(self.engine.journal.of_type(Reload))

    def pid(self, name: str) -> int | None:
        hook = self.engine.runtime.hooks[name]
        assert isinstance(hook, ProcessHook)
        return hook.pid

    async def answer(self, name: str) -> str:
        exchange = await self.engine.send_to_hook(name, "hook.before_tool", {"tool": "t"})
        assert exchange.response is not None, exchange.error
        return str(exchange.response["result"]["reason"])

    async def next_reload(self, count: int) -> Reload:
        await wait_for(lambda: len(self.reloads) >= count)
        return self.reloads[count - 1]


@pytest.fixture
async def workspace(tmp_path: Path) -> AsyncIterator[Workspace]:
    for name in ("alpha", "beta"):
        (tmp_path / f"{name}.py").write_text(hook_script(f"{name}-v1"))
    (tmp_path / "notes.txt").write_text("not referenced")
    config_path = tmp_path / "hooks.yaml"
    config_path.write_text(config_text("alpha", "beta"))
    engine = Engine(load_config(config_path))
    await engine.start()
    reloader = Reloader(engine, config_path)
    watching = asyncio.create_task(reloader.watch())
    await asyncio.wait_for(reloader.armed.wait(), 10)
    try:
        yield Workspace(tmp_path, engine, reloader)
    finally:
        watching.cancel()
        await engine.stop()


async def test_saving_a_script_restarts_only_its_hook(workspace: Workspace) -> None:
    beta_pid = workspace.pid("beta")
    assert await workspace.answer("alpha") == "alpha-v1"
    (workspace.root / "alpha.py").write_text(hook_script("alpha-v2"))
    reload = await workspace.next_reload(1)
    assert (reload.restarted, reload.unchanged, reload.error) == (["alpha"], ["beta"], None)
    assert str(workspace.root / "alpha.py") in reload.files
    assert await workspace.answer("alpha") == "alpha-v2"
    assert workspace.pid("beta") == beta_pid


async def test_a_broken_config_changes_nothing_and_the_next_good_save_applies(
    workspace: Workspace,
) -> None:
    pids = {name: workspace.pid(name) for name in ("alpha", "beta")}
    config = workspace.root / "hooks.yaml"
    config.write_text("hooks:\n  alpha:\n    command: [python3, alpha.py]\n    prority: 1\n")
    failed = await workspace.next_reload(1)
    assert failed.error is not None and "hooks.yaml:4" in failed.error and "prority" in failed.error
    assert {name: workspace.pid(name) for name in ("alpha", "beta")} == pids
    assert await workspace.answer("beta") == "beta-v1"
    config.write_text(config_text("alpha", "beta", priority=5))
    applied = await workspace.next_reload(2)
    assert applied.error is None and sorted(applied.restarted) == ["alpha", "beta"]


async def test_added_hooks_start_and_removed_hooks_stop(workspace: Workspace) -> None:
    (workspace.root / "gamma.py").write_text(hook_script("gamma-v1"))
    beta = workspace.engine.runtime.hooks["beta"]
    (workspace.root / "hooks.yaml").write_text(config_text("alpha", "gamma"))
    reload = await workspace.next_reload(1)
    assert (reload.added, reload.removed, reload.unchanged) == (["gamma"], ["beta"], ["alpha"])
    assert await workspace.answer("gamma") == "gamma-v1"
    await wait_for(lambda: getattr(beta, "state", "") == "stopped")


def save_by_rename(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.swp~")
    temporary.write_text(text)
    os.replace(temporary, path)


def truncate_then_write(path: Path, text: str) -> None:
    with path.open("r+") as handle:
        handle.truncate(0)
        handle.flush()
        handle.write(text)


def delete_then_recreate(path: Path, text: str) -> None:
    path.unlink()
    path.write_text(text)


@pytest.mark.parametrize("save", [save_by_rename, truncate_then_write, delete_then_recreate])
async def test_editors_save_patterns_are_seen(workspace: Workspace, save) -> None:  # type: ignore[no-untyped-def]
    save(workspace.root / "alpha.py", hook_script("alpha-v3"))
    await wait_for(lambda: any(r.restarted == ["alpha"] for r in workspace.reloads))
    assert await workspace.answer("alpha") == "alpha-v3"
    assert all(r.error is None for r in workspace.reloads)


async def test_a_change_to_an_unreferenced_file_is_ignored(workspace: Workspace) -> None:
    (workspace.root / "notes.txt").write_text("changed")
    (workspace.root / "alpha.py").write_text(hook_script("alpha-v4"))  # a change that does count
    await workspace.next_reload(1)
    assert len(workspace.reloads) == 1
    assert workspace.reloads[0].files == [str(workspace.root / "alpha.py")]


async def test_paused_watching_reloads_nothing_until_asked(workspace: Workspace) -> None:
    workspace.reloader.pause()
    (workspace.root / "alpha.py").write_text(hook_script("alpha-v5"))
    by_hand = await workspace.reloader.reload(trigger="hand")
    assert by_hand is not None and by_hand.trigger == "hand" and by_hand.restarted == ["alpha"]
    assert await workspace.answer("alpha") == "alpha-v5"
    assert len(workspace.reloads) == 1


async def test_a_call_in_flight_finishes_on_the_old_process(tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import time\nVERSION = 'old'\n"
        + HOOK_SOURCE.replace(
            "result = {}",
            "time.sleep(0.5 if message['method'] != 'hook.hello' else 0)\n    result = {}",
        )
    )
    config_path = tmp_path / "hooks.yaml"
    config_path.write_text(config_text("slow"))
    async with Engine(load_config(config_path)) as engine:
        reloader = Reloader(engine, config_path)
        in_flight = asyncio.create_task(engine.send_to_hook("slow", "hook.before_tool", {}))
        await wait_for(
            lambda: any(e.method == "hook.before_tool" for e in engine.journal.exchanges())
        )
        slow.write_text(slow.read_text().replace("'old'", "'new'"))
        await reloader.reload()
        old_answer = await in_flight
        assert old_answer.status == "ok" and old_answer.response["result"]["reason"] == "old"  # type: ignore[index]
        fresh = await engine.send_to_hook("slow", "hook.before_tool", {})
        assert fresh.response["result"]["reason"] == "new"  # type: ignore[index]


async def test_a_symlinked_config_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alpha.py").write_text(hook_script("alpha-v1"))
    target = real / "hooks.yaml"
    target.write_text(config_text("alpha").replace("alpha.py", str(tmp_path / "alpha.py")))
    link = tmp_path / "hooks.yaml"
    link.symlink_to(target)
    async with Engine(load_config(link)) as engine:
        reloader = Reloader(engine, link)
        watching = asyncio.create_task(reloader.watch())
        await asyncio.wait_for(reloader.armed.wait(), 10)
        try:
            save_by_rename(target, target.read_text().replace("priority: 0", "priority: 7"))
            await wait_for(
                lambda: any(r.restarted == ["alpha"] for r in engine.journal.of_type(Reload))
            )
            assert engine.runtime.hooks["alpha"].spec.priority == 7
        finally:
            watching.cancel()


async def test_run_watch_plays_the_scenario_again_after_each_good_reload(tmp_path: Path) -> None:
    (tmp_path / "alpha.py").write_text(hook_script("alpha-v1"))
    config = tmp_path / "hooks.yaml"
    config.write_text(config_text("alpha"))
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(
        "turns:\n  - user: go\n    rounds:\n      - content: working\n"
        "        tool_calls: [{tool: exec, arguments: {command: ls}}]\n      - content: done\n"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "inspector", "run", str(config), "--scenario", str(scenario),
        "--watch", "--json",
        stdout=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdout is not None
    reasons: list[str] = []

    async def read_until(predicate) -> None:  # type: ignore[no-untyped-def]
        while not predicate():
            line = await asyncio.wait_for(proc.stdout.readline(), 20)
            assert line, "hook-inspector run --watch ended early"
            record = json.loads(line)
            if record["type"] == "exchange" and record["method"] == "hook.before_tool":
                reasons.append(record["response"]["result"]["reason"])

    try:
        await read_until(lambda: reasons == ["alpha-v1"])
        (tmp_path / "alpha.py").write_text(hook_script("alpha-v2"))
        await read_until(lambda: reasons == ["alpha-v1", "alpha-v2"])
    finally:
        proc.terminate()
        await proc.wait()
