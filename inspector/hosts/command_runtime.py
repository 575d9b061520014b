"""The runtime of a host whose hooks are commands (j-cli, Claude Code): one process per call, so
nothing to start or stop; a session is the host's chain over the config's hooks, rebuilt when
the config changes. Each such host gives the chain; everything else is the same for all."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace
from typing import Any

from inspector.config.model import CommandHookSpec, Config
from inspector.hooks.command_hook import CommandHook
from inspector.hooks.http_hook import HttpHook
from inspector.hosts.host import CommandChain
from inspector.hosts.probe import HookReport
from inspector.hosts.runtime import ComposerOffer, Reapplied, TurnRunner, Unreplayable
from inspector.journal.journal import Journal
from inspector.journal.records import FAILED, Exchange, Lifecycle
from inspector.pipeline.gate import Gate

# The chain over a config's command hooks, its runs held at `gate` (None: never held).
ChainMaker = Callable[[Config, Gate | None], CommandChain]

_NAME_LIST = re.compile(r"[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*")  # Bash, Edit|Write


class CommandRuntime:
    def __init__(
        self, host_name: str, config: Config, journal: Journal, gate: Gate, chain: ChainMaker
    ) -> None:
        self._host_name = host_name
        self.config = config
        self.journal = journal
        self.gate = gate
        self._make_chain = chain
        self.chain = chain(config, gate)
        self._reports: list[HookReport] = []

    @property
    def host_name(self) -> str:
        return self._host_name

    async def start(self) -> list[str]:
        """A command hook runs when an event fires, not before; a hook the inspector cannot run
        says so, with why, once."""
        self._say_unrunnable(self._unrunnable())
        return []

    async def stop(self) -> None:
        return None

    async def apply(self, config: Config, changed_hooks: Collection[str]) -> Reapplied:
        """A new chain is all a reload needs; hooks whose spec or script changed count as
        restarted."""
        before = {hook.name: hook.spec for hook in self.hooks()}
        said = {spec.name for spec in self._unrunnable()}
        self.config = config
        self.chain = self._make_chain(config, self.gate)
        self._say_unrunnable([spec for spec in self._unrunnable() if spec.name not in said])
        after = {hook.name: hook.spec for hook in self.hooks()}
        changed = {name for name in after if name in before and before[name] != after[name]}
        restarted = sorted(changed | (set(changed_hooks) & before.keys() & after.keys()))
        return Reapplied(
            added=sorted(after.keys() - before.keys()),
            removed=sorted(before.keys() - after.keys()),
            restarted=restarted,
            unchanged=sorted(after.keys() & before.keys() - set(restarted)),
        )

    def _unrunnable(self) -> list[CommandHookSpec]:
        """The config's hooks the inspector cannot run (Claude Code's prompt, agent and
        mcp_tool handlers): listed, never run."""
        return [spec for spec in self.config.command_hooks if spec.cannot_run]

    def _say_unrunnable(self, specs: Iterable[CommandHookSpec]) -> None:
        for spec in specs:
            detail = f"cannot run here ({spec.handler} handler): {spec.cannot_run}"
            self.journal.append(Lifecycle(hook=spec.name, state=FAILED, detail=detail))

    def hooks(self) -> list[CommandHook | HttpHook]:
        return list(self.chain.hook_list())

    def hook_names(self) -> list[str]:
        return sorted({hook.name for hook in self.hooks()})

    def composer(self) -> ComposerOffer:
        """An event and its stdin context, not a JSON-RPC method."""
        events = sorted({hook.spec.event for hook in self.hooks()})
        return ComposerOffer(
            hooks=self.hook_names(),
            methods=events,
            template=self.chain.context_template,
            chain_methods=events,
            refuses=lambda _hook, _event, _context: None,
            request="hook input (the JSON on the hook's stdin)",
        )

    def _hook(self, name: str, event: str) -> CommandHook | HttpHook | None:
        return next((h for h in self.hooks() if h.name == name and h.spec.event == event), None)

    async def send(self, hook: str, method: str, params: Any, *, source: str) -> Exchange:
        return await self.chain.send_one(hook, method, params, source=source)

    async def fire(self, method: str, params: dict[str, Any], *, source: str) -> object:
        return await self.chain.fire(method, params, source=source)

    async def settle(self) -> None:
        return None  # every run is awaited by the event that fired it

    def turn_runner(self) -> TurnRunner:
        return self.chain.turn_runner()

    def unreplayable(self, recorded: Exchange) -> Unreplayable | None:
        if self._hook(recorded.hook, recorded.method) is not None:
            return None
        unrunnable = next((s for s in self._unrunnable() if s.name == recorded.hook), None)
        if unrunnable is not None:
            note = f"{recorded.hook} cannot run here: {unrunnable.cannot_run}"
            return Unreplayable("skipped", note)
        if recorded.by_command:
            note = f"no command hook {recorded.hook!r} on {recorded.method} in the config"
        else:
            note = f"no hook {recorded.hook!r} in the config"
        return Unreplayable("missing hook", note)

    def one_liner(self, exchange: Exchange) -> str | None:
        """The same stdin into the same command, through its shell (an http hook: the same
        body POSTed with curl)."""
        hook = next((h for h in self.hooks() if h.name == exchange.hook), None)
        if hook is None or exchange.raw_request is None:
            return None
        return hook.one_liner(exchange.raw_request)

    # ---- check -----------------------------------------------------------------------------

    async def probe(self, source: str) -> None:
        """Each hook once per event it listens to, in a chain of its own: in the full chain an
        earlier j-cli hook's stop or skip would keep it from running, and Claude Code runs
        identical commands once."""
        by_name: dict[str, list[CommandHookSpec]] = {}
        for hook in self.hooks():  # a j-cli hook may listen to several events
            by_name.setdefault(hook.name, []).append(hook.spec)
        self._reports = [await self._probe(specs, source) for specs in by_name.values()]
        unrunnable = self._unrunnable()
        if unrunnable:  # named in config order among the others
            self._reports += [self._cannot_probe(spec) for spec in unrunnable]
            order = {spec.name: spec.priority for spec in self.config.command_hooks}
            self._reports.sort(key=lambda report: order.get(report.name, 0))

    def reports(self) -> list[HookReport]:
        return self._reports

    def _cannot_probe(self, spec: CommandHookSpec) -> HookReport:
        """A hook the inspector cannot run (a Claude Code prompt, agent or mcp_tool handler),
        named in the report with why: it counts as not checked."""
        report = HookReport(spec.name, self.journal.host, [spec.event], "events")
        report.cannot_run = spec.cannot_run
        report.not_probed[spec.event] = "never run here"
        return report

    async def _probe(self, specs: list[CommandHookSpec], source: str) -> HookReport:
        name = specs[0].name
        alone = self._make_chain(replace(self.config, hooks=tuple(specs)), None)
        report = HookReport(name, self.journal.host, [spec.event for spec in specs], "events")
        for spec in specs:
            start = len(self.journal.records)
            context = _fitting(alone.context_template(spec.event), spec)
            await alone.fire(spec.event, context, source=source)
            runs = [
                record
                for record in self.journal.records[start:]
                if isinstance(record, Exchange) and record.hook == name
            ]
            if runs:
                report.probed.append(spec.event)
            else:
                report.not_probed[spec.event] = "its filter takes none of the sample tools"
            report.records += runs
            report.failed += [run for run in runs if alone.run_failed(run)]
        return report


def _fitting(context: dict[str, Any], spec: CommandHookSpec) -> dict[str, Any]:
    """The event's context with a tool and a model the hook's filter lets through."""
    fitted = dict(context)
    names = _tool_names(spec)
    if "tool_name" in fitted and names:
        fitted["tool_name"] = names[0]
    model = fitted.get("model")
    if spec.model_prefix is not None and isinstance(model, str):
        fitted["model"] = model if model.startswith(spec.model_prefix) else spec.model_prefix
    return fitted


def _tool_names(spec: CommandHookSpec) -> list[str]:
    """The tool names a filter lists; none for a filter that takes every tool or a pattern."""
    listed: Iterable[str | None] = (spec.tool_name, spec.tool_matcher, spec.matcher)
    for names in listed:
        if names is not None and _NAME_LIST.fullmatch(names.replace(" ", "")):
            return names.replace(" ", "").split("|")
    return []
