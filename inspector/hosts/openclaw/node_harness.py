"""The Node process that holds one OpenClaw plugin (harness/harness.js): start it, learn what
the plugin registered, call one handler at a time by index, and journal its stderr and its
lifecycle under the plugin's id."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.config.plugin_folder import PluginFolder
from inspector.journal.journal import Journal
from inspector.journal.records import Lifecycle, Noise, Stderr

HARNESS = Path(__file__).with_name("harness") / "harness.js"
NODE = "node"
LINE_LIMIT = 64 * 1024 * 1024
START_TIMEOUT_S = 30.0
STOP_GRACE_S = 2.0
JSONObject = dict[str, Any]


@dataclass(frozen=True)
class Registration:
    """One api.on(hookName, handler, {priority, timeoutMs}) call, in one registration mode."""

    index: int
    mode: str
    hook_name: str
    priority: int
    timeout_ms: int | None


@dataclass(frozen=True)
class Reply:
    """One handler's answer (`message`), and the lines that crossed the harness's pipes: the
    request as written to its stdin, the answer as read from its stdout (None without one)."""

    message: JSONObject
    sent: str
    received: str | None = None


class HarnessError(Exception):
    """The harness did not come up: node missing, the entry failed to load, or no answer."""


class Harness:
    def __init__(self, plugin: PluginFolder, journal: Journal, *, node: str = NODE) -> None:
        self.plugin = plugin
        self.journal = journal
        self.node = node
        self.registrations: list[Registration] = []
        self.register_errors: list[JSONObject] = []  # {"mode", "message"}: register(api) threw
        self._process: asyncio.subprocess.Process | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[tuple[JSONObject, str]]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    async def start(self) -> None:
        """Load the plugin; HarnessError (journalled as a failed lifecycle) when it cannot."""
        self._lifecycle("starting")
        node = shutil.which(self.node)
        if node is None:
            raise self._fail(
                f"{self.node} not found on PATH: host mode for OpenClaw needs node >= 18.19"
            )
        spec = {
            "id": self.plugin.id,
            "name": self.plugin.name,
            "entry": str(self.plugin.entry),
            "config": self.plugin.config,
        }
        self._process = await asyncio.create_subprocess_exec(
            str(node),
            str(HARNESS),
            json.dumps(spec),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.plugin.folder,
            limit=LINE_LIMIT,
            start_new_session=True,
        )
        self._tasks.append(asyncio.create_task(self._read_stderr()))
        try:
            line = await asyncio.wait_for(self._read_line(), START_TIMEOUT_S)
        except TimeoutError:
            line = None
        first = line[0] if line else None
        if first is None or first.get("type") != "loaded":
            await self.stop(quiet=True)
            detail = first.get("error") if first else "the harness did not answer"
            raise self._fail(f"{self.plugin.entry.name}: {detail}")
        self.registrations = [
            Registration(
                index=item["index"],
                mode=item["mode"],
                hook_name=item["hookName"],
                priority=item["priority"],
                timeout_ms=item["timeoutMs"],
            )
            for item in first["registrations"]
        ]
        self.register_errors = list(first["errors"])
        self._tasks.append(asyncio.create_task(self._read_answers()))
        self._lifecycle("ready", detail=f"node {first['node']}")

    async def call(self, index: int, event: JSONObject, ctx: JSONObject, timeout_ms: int) -> Reply:
        """One handler's answer: {"returned", "result", "dropped"} or {"threw"} or
        {"timedOut"}, each with "durationMs"."""
        call_id = next(self._ids)
        request = {"id": call_id, "index": index, "event": event, "ctx": ctx}
        sent = json.dumps(request | {"timeoutMs": timeout_ms})
        process = self._process
        if process is None or process.stdin is None or process.returncode is not None:
            return Reply(_failed("the plugin's harness is not running"), sent)
        answer: asyncio.Future[tuple[JSONObject, str]] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = answer
        process.stdin.write(sent.encode() + b"\n")
        try:
            await process.stdin.drain()
            message, received = await answer
            return Reply(message, sent, received or None)
        except (BrokenPipeError, ConnectionResetError):
            return Reply(_failed("the plugin's harness exited"), sent)
        finally:
            self._pending.pop(call_id, None)

    async def stop(self, *, quiet: bool = False) -> None:
        process = self._process
        if process is None:
            return
        self._process = None
        if process.stdin is not None:
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), STOP_GRACE_S)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._fail_pending("the plugin's harness stopped")
        if not quiet:
            self._lifecycle("stopped", pid=process.pid, exit_code=process.returncode)

    async def _read_line(self) -> tuple[JSONObject, str] | None:
        """The harness's next message and its line; None at the end. A line that is not one
        (the plugin wrote to file descriptor 1 itself) is journalled as noise and skipped."""
        assert self._process is not None and self._process.stdout is not None
        while line := await self._process.stdout.readline():
            try:
                message = json.loads(line)
            except (ValueError, RecursionError):
                message = None
            text = line.decode("utf-8", "replace").rstrip("\n")
            if isinstance(message, dict):
                return message, text
            noise = Noise(hook=self.plugin.id, line=text, size=len(text), pid=self.pid)
            self.journal.append(noise)
        return None

    async def _read_answers(self) -> None:
        process = self._process
        while (line := await self._read_line()) is not None:
            future = self._pending.get(line[0].get("id", 0))
            if future is not None and not future.done():
                future.set_result(line)
        if process is not None and process is self._process:
            code = await process.wait()
            self._lifecycle("exited", exit_code=code)
        self._fail_pending("the plugin's harness exited")

    async def _read_stderr(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        pid = self._process.pid
        async for raw in self._process.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.journal.append(Stderr(hook=self.plugin.id, line=line, pid=pid, host="openclaw"))

    def _fail_pending(self, reason: str) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_result((_failed(reason), ""))

    def _fail(self, detail: str) -> HarnessError:
        self._lifecycle("failed", detail=detail)
        return HarnessError(detail)

    def _lifecycle(
        self, state: str, *, detail: str = "", pid: int | None = None, exit_code: int | None = None
    ) -> None:
        record = Lifecycle(
            hook=self.plugin.id,
            state=state,
            pid=pid or self.pid,
            detail=detail,
            exit_code=exit_code,
            host="openclaw",
        )
        self.journal.append(record)


def _failed(reason: str) -> JSONObject:
    """The answer of a call the harness could not make."""
    return {"threw": reason, "durationMs": 0}
