"""Gemini CLI's hooks for one event, run as 0.61.0 runs them (hookPlanner.ts, hookRunner.ts):
the groups whose matcher takes the call, identical hooks (the same name and command) once, all
at the same time unless any of them asks to be `sequential` (then one after another, each later
hook's stdin changed by the answers before it: BeforeTool's tool_input merged in, BeforeModel's
llm_request merged in, BeforeAgent's additionalContext added to the prompt). Each run is read by
answer.py and the answers merged by outcome.py. A command's `$GEMINI_PROJECT_DIR`,
`$GEMINI_CWD`, `$GEMINI_PLANS_DIR`, `$GEMINI_SESSION_ID` and `$CLAUDE_PROJECT_DIR` are replaced
by their values, shell-quoted, before `bash -c` runs it; stdin is the payload's compact JSON,
with no newline."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.config.model import CommandHookSpec, Defaults
from inspector.hooks.approvals import ASK_AGENT, Approvals
from inspector.hooks.command_hook import CommandHook
from inspector.hosts.command_approval import ask_the_person, earlier_answers
from inspector.hosts.event_record import (
    chain_entry,
    duplicate_entry,
    edited_tool_input,
    event_decision,
)
from inspector.hosts.gemini import NAME
from inspector.hosts.gemini.answer import ERROR, read_answer
from inspector.hosts.gemini.events import (
    BEFORE_AGENT,
    BEFORE_MODEL,
    BEFORE_TOOL,
    matches,
)
from inspector.hosts.gemini.findings import run_findings
from inspector.hosts.gemini.outcome import EventOutcome, HookRun, merge
from inspector.hosts.gemini.templates import GeminiSession, example_payload
from inspector.hosts.gemini.turn import GeminiTurnRunner
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange
from inspector.pipeline.gate import Gate, GatedCommandHook

JSONObject = dict[str, Any]

SHELL = ("bash", "-c")  # getShellConfiguration() on Linux and macOS
ASK_TIMEOUT_MS = Defaults().approval_timeout_ms  # the inspector's prompt denies when time is up
AGENT = "Gemini CLI"
EXPANDED = ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR", "GEMINI_SESSION_ID")


class GeminiHooks:
    """The enabled, runnable Gemini CLI specs among `specs`, run from `project_dir`."""

    def __init__(
        self,
        specs: Iterable[CommandHookSpec],
        journal: Journal,
        approvals: Approvals,
        *,
        project_dir: str | Path,
        shell: tuple[str, ...] = SHELL,
        gate: Gate | None = None,
        ask_timeout_ms: int = ASK_TIMEOUT_MS,
    ) -> None:
        self.journal = journal
        self.ask_timeout_ms = ask_timeout_ms
        self.approvals = approvals
        self.gate = gate or Gate(journal)  # a gate of its own intercepts nothing
        self.project_dir = str(project_dir)
        self.shell = shell
        self.hooks = [
            CommandHook(spec, journal, shell, cwd=self.project_dir, env=dict(spec.env))
            for spec in specs
            if spec.host == NAME and spec.enabled and not spec.cannot_run
        ]

    def hook_list(self) -> list[CommandHook]:
        return list(self.hooks)

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def context_template(self, event: str) -> JSONObject:
        return example_payload(event, self.project_dir)

    def turn_runner(self) -> GeminiTurnRunner:
        return GeminiTurnRunner(self)

    def matching(self, event: str, payload: JSONObject) -> list[CommandHook]:
        """The hooks `event` runs with `payload`, in settings order, duplicates included."""
        return [
            hook
            for hook in self.hooks
            if hook.spec.event == event and matches(event, hook.spec.matcher, payload)
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
    ) -> EventOutcome:
        """Run `event`'s hooks with `payload` on stdin and merge their answers as Gemini CLI
        would; journals an exchange per run and, when any ran, one Decision. Unless `live` (the
        relay held the call already), the event first passes the intercept's stage entry. A
        BeforeTool the hooks answered `ask` goes to the inspector's approval prompt when someone
        is there (allow, deny, or for a live Gemini CLI its own dialog); `ask_by`
        (time.monotonic()) cuts the prompt short for a live agent's hook deadline."""
        edited = None
        if not live:
            entered = await self.gate.enter_event(event, payload, source=source, turn=turn)
            if entered is None:
                return EventOutcome(event, payload)
            edited = edited_tool_input(payload, entered) if event == BEFORE_TOOL else None
            payload = entered
        first: dict[tuple[str, str], CommandHook] = {}
        duplicates = []
        for hook in self.matching(event, payload):
            kept = first.setdefault(hook_key(hook.spec), hook)
            if kept is not hook:
                duplicates.append((hook.name, kept.name))
        hooks = list(first.values())
        run_env = {**_session_env(payload, self.project_dir), **(env or {})}
        if any(hook.spec.sequential for hook in hooks):
            runs = []
            current = payload
            for hook in hooks:
                run = await self._run(hook, event, current, source, turn, run_env, cwd)
                runs.append(run)
                if run.answer.success and run.answer.output is not None:
                    current = next_input(event, current, run.answer.output)
        else:
            runs = list(
                await asyncio.gather(
                    *(self._run(hook, event, payload, source, turn, run_env, cwd) for hook in hooks)
                )
            )
        outputs = [run.answer.output for run in runs if run.answer.output is not None]
        merged = merge(event, outputs)
        outcome = EventOutcome(event, payload, tuple(runs), merged, tuple(duplicates))
        if edited is not None and outcome.tool_input is None:
            outcome = with_tool_input(outcome, edited)  # the call runs as the person edited it
        if outcome.asks and not self.approvals.unattended:
            outcome = await self._ask(outcome, turn, ask_by, live)
        if runs:
            self._record(outcome, source, turn)
        return outcome

    async def send_one(
        self, name: str, event: str, payload: JSONObject, *, source: str
    ) -> Exchange:
        """One hook's run by hand (the composer, replay), read as Gemini CLI reads a run."""
        hook = next((h for h in self.hooks if h.name == name and h.spec.event == event), None)
        if hook is None:
            raise KeyError(f"no hook {name!r} on {event}")
        env = _session_env(payload, self.project_dir)
        run = await self._run(hook, event, payload, source, None, env, None, by_hand=True)
        return run.exchange

    async def _run(
        self,
        hook: CommandHook,
        event: str,
        payload: JSONObject,
        source: str,
        turn: str | None,
        env: Mapping[str, str],
        cwd: str | None,
        *,
        by_hand: bool = False,
    ) -> HookRun:
        runnable = self._expanded(hook, env)
        exchange, run = await GatedCommandHook(runnable, self.gate, in_chain=not by_hand).call(
            payload, source=source, turn=turn, env=env, cwd=cwd
        )
        answer = read_answer(run)
        findings = [*exchange.findings, *run_findings(event, run, answer)]
        self.journal.amend(exchange, action=answer.action, findings=findings)
        return HookRun(hook.name, exchange, answer)

    def _expanded(self, hook: CommandHook, env: Mapping[str, str]) -> CommandHook:
        """The hook with its command's variables replaced as Gemini CLI replaces them."""
        command = expand_command(hook.spec.command, env)
        if command == hook.spec.command:
            return hook
        spec = replace(hook.spec, command=command)
        return CommandHook(spec, self.journal, self.shell, cwd=hook.cwd, env=hook.env)

    async def _ask(
        self, outcome: EventOutcome, turn: str | None, ask_by: float | None, live: bool
    ) -> EventOutcome:
        """The person decides a BeforeTool the hooks asked about: allow, deny (with why), or
        for a live Gemini CLI its own confirmation dialog (the answer stays `ask`)."""
        payload = outcome.payload
        resolution = await ask_the_person(
            self.approvals,
            event=outcome.event,
            payload=payload,
            askers=[run for run in outcome.runs if run.answer.action == "ask"],
            tool=str(payload.get("tool_name") or ""),
            arguments=outcome.tool_input or payload.get("tool_input"),
            earlier=earlier_answers(outcome.runs),
            turn=turn,
            timeout_ms=self.ask_timeout_ms,
            ask_by=ask_by,
            agent_asks=AGENT if live else "",
        )
        if resolution.verdict == ASK_AGENT:
            return replace(outcome, by=(resolution.by,))
        decided = dict(outcome.merged or {})
        if resolution.approved:
            decided["decision"] = "allow"
        else:
            decided |= {"decision": "deny", "reason": resolution.reason}
        return replace(outcome, merged=decided, by=(resolution.by,))

    def _record(self, outcome: EventOutcome, source: str, turn: str | None) -> None:
        chain = [chain_entry(run.hook, run.answer.action, run.exchange) for run in outcome.runs]
        chain += [duplicate_entry(hook, kept) for hook, kept in outcome.duplicates]
        deciders = list(outcome.by) or [
            run.hook for run in outcome.runs if run.answer.action == outcome.verdict
        ]
        decision = event_decision(
            outcome.event,
            outcome.payload,
            verdict=outcome.verdict,
            by=deciders,
            reason=outcome.reason if outcome.stopped or outcome.blocked else "",
            source=source,
            turn=turn,
            chain=chain,
        )
        self.journal.append(decision)


def with_tool_input(outcome: EventOutcome, tool_input: JSONObject) -> EventOutcome:
    """`outcome` answering `tool_input` as the arguments the call runs with."""
    merged = dict(outcome.merged or {})
    specific = merged.get("hookSpecificOutput")
    merged["hookSpecificOutput"] = {
        **(specific if isinstance(specific, dict) else {}),
        "tool_input": tool_input,
    }
    return replace(outcome, merged=merged)


def hook_key(spec: CommandHookSpec) -> tuple[str, str]:
    """What Gemini CLI runs once per event (getHookKey: its name and its command): the spec's
    name without the `#2` config.py adds to a repeated one, and the command."""
    base, _, count = spec.name.rpartition("#")
    return (base if base and count.isdigit() else spec.name, spec.command)


def run_failed(exchange: Exchange) -> bool:
    """A run that gave Gemini CLI no answer and did not exit 0 (an exit 2 with a reason is an
    answer: it blocks)."""
    return exchange.action == ERROR


def next_input(event: str, payload: JSONObject, output: JSONObject) -> JSONObject:
    """What the next hook of a sequential chain gets after one answered `output`."""
    specific = output.get("hookSpecificOutput")
    if not isinstance(specific, dict):
        return payload
    changed = dict(payload)
    if event == BEFORE_AGENT and isinstance(specific.get("additionalContext"), str):
        if "prompt" in changed:
            changed["prompt"] = f"{changed['prompt']}\n\n{specific['additionalContext']}"
    elif event == BEFORE_MODEL:
        changed["llm_request"] = _merged(changed.get("llm_request"), specific.get("llm_request"))
    elif event == BEFORE_TOOL:
        changed["tool_input"] = _merged(changed.get("tool_input"), specific.get("tool_input"))
    return changed


def _merged(current: object, change: object) -> object:
    """`change`'s keys over `current`'s, when both are objects; else `current` as it was."""
    if isinstance(current, dict) and isinstance(change, dict):
        return {**current, **change}
    return current


def expand_command(command: str, env: Mapping[str, str]) -> str:
    """`$GEMINI_PROJECT_DIR` and its kin replaced by their values, shell-quoted."""
    for name in EXPANDED:
        if name in env:
            command = command.replace(f"${name}", shlex.quote(env[name]))
    if "CLAUDE_PROJECT_DIR" in env:
        command = command.replace("$CLAUDE_PROJECT_DIR", shlex.quote(env["CLAUDE_PROJECT_DIR"]))
    return command


def _session_env(payload: JSONObject, project_dir: str) -> dict[str, str]:
    session = str(payload.get("session_id") or "")
    cwd = str(payload.get("cwd") or project_dir)
    return GeminiSession(session, cwd).env()
