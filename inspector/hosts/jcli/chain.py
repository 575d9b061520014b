"""j-cli's hook chain (`HookManager::execute`, j-agent G4), run over real command hooks.

For one event: hooks run in level order (builtin, user, project, session), each seeing the
context as the hooks before it changed it. A hook is skipped when disabled or when its filter does
not match. A failed run is retried at once `retry` times; when every attempt failed, on_error
decides: skip goes on with the next hook, stop (or abort) ends the chain with `action: stop`.
A stop or skip from a hook ends the chain and throws away every change made before it. The chain
has a budget (30 s) checked before each hook and each attempt; it never interrupts a running hook.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from inspector.config.model import CommandHookSpec
from inspector.config.warning import ConfigWarning
from inspector.findings.command import stdin_unread
from inspector.findings.finding import Finding
from inspector.hooks.command_hook import CommandHook
from inspector.hooks.run_command import CommandRun
from inspector.hosts.jcli.chain_result import ChainResult, HookRun
from inspector.hosts.jcli.events import CONTEXT_FIELDS, LEVELS, filter_never_matches
from inspector.hosts.jcli.findings import command_not_found, exit_2, finding, path_reset
from inspector.hosts.jcli.result import KEPT_ON_HALT, ResultRead, halt, merge, read_result
from inspector.hosts.jcli.templates import context_template
from inspector.hosts.jcli.turn import JcliTurnRunner
from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_INVALID,
    STATUS_NOT_SENT,
    STATUS_OK,
    Decision,
    Exchange,
)
from inspector.pipeline.gate import Gate, GatedCommandHook

JSONObject = dict[str, Any]

DEFAULT_BUDGET_S = 30.0
NOT_FOUND_EXIT = 127
SKIPPED = "skipped"
_PER_HOOK_VARIABLES = frozenset({"JCLI_HOOK_DIR", "JCLI_HOOK_EVENT"})
BUDGET_ERROR = "chain timeout"  # what j-cli's retry loop reports when the budget runs out


def default_shell() -> tuple[str, ...]:
    """How j-agent (G4) runs a command on Unix: a login bash, else a login sh."""
    return ("bash", "-lc") if shutil.which("bash") else ("sh", "-lc")


def hook_context(event: str, fields: JSONObject, cwd: str) -> JSONObject:
    """The HookContext as serde writes it: struct order, absent (None) fields left out, cwd
    always there."""
    merged = {**fields, "event": event}
    merged.setdefault("cwd", cwd)
    ordered = {key: merged[key] for key in CONTEXT_FIELDS if merged.get(key) is not None}
    extra = {key: value for key, value in merged.items() if key not in CONTEXT_FIELDS}
    return {**ordered, **extra}


def filter_matches(spec: CommandHookSpec, context: JSONObject) -> bool:
    tool = context.get("tool_name")
    if spec.tool_name is not None:
        if tool != spec.tool_name:
            return False
    elif spec.tool_matcher is not None:
        names = {piece.strip() for piece in spec.tool_matcher.split("|")}
        if tool not in names:
            return False
    model = context.get("model")
    return spec.model_prefix is None or (
        isinstance(model, str) and model.startswith(spec.model_prefix)
    )


def metrics_label(spec: CommandHookSpec) -> str:
    """j-cli's metrics key: hooks with the same label share counters."""
    return f"{Path(spec.dir).name}: {spec.command}" if spec.dir else spec.command


@dataclass(slots=True)
class HookMetrics:
    executions: int = 0  # attempts, retries included
    successes: int = 0
    failures: int = 0  # timeouts included
    skipped: int = 0  # disabled, or the filter did not match
    total_duration_ms: float = 0.0


class JcliChain:
    def __init__(
        self,
        hooks: Iterable[CommandHookSpec],
        journal: Journal,
        *,
        cwd: str | None = None,
        shell: tuple[str, ...] | None = None,
        budget_s: float = DEFAULT_BUDGET_S,
        warnings: Iterable[ConfigWarning] = (),
        gate: Gate | None = None,
    ) -> None:
        self.journal = journal
        self.gate = gate or Gate(journal)  # a gate of its own intercepts nothing
        self.cwd = cwd or os.getcwd()
        self.shell = shell or default_shell()
        self.budget_s = budget_s
        order = {level: rank for rank, level in enumerate(LEVELS)}
        specs = sorted(hooks, key=lambda spec: (order.get(spec.level, len(LEVELS)), spec.priority))
        self.hooks: dict[str, list[CommandHook]] = {}
        for spec in specs:
            env = self.hook_env(spec, spec.event)  # its own: the composer and replay run it too
            hook = CommandHook(spec, journal, self.shell, cwd=self.cwd, env=env)
            self.hooks.setdefault(spec.event, []).append(hook)
        by_label: dict[str, HookMetrics] = {}
        self.metrics: dict[str, HookMetrics] = {
            spec.name: by_label.setdefault(metrics_label(spec), HookMetrics()) for spec in specs
        }
        self._warnings: dict[str, list[Finding]] = {}
        for warning in warnings:
            if warning.hook is not None:
                self._warnings.setdefault(warning.hook, []).append(warning.finding)

    def hook_list(self) -> list[CommandHook]:
        return [hook for hooks in self.hooks.values() for hook in hooks]

    def run_failed(self, exchange: Exchange) -> bool:
        return run_failed(exchange)

    def context_template(self, event: str) -> dict[str, Any]:
        return context_template(event, self.cwd)

    def turn_runner(self) -> JcliTurnRunner:
        return JcliTurnRunner(self)

    @property
    def login_shell(self) -> bool:
        return any(arg.startswith("-") and "l" in arg for arg in self.shell[1:])

    async def fire(
        self,
        event: str,
        context: JSONObject,
        *,
        source: str,
        turn: str | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        live: bool = False,
    ) -> ChainResult:
        """Run `event`'s chain on `context`. A live j-cli's event (a relay, which the bridge
        held at its entry already) brings the user's folder `cwd`, where j-cli runs its hooks,
        and its JCLI_* variables `env`; any other first passes the intercept's stage entry,
        where a person can edit the context for every hook or drop it so that none runs."""
        hooks = self.hooks.get(event, [])
        if not hooks:
            return ChainResult(event, None)
        context = hook_context(event, context, cwd or self.cwd)
        if not live:
            entered = await self.gate.enter_event(event, context, source=source, turn=turn)
            if entered is None:
                return ChainResult(event, None)
            context = entered
        firing = _Firing(self, event, context, source, turn, _Where(cwd, live_env(env, cwd)))
        return await firing.run(hooks)

    async def send_one(
        self, name: str, event: str, context: JSONObject, *, source: str
    ) -> Exchange:
        """One hook's run by hand (the composer, replay), outside the chain's order, read as
        j-cli reads a run (its findings: a command not found, exit 2, ...); held at the gate
        whatever the intercept's target."""
        hook = next((h for h in self.hooks.get(event, []) if h.spec.name == name), None)
        if hook is None:
            raise KeyError(f"no hook {name!r} on {event}")
        firing = _Firing(self, event, context, source, None, _Where(None, live_env(None, None)))
        exchange, run = await GatedCommandHook(hook, self.gate, in_chain=False).call(
            context, source=source
        )
        firing.read(hook.spec, exchange, run)
        return exchange

    def take_warnings(self, name: str) -> list[Finding]:
        """The config warnings of a hook, once: they go on its first exchange."""
        return self._warnings.pop(name, [])

    def hook_env(self, spec: CommandHookSpec, event: str) -> dict[str, str]:
        env = {"JCLI_HOOK_EVENT": event, "JCLI_CWD": self.cwd, "JCLI_HOOK_DIR": spec.dir or ""}
        if spec.dir:
            env["PATH"] = spec.dir + os.pathsep + os.environ.get("PATH", "")
        return env


def run_failed(exchange: Exchange) -> bool:
    """j-cli counts as failed any run it read no HookResult from."""
    return exchange.status != STATUS_OK


def live_env(env: Mapping[str, str] | None, cwd: str | None) -> dict[str, str]:
    """A live j-cli's variables for the hooks behind the relay: each hook keeps its own
    JCLI_HOOK_DIR and JCLI_HOOK_EVENT; JCLI_CWD is the user's folder."""
    kept = {key: value for key, value in (env or {}).items() if key not in _PER_HOOK_VARIABLES}
    return kept | ({"JCLI_CWD": cwd} if cwd else {})


class _Where(NamedTuple):
    cwd: str | None  # None: the chain's own folder
    env: dict[str, str]


class _Firing:
    """One run of the chain for one event."""

    def __init__(
        self,
        chain: JcliChain,
        event: str,
        context: JSONObject,
        source: str,
        turn: str | None,
        where: _Where,
    ) -> None:
        self.chain = chain
        self.where = where
        self.event = event
        self.context = context
        self.source = source
        self.turn = turn
        self.started = time.monotonic()
        self.final: JSONObject = {}
        self.had_mod = False
        self.changed_by: list[str] = []
        self.runs: list[HookRun] = []
        self.outcomes: list[JSONObject] = []

    def spent(self) -> bool:
        return time.monotonic() - self.started > self.chain.budget_s

    async def run(self, hooks: list[CommandHook]) -> ChainResult:
        for index, hook in enumerate(hooks):
            if self.spent():
                for rest in hooks[index:]:
                    self.outcome(rest.spec.name, "not run: chain budget spent", "not run")
                reason = f"the {self.chain.budget_s:g} s chain budget was spent"
                return self.done(self.final if self.had_mod else None, "", reason)
            ended = await self.run_hook(hook)
            if ended is not None:
                return ended
        return self.done(self.final if self.had_mod else None)

    async def run_hook(self, hook: CommandHook) -> ChainResult | None:
        spec, metrics = hook.spec, self.chain.metrics[hook.spec.name]
        never = filter_never_matches(spec)
        if not spec.enabled or never or not filter_matches(spec, self.context):
            metrics.skipped += 1
            if never:
                self.journal_never(spec, never)
            why = "disabled" if not spec.enabled else "filter never matches" if never else "filter"
            self.outcome(spec.name, f"skipped ({why})", SKIPPED)
            return None
        error, last = "", None
        for attempt in range(1 + spec.retry):
            if self.spent():
                error = BUDGET_ERROR
                if last is not None:
                    message = f"no retry {attempt}/{spec.retry}: {error}"
                    self.chain.journal.add_findings(last, finding("jcli-chain-budget", message))
                break
            if last is not None:
                self.label(last, f"failed → retry {attempt}/{spec.retry}")
            exchange, run = await GatedCommandHook(hook, self.chain.gate).call(
                self.context,
                source=self.source,
                turn=self.turn,
                cwd=self.where.cwd,
                env=self.where.env,
            )
            read = self.read(spec, exchange, run)
            metrics.executions += 1
            metrics.total_duration_ms += run.duration_ms
            self.runs.append(HookRun(spec.name, exchange, read.result))
            retry_note = f" (retry {attempt}/{spec.retry})" if attempt else ""
            if read.result is not None:
                metrics.successes += 1
                return self.succeeded(spec, exchange, read.result, retry_note)
            metrics.failures += 1
            error, last = read.error or "failed", exchange
        return self.failed(spec, last, error)

    def read(self, spec: CommandHookSpec, exchange: Exchange, run: CommandRun) -> ResultRead:
        """The attempt as j-cli judges it, with its findings on the exchange."""
        found = self.chain.take_warnings(spec.name)
        program = (spec.command.split() or [""])[0]
        missing = run.exit_code == NOT_FOUND_EXIT and self.program_missing(spec, program)
        if run.exit_code is not None and run.ignored_stdin and not missing:
            found += stdin_unread(run.unread_stdin)
        changes: dict[str, Any] = {}
        if run.exit_code == 0:
            read = read_result(run.stdout, login_shell=self.chain.login_shell)
            if read.error is not None:
                changes.update(status=STATUS_INVALID, error=read.error)
        else:
            read = ResultRead(None, exchange.error or "failed")
            if run.exit_code == 2:
                read.findings += exit_2()
            if self.path_was_reset(spec, program, run):
                read.findings += path_reset(program, spec.dir or "")
            elif missing:
                read.findings += command_not_found(program, self.chain.cwd, spec.dir or "")
        findings = [*exchange.findings, *found, *read.findings]
        self.chain.journal.amend(exchange, findings=findings, **changes)
        return read

    def program_missing(self, spec: CommandHookSpec, program: str) -> bool:
        """The shell found no hook program to run: a path missing from the user's current
        directory, or a name on no folder of PATH and not in the hook folder. A word the shell
        would expand first ($VAR, quotes) is not judged."""
        if not program or any(char in program for char in "$'\"`~"):
            return False
        if "/" in program:
            return not (Path(self.chain.cwd) / program).exists()
        in_hook_dir = bool(spec.dir) and (Path(spec.dir or "") / program).is_file()
        return shutil.which(program) is None and not in_hook_dir

    def path_was_reset(self, spec: CommandHookSpec, program: str, run: CommandRun) -> bool:
        """A bare program name from the hook folder that the shell could not find."""
        return bool(
            spec.dir
            and self.chain.login_shell
            and run.exit_code == NOT_FOUND_EXIT
            and "/" not in program
            and (Path(spec.dir) / program).is_file()
        )

    def succeeded(
        self, spec: CommandHookSpec, exchange: Exchange, result: JSONObject, note: str
    ) -> ChainResult | None:
        action = result.get("action")
        if action is not None:
            self.note_discarded(spec, exchange, result)
            self.label(exchange, action + note)
            self.outcome(spec.name, action, exchange.status)
            reason = str(result.get("retry_feedback") or result.get("system_message") or "")
            return self.done(halt(result), spec.name, reason)
        merge(result, self.context, self.final)
        self.had_mod = True
        if result:
            self.changed_by.append(spec.name)
        label = f"merged: {', '.join(result)}" if result else "no change"
        self.label(exchange, label + note)
        self.outcome(spec.name, label, exchange.status)
        return None

    def failed(
        self, spec: CommandHookSpec, last: Exchange | None, error: str
    ) -> ChainResult | None:
        stops = spec.on_error in ("stop", "abort")
        then = f"stop (on_error: {spec.on_error})" if stops else "skip"
        failure = "failed, then the chain budget ran out" if error == BUDGET_ERROR else "failed"
        if last is not None:
            self.label(last, f"{failure} → {then}")
        self.outcome(spec.name, f"{failure} → {then}", last.status if last else "not run")
        if stops:
            return self.done({"action": "stop"}, spec.name, f"{spec.name} failed: {error}")
        return None

    def note_discarded(self, spec: CommandHookSpec, exchange: Exchange, result: JSONObject) -> None:
        own = [key for key in result if key not in KEPT_ON_HALT]
        parts = []
        if own:
            parts.append(f"this hook's {', '.join(own)}")
        if self.changed_by:
            parts.append(f"the changes of {', '.join(self.changed_by)}")
        if parts:
            message = f"{result['action']} drops {' and '.join(parts)}"
            self.chain.journal.add_findings(exchange, finding("jcli-changes-discarded", message))

    def journal_never(self, spec: CommandHookSpec, why: str) -> None:
        findings = [
            *self.chain.take_warnings(spec.name),
            finding("jcli-filter-never-matches", why),
        ]
        self.chain.journal.append(
            Exchange(
                hook=spec.name,
                method=self.event,
                request=dict(self.context),
                status=STATUS_NOT_SENT,
                error="filter can never match on this event",
                action=SKIPPED,
                source=self.source,
                turn=self.turn,
                findings=findings,
            )
        )

    def label(self, exchange: Exchange, action: str) -> None:
        self.chain.journal.amend(exchange, action=action)

    def outcome(self, name: str, action: str, status: str) -> None:
        self.outcomes.append({"hook": name, "action": action, "status": status})

    def done(self, result: JSONObject | None, by: str = "", reason: str = "") -> ChainResult:
        action = (result or {}).get("action")
        verdict = action or ("changed" if self.changed_by else "no change")
        decision = self.chain.journal.append(
            Decision(
                stage=self.event,
                verdict=verdict,
                by=by,
                reason=reason,
                source=self.source,
                turn=self.turn,
                tool=self.context.get("tool_name"),
                chain=self.outcomes,
            )
        )
        return ChainResult(self.event, result, by, self.runs, decision)
