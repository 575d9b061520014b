#!/usr/bin/env python3
"""A fake PicoClaw host: it spawns one process hook and drives it the way PicoClaw's host does
(reference/picoclaw-host.md §2), recording every answer with its latency.

- Requests carry ids 1, 2, 3, ... (one counter per process); notifications carry no `id`.
- Lines are compact Go-style JSON: raw UTF-8, `<`, `>`, `&`, U+2028, U+2029 escaped as \\uXXXX.
- Any number of requests may be in flight at once; answers are matched by id alone.
- The hook's stdout is read with a 1 MiB line limit: a longer line (newline included) stops the
  reader for good, as Go's bufio.Scanner does, and every later call times out.
- Lines that are not JSON, or have no or a 0 id, are skipped (`ignored`); an answer whose id is no
  longer pending (late, duplicate, never sent) is dropped (`late`).
- When the process exits, calls still pending fail with -32000 "process exited".
- `close()` closes stdin, waits 2 s, then kills, as PicoClaw's `Close()` does.

As a library:

    agent = FakeAgent(["hook-inspector", "relay", "--socket", path])
    await agent.start()
    await agent.hello("inspector", ["observe", "tool", "approve"])
    exchange = await agent.call("hook.before_tool", {"tool": "exec", "arguments": {}})
    exchange.result, exchange.error, exchange.latency_s, exchange.outcome
    await agent.notify("hook.runtime_event", {"kind": "agent.turn.start"})
    code = await agent.close()

As a script, it sends hook.hello, then each step and prints one JSON line per answer:

    python tests/support/fake_agent.py [--steps FILE.jsonl] [--name N]
        [--modes observe,tool,approve] [--interceptor-timeout-ms N] [--approval-timeout-ms N]
        -- COMMAND...

A step is `{"method": ..., "params": ...}`; `hook.runtime_event` steps are sent as notifications.
Without --steps it plays a short tour (an event, before_tool, approve_tool, after_tool).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import struct
import sys
import termios
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LINE_LIMIT = 1024 * 1024  # PicoClaw's processHookReadBufferSize, the newline included
CLOSE_WAIT_S = 2.0  # PicoClaw's processHookCloseTimeout
DEADLINES_MS = {"interceptor": 5000, "approval": 60000}  # PicoClaw's defaults
_GO_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def go_json(value: Any) -> bytes:
    """One line of JSON as Go's encoding/json writes it (the characters escaped can only occur
    inside strings, so translating the whole text is safe)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).translate(_GO_ESCAPES)
    return text.encode() + b"\n"


@dataclass
class Exchange:
    """One call: what was sent, what came back (if anything) and how long it took."""

    id: int
    method: str
    request: bytes  # the line written, newline included
    answer: bytes | None = None  # the line read, newline included
    message: dict[str, Any] | None = None
    latency_s: float | None = None
    outcome: str = "pending"  # "answered", "timeout" or "process exited"
    sent_at: float = field(default=0.0, repr=False)

    @property
    def result(self) -> Any:
        return (self.message or {}).get("result")

    @property
    def error(self) -> Any:
        return (self.message or {}).get("error")


class FakeAgent:
    def __init__(
        self,
        command: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | Path | None = None,
        deadlines_ms: dict[str, int] | None = None,
    ) -> None:
        self.command = list(command)
        self.env = env
        self.cwd = cwd
        self.deadlines_ms = {**DEADLINES_MS, **(deadlines_ms or {})}
        self.exchanges: list[Exchange] = []
        self.notifications: list[bytes] = []
        self.ignored: list[bytes] = []
        self.late: list[bytes] = []
        self.stderr_lines: list[str] = []
        self.reader_dead = False  # a stdout line over 1 MiB stopped the reader
        self._next_id = 0
        self._pending: dict[int, tuple[Exchange, asyncio.Future[None]]] = {}
        self._write_lock = asyncio.Lock()
        self._stderr_changed = asyncio.Event()
        self._process: asyncio.subprocess.Process | None = None
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def process(self) -> asyncio.subprocess.Process:
        if self._process is None:
            raise RuntimeError("start() first")
        return self._process

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
            # readuntil() fails once the text before the newline exceeds the limit
            limit=LINE_LIMIT - 1,
        )
        self._tasks = [
            asyncio.create_task(self._read_stdout()),
            asyncio.create_task(self._read_stderr()),
        ]

    async def hello(self, name: str, modes: Sequence[str], timeout_s: float = 15.0) -> Exchange:
        """PicoClaw puts no deadline on hello; the fake does, so a test cannot hang on it."""
        params = {"name": name, "version": 1, "modes": list(modes)}
        return await self.call("hook.hello", params, timeout_s)

    async def call(self, method: str, params: Any, timeout_s: float | None = None) -> Exchange:
        """Send a request and wait for its answer or its deadline (by default PicoClaw's for the
        method). Never raises on a timeout: the exchange records the outcome."""
        self._next_id += 1
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params}
        return await self._ask(Exchange(self._next_id, method, go_json(message)), timeout_s)

    async def call_line(self, line: bytes, timeout_s: float | None = None) -> Exchange:
        """A request line exactly as PicoClaw wrote it (its id included), answered like call()."""
        message = json.loads(line)
        self._next_id = max(self._next_id, message["id"])
        return await self._ask(Exchange(message["id"], message["method"], line), timeout_s)

    async def _ask(self, exchange: Exchange, timeout_s: float | None) -> Exchange:
        if timeout_s is None:
            kind = "approval" if exchange.method == "hook.approve_tool" else "interceptor"
            timeout_s = self.deadlines_ms[kind] / 1000
        answered = asyncio.get_running_loop().create_future()
        self._pending[exchange.id] = (exchange, answered)
        self.exchanges.append(exchange)
        exchange.sent_at = asyncio.get_running_loop().time()
        await self._write(exchange.request)
        try:
            await asyncio.wait_for(asyncio.shield(answered), timeout_s)
        except TimeoutError:
            self._pending.pop(exchange.id, None)
            exchange.outcome = "timeout"
        return exchange

    async def notify(self, method: str, params: Any) -> bytes:
        line = go_json({"jsonrpc": "2.0", "method": method, "params": params})
        self.notifications.append(line)
        await self._write(line)
        return line

    async def wait_stderr(self, text: str, timeout_s: float = 20.0) -> str:
        """The first stderr line containing `text`, waiting for it if need be."""

        async def seen() -> str:
            while True:
                for line in self.stderr_lines:
                    if text in line:
                        return line
                self._stderr_changed.clear()
                await self._stderr_changed.wait()

        return await asyncio.wait_for(seen(), timeout_s)

    async def close(self, wait_s: float = CLOSE_WAIT_S) -> int:
        """Close the hook's stdin; kill it if it has not exited `wait_s` later."""
        process = self.process
        if process.stdin and not process.stdin.is_closing():
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), wait_s)
        except TimeoutError:
            process.kill()
            await process.wait()
        await asyncio.gather(*self._tasks)
        return process.returncode if process.returncode is not None else -1

    async def write_raw(self, data: bytes) -> None:
        """Bytes as they are, for what PicoClaw writes in pieces or never writes."""
        await self._write(data)

    def unread_input(self) -> int:
        """Bytes written to the hook's stdin that nobody has read yet (FIONREAD on the pipe)."""
        stdin = self.process.stdin
        assert stdin is not None
        fd = stdin.transport.get_extra_info("pipe").fileno()
        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]

    async def _write(self, line: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        async with self._write_lock:  # PicoClaw's writeMu
            stdin.write(line)
            await stdin.drain()

    async def _read_stdout(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            try:
                line = await stdout.readuntil(b"\n")
            except asyncio.IncompleteReadError as end:
                if end.partial:
                    self._take(end.partial)
                break
            except asyncio.LimitOverrunError:
                self.reader_dead = True  # and stdout is never read again
                break
            self._take(line)
        await self.process.wait()
        for exchange, answered in self._pending.values():
            exchange.outcome = "process exited"
            exchange.message = {"error": {"code": -32000, "message": "process exited"}}
            answered.set_result(None)
        self._pending.clear()

    def _take(self, line: bytes) -> None:
        now = asyncio.get_running_loop().time()
        try:
            message = json.loads(line)
        except ValueError:
            self.ignored.append(line)
            return
        rpc_id = message.get("id") if isinstance(message, dict) else None
        if type(rpc_id) is not int or rpc_id <= 0:  # Go decodes into uint64; 0 means absent
            self.ignored.append(line)
            return
        pending = self._pending.pop(rpc_id, None)
        if pending is None:
            self.late.append(line)
            return
        exchange, answered = pending
        exchange.answer, exchange.message = line, message
        exchange.latency_s = now - exchange.sent_at
        exchange.outcome = "answered"
        answered.set_result(None)

    async def _read_stderr(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        with contextlib.suppress(ValueError):  # a stderr line over 1 MiB stops it too
            while line := await stderr.readline():
                self.stderr_lines.append(line.decode(errors="replace").rstrip("\n"))
                self._stderr_changed.set()


TOUR = [
    {"method": "hook.runtime_event", "params": {"kind": "agent.turn.start", "payload": {}}},
    {"method": "hook.before_tool", "params": {"tool": "exec", "arguments": {"cmd": "ls & pwd"}}},
    {"method": "hook.approve_tool", "params": {"tool": "exec", "arguments": {"cmd": "ls & pwd"}}},
    {"method": "hook.after_tool", "params": {"tool": "exec", "result": {"for_llm": "<ok>"}}},
]


async def play(args: argparse.Namespace) -> int:
    steps = TOUR
    if args.steps:
        text = Path(args.steps).read_text(encoding="utf-8")
        steps = [json.loads(line) for line in text.splitlines() if line.strip()]
    deadlines = {"interceptor": args.interceptor_timeout_ms, "approval": args.approval_timeout_ms}
    agent = FakeAgent(args.command, deadlines_ms=deadlines)
    await agent.start()
    await agent.hello(args.name, args.modes.split(","))
    for step in steps:
        if step["method"] == "hook.runtime_event":
            await agent.notify(step["method"], step.get("params", {}))
        else:
            await agent.call(step["method"], step.get("params", {}))
    code = await agent.close()
    for exchange in agent.exchanges:
        record = {
            "id": exchange.id,
            "method": exchange.method,
            "outcome": exchange.outcome,
            "latency_ms": None if exchange.latency_s is None else exchange.latency_s * 1000,
            "answer": exchange.message,
        }
        print(json.dumps(record), flush=True)
    for line in agent.stderr_lines:
        print(f"[hook stderr] {line}", file=sys.stderr)
    print(f"[hook exit] {code}", file=sys.stderr)
    return 0 if all(e.outcome == "answered" for e in agent.exchanges) else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Drive a process hook as PicoClaw's host does.")
    parser.add_argument("--steps", help="JSONL file of {method, params} steps")
    parser.add_argument("--name", default="fake-agent", help="the hook's name in hook.hello")
    parser.add_argument("--modes", default="observe,tool,approve")
    parser.add_argument("--interceptor-timeout-ms", type=int, default=5000)
    parser.add_argument("--approval-timeout-ms", type=int, default=60000)
    parser.add_argument("command", nargs="+", help="the hook command (after --)")
    args = parser.parse_args(argv)
    return asyncio.run(play(args))


if __name__ == "__main__":
    sys.exit(main())
