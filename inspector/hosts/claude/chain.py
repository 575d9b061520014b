"""Claude Code's hooks for one event: the matching ones run in parallel (identical commands, or
URLs, once), commands and http handlers alike, each run is read as Claude Code reads it (an
http handler's answer by http_answer.py, then the handler's onFailure), and the answers are
combined. Prompt, agent and mcp_tool handlers are not run here (the runtime lists them). `ask` opens
the same approval prompt as a manual hook's hook.approve_tool; so does a live Claude Code's
PermissionRequest that no hook decided (answered allow or deny). For a live PreToolUse the person
can also leave the call to Claude Code's own dialog (permissionDecision ask); with nobody at the
inspector, a hook's ask goes on to Claude Code that way."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.config.model import CommandHookSpec, Defaults
from inspector.hooks.approvals import ASK_AGENT, Approvals
from inspector.hooks.command_hook import CommandHook
from inspector.hooks.http_hook import HttpHook
from inspector.hosts.claude.answer import ALLOW, ASK, CONTINUE, DENY, ERROR, read_answer
from inspector.hosts.claude.events import MATCH_FIELDS, PERMISSION_REQUEST, PRE_TOOL_USE, matches
from inspector.hosts.claude.findings import (
    ask_denied_unattended,
    ask_left_to_agent,
    last_to_finish,
    updated_input_ignored,
)
from inspector.hosts.claude.http_answer import read_http_answer
from inspector.hosts.claude.http_headers import header_maker
from inspector.hosts.claude.on_failure import on_failure
from inspector.hosts.claude.outcome import (
    EventOutcome,
    HookRun,
    combine,
    ignored_updates,
    timing_decides,
)
from inspector.hosts.claude.permission import permission_outcome
from inspector.hosts.claude.permission_layer import (
    STAGE,
    PermissionCheck,
    PermissionLayer,
    call_matches,
)
from inspector.hosts.claude.permission_rules import parse_rule
from inspector.hosts.claude.templates import example_payload, hook_env
from inspector.hosts.claude.turn import ClaudeTurnRunner
from inspector.hosts.claude.versions import NEWEST, ClaudeVersion
from inspector.hosts.command_approval import ask_the_person, earlier_answers
from inspector.hosts.event_record import (
    chain_entry,
    duplicate_entry,
    edited_tool_input,
    event_decision,
)
from inspector.journal.journal import Journal
from inspector.journal.records import Decision, Exchange
from inspector.pipeline.gate import Gate, GatedCommandHook

JSONObject = dict[str, Any]
ClaudeHook = CommandHook | HttpHook  # a command handler, or an http handler

SHELL = ("/bin/sh", "-c")  # Claude Code's shell form on Linux and macOS
# Claude Code's dialog waits as long as the user takes; the inspector's prompt counts down like
# an approval hook's and denies when the time is up.
ASK_TIMEOUT_MS = Defaults().approval_timeout_ms
AGENT = "Claude Code"


class ClaudeHooks:
    """The enabled Claude Code specs among `specs`, run from `project_dir` (also their
    CLAUDE_PROJECT_DIR) with `env` added to the inherited environment."""

    def __init__(
        self,
        specs: Iterable[CommandHookSpec],
        journal: Journal,
        approvals: Approvals,
        *,
        project_dir: str | Path,
        ask_timeout_ms: int = ASK_TIMEOUT_MS,
        shell: tuple[str, ...] = SHELL,
        env: Mapping[str, str] | None = None,
        gate: Gate | None = None,
        version: ClaudeVersion = NEWEST,
        permissions: PermissionLayer | None = None,
    ) -> None:
        self.journal = journal
        self.version = version  # the Claude Code release whose turns this session plays
        # Claude Code's -p permission layer for the turns played; None: every call no hook
        # refused runs
        self.permissions = permissions
        self.approvals = approvals
        self.gate = gate or Gate(journal)  # a gate of its own intercepts nothing
        self.project_dir = str(project_dir)
        self.ask_timeout_ms = ask_timeout_ms
        hook_env = {**(env or {}), "CLAUDE_PROJECT_DIR": self.project_dir}
        self.hooks: list[ClaudeHook] = []
        self._spent: set[str] = set()  # the `once` hooks that have run in this session
        for spec in specs:
            if spec.host != "claude" or not spec.enabled or spec.cannot_run:
                continue  # a prompt, agent or mcp_tool handler is listed, never run
            if spec.handler == "http":
                self.hooks.append(HttpHook(spec, journal, header_maker(spec), env=hook_env))
            else:
                self.hooks.append(
                    CommandHook(
                        spec, journal, shell, cwd=self.project_dir, env=hook_env, stdin_newline=True
                    )
                )

    def hook_list(self) -> list[ClaudeHook]:
        return list(self.hooks)

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def context_template(self, event: str) -> dict[str, Any]:
        return example_payload(event, self.project_dir)

    def turn_runner(self) -> ClaudeTurnRunner:
        return ClaudeTurnRunner(self, version=self.version)

    def matching(self, event: str, payload: JSONObject) -> list[ClaudeHook]:
        """The hooks `event` runs with `payload`, in config order, duplicates included."""
        key = MATCH_FIELDS.get(event)
        value = payload.get(key) if key else None
        target = value if isinstance(value, str) else ""
        return [
            hook
            for hook in self.hooks
            if hook.spec.event == event
            and (key is None or matches(hook.spec.matcher, target))
            and hook.name not in self._spent
            and self._condition_holds(hook.spec, payload)
        ]

    def _condition_holds(self, spec: CommandHookSpec, payload: JSONObject) -> bool:
        """A handler's `if`: the event's tool call must match its permission rule (an event
        without a tool call never does)."""
        if spec.condition is None:
            return True
        tool, tool_input = payload.get("tool_name"), payload.get("tool_input")
        if not isinstance(tool, str) or not isinstance(tool_input, dict):
            return False
        rule = parse_rule(spec.condition, "if", spec.level)
        return call_matches(rule, tool, tool_input, Path(self.project_dir))

    async def fire(
        self,
        event: str,
        payload: JSONObject,
        *,
        source: str,
        turn: str | None = None,
        ask_by: float | None = None,
        env: Mapping[str, str] | None = None,
        live: bool = False,
        cwd: str | None = None,
    ) -> EventOutcome:
        """Run `event`'s hooks with `payload` as their stdin and decide as Claude Code would.
        Journals an exchange per run and, when any hook ran or a person answered, one Decision.
        An `ask` prompt times out at `ask_by` (time.monotonic()) if that comes before its own
        timeout: a live agent's hook deadline. `env` is added to this event's runs'
        environment. `live`: the event comes from a real Claude Code, whose PermissionRequest
        the person answers when no hook did, and whose own dialog can ask about a PreToolUse;
        `cwd` the folder its hooks run in (else the project's). Unless live (the bridge held a
        relayed event already), the event first passes the intercept's stage entry, where a
        person can edit it for every hook or drop it so that none runs."""
        edited_input = None
        if not live:
            entered = await self.gate.enter_event(event, payload, source=source, turn=turn)
            if entered is None:
                return EventOutcome(event, payload)
            edited_input = edited_tool_input(payload, entered) if event == PRE_TOOL_USE else None
            payload = entered
        first: dict[str, ClaudeHook] = {}
        duplicates = []
        for hook in self.matching(event, payload):
            kept = first.setdefault(hook.spec.command, hook)
            if kept is not hook:
                duplicates.append((hook.name, kept.name))
        finishing = itertools.count(1)
        envs = [hook_env(env or {}, index) for index in range(len(first))]
        runs = await asyncio.gather(
            *(
                self._run(hook, event, payload, source, turn, own_env, finishing, cwd)
                for hook, own_env in zip(first.values(), envs, strict=True)
            )
        )
        outcome = combine(event, payload, tuple(runs), tuple(duplicates))
        if edited_input is not None and outcome.updated_input is None and not outcome.blocked:
            outcome = replace(outcome, updated_input=edited_input)  # as the relay answers it
        if (why := timing_decides(outcome)) and outcome.winner:
            self.journal.add_findings(outcome.winner.exchange, last_to_finish(why))
        if live:
            outcome = permission_outcome(outcome)
        if outcome.verdict == ASK or (live and _undecided_permission(outcome)):
            outcome = await self._ask(outcome, turn, ask_by, live)
        for run, why in ignored_updates(outcome):
            self.journal.add_findings(run.exchange, updated_input_ignored(why))
        if runs or outcome.resolution is not None:
            self._record(outcome, source, turn)
        return outcome

    async def send_one(
        self, name: str, event: str, payload: JSONObject, *, source: str
    ) -> Exchange:
        """One hook's run by hand (the composer, replay), outside the event's merge, read as
        Claude Code reads a run; held at the gate whatever the intercept's target."""
        hook = next((h for h in self.hooks if h.name == name and h.spec.event == event), None)
        if hook is None:
            raise KeyError(f"no hook {name!r} on {event}")
        run = await self._run(
            hook, event, payload, source, None, None, itertools.count(1), None, by_hand=True
        )
        return run.exchange

    async def _run(
        self,
        hook: ClaudeHook,
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
        """One hook's run (a command, or an http handler's POST), read as Claude Code reads it;
        its onFailure decides what a failure does."""
        in_chain = not by_hand
        if isinstance(hook, HttpHook):
            exchange, sent = await GatedCommandHook(hook, self.gate, in_chain=in_chain).call(
                payload, source=source, turn=turn, env=env, cwd=cwd
            )
            answer, timed_out = read_http_answer(event, payload, sent), sent.timed_out
        else:
            exchange, run = await GatedCommandHook(hook, self.gate, in_chain=in_chain).call(
                payload, source=source, turn=turn, env=env, cwd=cwd
            )
            answer, timed_out = read_answer(event, payload, run), run.timed_out
        finished = next(finishing)
        if hook.spec.once and not by_hand:  # Claude Code removes it once it has run
            self._spent.add(hook.name)
        answer = on_failure(hook.spec, event, answer, timed_out)
        findings = [*exchange.findings, *answer.findings]
        self.journal.amend(exchange, action=answer.action, findings=findings)
        quoted = hook.url if isinstance(hook, HttpHook) else hook.spec.command
        return HookRun(hook.name, exchange, answer, quoted, finished)

    # ---- ask: the human decides ------------------------------------------------------------

    async def _ask(
        self, outcome: EventOutcome, turn: str | None, ask_by: float | None, live: bool
    ) -> EventOutcome:
        if self.approvals.unattended:
            if outcome.verdict == CONTINUE:
                return outcome
            return self._ask_agent(outcome) if live else self._ask_unattended(outcome)
        payload = outcome.payload
        askers = [run for run in outcome.runs if run.answer.action == ASK] or list(outcome.runs)
        tool = payload.get("tool_name")
        resolution = await ask_the_person(
            self.approvals,
            event=outcome.event,
            payload=payload,
            askers=askers,
            tool=tool if isinstance(tool, str) else "",
            arguments=outcome.updated_input or payload.get("tool_input"),
            # The askers are listed too: their permissionDecisionReason is what the user sees.
            earlier=earlier_answers(outcome.runs),
            turn=turn,
            timeout_ms=self.ask_timeout_ms,
            ask_by=ask_by,
            agent_asks=AGENT if live and outcome.event == PRE_TOOL_USE else "",
        )
        if resolution.verdict == ASK_AGENT:
            return replace(outcome, verdict=ASK, by=(resolution.by,), resolution=resolution)
        if resolution.approved:
            return replace(outcome, verdict=ALLOW, by=(resolution.by,), resolution=resolution)
        return replace(
            outcome,
            verdict=DENY,
            reason=resolution.reason,
            by=(resolution.by,),
            updated_input=None,
            resolution=resolution,
        )

    def _ask_unattended(self, outcome: EventOutcome) -> EventOutcome:
        """Nobody can answer, as in `claude -p`: ask is a deny whose reason reaches Claude."""
        if outcome.winner is not None:
            self.journal.add_findings(outcome.winner.exchange, ask_denied_unattended())
        return replace(outcome, verdict=DENY, updated_input=None)

    def _ask_agent(self, outcome: EventOutcome) -> EventOutcome:
        """Nobody at the inspector of a live Claude Code: the ask goes on to Claude Code, as if
        the hooks ran there."""
        if outcome.winner is not None:
            self.journal.add_findings(outcome.winner.exchange, ask_left_to_agent(AGENT))
        return outcome

    # ---- the journal -----------------------------------------------------------------------

    def record_permission(
        self, check: PermissionCheck, tool: str, *, source: str, turn: str | None
    ) -> None:
        """What Claude Code's permission layer decided about a call, and who decided."""
        self.journal.append(
            Decision(
                stage=STAGE,
                verdict=check.behaviour,
                by=check.by,
                reason=check.message,
                source=source,
                turn=turn,
                tool=tool,
            )
        )

    def _record(self, outcome: EventOutcome, source: str, turn: str | None) -> None:
        chain = [chain_entry(run.hook, run.answer.action, run.exchange) for run in outcome.runs]
        chain += [duplicate_entry(hook, kept) for hook, kept in outcome.duplicates]
        if outcome.resolution is not None:
            chain.append({"hook": outcome.resolution.by, "action": outcome.resolution.verdict})
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
    """A non-blocking error: an exit 2 that Claude Code reads as a block is an answer."""
    return exchange.action == ERROR


def _undecided_permission(outcome: EventOutcome) -> bool:
    """A PermissionRequest none of the hooks answered: Claude Code is about to ask its user."""
    return outcome.event == PERMISSION_REQUEST and outcome.verdict == CONTINUE
