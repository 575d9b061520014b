"""One relayed command-hook event (Claude Code, j-cli, ...) by the command relay: the relay sends
the event and waits; the inspector answers it (relayed_call.py) by the relay's deadline, and the
answer becomes the hook's stdout, stderr and exit code."""

from __future__ import annotations

import asyncio
import json
import os
from typing import TYPE_CHECKING

from inspector.bridge.greeting import Greeting
from inspector.bridge.relayed_call import (
    NotAnEvent,
    RelayedCall,
    RelayedEvent,
    event_payload,
    read_event,
)
from inspector.hosts.host import ABSENT, HookOutput
from inspector.relay import command_wire

if TYPE_CHECKING:
    from inspector.engine import Engine


class CommandSession(RelayedCall):
    """Answers the one event of one command relay."""

    def __init__(
        self,
        engine: Engine,
        greeting: Greeting,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_line: int,
    ) -> None:
        command = greeting.command
        assert command is not None
        super().__init__(engine, command.host, greeting.name, command.timeout_ms, greeting.pid)
        self._reader = reader
        self._writer = writer
        self._max_line = max_line
        self._env_prefixes = command.env_prefixes

    async def serve(self) -> None:
        try:
            await self._serve()
        finally:
            self._done.set()

    async def _serve(self) -> None:
        try:
            raw = await asyncio.wait_for(
                read_event(self._reader.read, self._max_line), self.deadline.left_s()
            )
            event = self._event(raw)
        except (TimeoutError, OSError):
            return  # it never finished sending: whatever it waits for, nothing is owed
        except NotAnEvent as problem:
            self._noise(problem.raw, str(problem))
            await self._reply(ABSENT)
            return
        await self._answer(event)

    # ---- reading the event -----------------------------------------------------------------

    def _event(self, raw: bytes) -> RelayedEvent:
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError) as error:
            raise NotAnEvent(f"not JSON: {error}", raw) from None
        stdin = message.get("stdin") if isinstance(message, dict) else None
        if not isinstance(stdin, str):
            raise NotAnEvent("no stdin in what the relay sent", raw)
        payload = event_payload(self.host, stdin, raw)
        env = message.get("env")
        env = {k: v for k, v in env.items() if isinstance(v, str)} if isinstance(env, dict) else {}
        host_env = command_wire.host_env(self._env_prefixes, env)
        cwd = message.get("cwd")
        folder = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None
        return RelayedEvent(payload, stdin.removesuffix("\n"), host_env, folder)

    # ---- answering -------------------------------------------------------------------------

    async def _reply(self, output: HookOutput) -> bool:
        """Send the answer and hang up; False when the relay is already gone."""
        if self._writer.is_closing():
            return False
        answer = command_wire.answer(output.stdout, output.stderr, output.exit_code)
        try:
            self._writer.write(answer)
            await self._writer.drain()
        except OSError:
            return False
        finally:
            self._writer.close()
        return True
