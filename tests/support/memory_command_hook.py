"""A command hook with no process, for tests whose subject is a command host's rules (the events a
turn fires, in what order, with which fields, and what the host does with an answer), not a
process: the chain runs it as it runs a CommandHook, and it answers from a script.

Each call takes the next of its answers (the last repeats), an answer being what a run left
behind: {"stdout": <text, or a dict written as JSON>, "exit": <code>, "stderr": <text>}, all
optional (none: exit 0 with nothing on stdout). What a real run does besides (a shell, the
environment, the folder, stdin left unread, a timeout, a signal) is not here: tests of those run
real scripts.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from inspector.hooks.command_hook import CommandHook, parse_stdout
from inspector.hooks.run_command import CommandRun
from inspector.hosts.jcli.chain import JcliChain
from inspector.journal.records import STATUS_ERROR, STATUS_OK, STATUS_PENDING, Exchange

Answer = Mapping[str, Any]
ANSWER_KEYS = frozenset({"stdout", "exit", "stderr"})


@dataclass(frozen=True, slots=True)
class Ran:
    """One run as the chain asked for it: the hook, and the context it would read on stdin."""

    hook: str
    context: dict[str, Any]


class MemoryCommandHook(CommandHook):
    """`hook`'s place in its chain (spec, journal, folder, environment) with `answers` instead
    of its command; each run is appended to `ran`, which several hooks may share."""

    def __init__(self, hook: CommandHook, answers: Sequence[Answer], ran: list[Ran]) -> None:
        super().__init__(
            hook.spec,
            hook.journal,
            hook.shell,
            cwd=hook.cwd,
            env=hook.env,
            stdin_newline=hook.stdin_newline,
        )
        for answer in answers:
            if answer.keys() - ANSWER_KEYS:
                raise ValueError(f"{hook.name}: {answer} is not {sorted(ANSWER_KEYS)}")
        self.answers = list(answers) or [{}]
        self.ran = ran
        self._runs = 0

    async def call(
        self,
        context: Mapping[str, Any],
        *,
        source: str,
        turn: str | None = None,
        timeout_ms: int | None = None,
        env: Mapping[str, str] | None = None,
        exchange: Exchange | None = None,
        cwd: str | None = None,
    ) -> tuple[Exchange, CommandRun]:
        started = time.perf_counter()
        sent = self.exchange_for(context, source=source, turn=turn, cwd=cwd)
        if exchange is None:
            exchange = self.journal.append(sent)
        else:
            self.journal.amend(
                exchange, request=sent.request, raw_request=sent.raw_request, status=STATUS_PENDING
            )
        self.ran.append(Ran(self.name, dict(context)))
        answer = self.answers[min(self._runs, len(self.answers) - 1)]
        self._runs += 1
        stdout = answer.get("stdout", "")
        run = CommandRun(
            argv=self.argv,
            stdin=sent.raw_request or "",
            stdout=stdout if isinstance(stdout, str) else json.dumps(stdout),
            stderr=answer.get("stderr", ""),
            exit_code=answer.get("exit", 0),
            signal=None,
            timed_out=False,
            duration_ms=(time.perf_counter() - started) * 1000,
            unread_stdin=0,
        )
        failed = run.exit_code != 0
        self.journal.amend(
            exchange,
            raw_response=run.stdout,
            response=parse_stdout(run.stdout),
            stderr=run.stderr,
            exit_code=run.exit_code,
            duration_ms=run.duration_ms,
            status=STATUS_ERROR if failed else STATUS_OK,
            error=f"exit status {run.exit_code}" if failed else None,
        )
        return exchange, run


def jcli_in_memory(
    chain: JcliChain, answers: Mapping[str, Sequence[Answer]], ran: list[Ran] | None = None
) -> list[Ran]:
    """Every hook of `chain` named in `answers` answers from there instead of running; what
    they were given is in the list returned (`ran`, if given)."""
    ran = [] if ran is None else ran
    for event, hooks in chain.hooks.items():
        chain.hooks[event] = [
            MemoryCommandHook(hook, answers[hook.name], ran) if hook.name in answers else hook
            for hook in hooks
        ]
    return ran
