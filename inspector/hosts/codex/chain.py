"""Codex's hooks for one event: the matching ones run in parallel (each one, even when two run
the same command), each run read as Codex reads it (answer.py), and the answers combined by
Codex's rules (outcome.py). A hook runs as Codex starts it: through the shell Codex picks
(shell.py), in the session's folder, the JSON on stdin with no newline after it, killed at its
timeout."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.config.model import CommandHookSpec, Defaults
from inspector.hooks.approvals import Approvals
from inspector.hooks.command_hook import CommandHook
from inspector.hosts.codex import NAME
from inspector.hosts.codex.answer import ERROR, read_answer
from inspector.hosts.codex.approval import ask_person, asks_person
from inspector.hosts.codex.compaction import auto_compact_limit
from inspector.hosts.codex.events import MATCH_FIELDS, PRE_TOOL_USE, matches
from inspector.hosts.codex.outcome import CodexOutcome, HookRun, combine
from inspector.hosts.codex.shell import codex_shell
from inspector.hosts.codex.templates import example_payload
from inspector.hosts.codex.trust import event_label
from inspector.hosts.codex.turn import CodexTurnRunner
from inspector.hosts.event_record import chain_entry, edited_tool_input, event_decision
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange
from inspector.pipeline.gate import Gate, GatedCommandHook

JSONObject = dict[str, Any]

ASK_TIMEOUT_MS = Defaults().approval_timeout_ms  # a person's time to answer, as for any approval


class CodexHooks:
    """The enabled Codex specs among `specs`, run from `project_dir`."""

    def __init__(
        self,
        specs: Iterable[CommandHookSpec],
        journal: Journal,
        *,
        project_dir: str | Path,
        shell: tuple[str, ...] | None = None,
        gate: Gate | None = None,
        approvals: Approvals | None = None,
        ask_timeout_ms: int = ASK_TIMEOUT_MS,
    ) -> None:
        self.journal = journal
        self.approvals = approvals or Approvals()
        self.ask_timeout_ms = ask_timeout_ms
        self.gate = gate or Gate(journal)  # a gate of its own intercepts nothing
        self.project_dir = str(project_dir)
        self.hooks = [
            CommandHook(spec, journal, shell or codex_shell(), cwd=self.project_dir)
            for spec in specs
            if spec.host == NAME and spec.enabled and not spec.cannot_run
        ]

    def hook_list(self) -> list[CommandHook]:
        return list(self.hooks)

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def context_template(self, event: str) -> dict[str, Any]:
        return example_payload(event, self.project_dir)

    def turn_runner(self) -> CodexTurnRunner:
        return CodexTurnRunner(self, auto_compact_limit=auto_compact_limit(self.project_dir))

    def matching(self, event: str, payload: JSONObject) -> list[CommandHook]:
        """The hooks `event` runs with `payload`, in config order."""
        key = MATCH_FIELDS.get(event)
        value = payload.get(key) if key else None
        target = value if isinstance(value, str) else ""
        return [
            hook
            for hook in self.hooks
            if hook.spec.event == event and (key is None or matches(hook.spec.matcher, target))
        ]

    async def fire(
        self,
        event: str,
        payload: JSONObject,
        *,
        source: str,
        turn: str | None = None,
        env: Mapping[str, str] | None = None,
        live: bool = False,
        cwd: str | None = None,
        ask_by: float | None = None,
    ) -> CodexOutcome:
        """Run `event`'s hooks with `payload` on stdin and decide as Codex would; journals an
        exchange per run and, when any ran, one Decision. Unless `live` (a relay's call, held
        already), the event first passes the intercept's stage entry, where a person can edit
        it for every hook or drop it so that none runs. Live, a person may be asked
        (approval.py), until `ask_by` (time.monotonic()) at the latest."""
        edited = None
        if not live:
            entered = await self.gate.enter_event(event, payload, source=source, turn=turn)
            if entered is None:
                return CodexOutcome(event, payload)
            edited = edited_tool_input(payload, entered) if event == PRE_TOOL_USE else None
            payload = entered
        finishing = itertools.count(1)
        matched = self.matching(event, payload)
        runs = await asyncio.gather(
            *(
                self._run(hook, event, payload, source, turn, env, finishing, cwd)
                for hook in matched
            )
        )
        # an async hook runs, and Codex goes on without its answer
        deciding = [
            run for run, hook in zip(runs, matched, strict=True) if not hook.spec.background
        ]
        outcome = combine(event, payload, tuple(deciding))
        if edited is not None and outcome.updated_input is None and not outcome.blocked:
            outcome = replace(outcome, updated_input=edited)  # as the relay answers it
        asked = live and asks_person(outcome, self.approvals)
        if asked:
            outcome = await ask_person(
                outcome, self.approvals, timeout_ms=self.ask_timeout_ms, turn=turn, ask_by=ask_by
            )
        if runs or asked:
            self._record(outcome, source, turn)
        return outcome

    async def send_one(
        self, name: str, event: str, payload: JSONObject, *, source: str
    ) -> Exchange:
        """One hook's run by hand (the composer, replay), read as Codex reads a run."""
        hook = next((h for h in self.hooks if h.name == name and h.spec.event == event), None)
        if hook is None:
            raise KeyError(f"no hook {name!r} on {event}")
        run = await self._run(
            hook, event, payload, source, None, None, itertools.count(1), None, by_hand=True
        )
        return run.exchange

    async def _run(
        self,
        hook: CommandHook,
        event: str,
        payload: JSONObject,
        source: str,
        turn: str | None,
        env: Mapping[str, str] | None,
        finishing: Iterator[int],
        cwd: str | None,
        *,
        by_hand: bool = False,
    ) -> HookRun:
        exchange, run = await GatedCommandHook(hook, self.gate, in_chain=not by_hand).call(
            payload, source=source, turn=turn, env=env, cwd=cwd
        )
        answer = read_answer(event, run)
        self.journal.amend(
            exchange, action=answer.action, findings=[*exchange.findings, *answer.findings]
        )
        run_id = f"{event_label(event)}:{hook.spec.priority}:{hook.spec.source}"
        return HookRun(hook.name, exchange, answer, next(finishing), run_id)

    def _record(self, outcome: CodexOutcome, source: str, turn: str | None) -> None:
        chain = [chain_entry(run.hook, run.answer.action, run.exchange) for run in outcome.runs]
        decision = event_decision(
            outcome.event,
            outcome.payload,
            verdict=outcome.verdict,
            by=outcome.by,
            reason=outcome.reason,
            source=source,
            turn=turn,
            chain=chain,
        )
        self.journal.append(decision)


def run_failed(exchange: Exchange) -> bool:
    """A failed run (Codex's `hook: <Event> Failed`): an exit 2 that blocks is an answer."""
    return exchange.action == ERROR
