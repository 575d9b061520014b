"""The facade over the core: everything the CLI and the TUI can do, a test can do here too."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

from inspector.config.model import Config, HookSpec
from inspector.hooks.approvals import Approvals
from inspector.hooks.command_hook import CommandHook
from inspector.hooks.manual import ManualHook
from inspector.hosts.host import CommandChain, Fired
from inspector.hosts.openclaw.approvals import PromptApprover
from inspector.hosts.openclaw.host_mode import OpenClawPlugin
from inspector.hosts.openclaw.host_mode_merge import Merge
from inspector.hosts.picoclaw.answers import settle_answer
from inspector.hosts.picoclaw.pipeline import Pipeline
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.hosts.registry import host_named
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter
from inspector.journal.records import Exchange, Reload
from inspector.pipeline.gate import (
    AT_HOOK,
    Gate,
    GatedCommandHook,
    GatedHook,
    Held,
    Predicate,
    split_target,
)
from inspector.pipeline.hook import Hook, LiveHook
from inspector.pipeline.results import ApprovalResult, StageResult
from inspector.protocol.stages import STAGE_FOR_METHOD


class Engine:
    """Owns the hook processes, the pipeline and the journal of one session.

    `hooks` are the hooks themselves (their state and counters); every call from the pipeline or
    the composer reaches them through the intercept `gate`. Manual hooks ask `approvals`."""

    def __init__(
        self,
        config: Config,
        *,
        journal: Journal | None = None,
        journal_path: str | Path | None = None,
        restart_crashed: bool = True,
        store_on_disk: bool = False,
    ) -> None:
        """`store_on_disk`: the journal file is also the journal's store, so records written to
        it leave memory (a long headless session; the UI's lists still hold their rows)."""
        self.config = config
        self.journal = journal or Journal()
        self.journal.host = config.host
        self.writer = (
            JsonlWriter(journal_path).attach(self.journal, as_store=store_on_disk)
            if journal_path
            else None
        )
        self.restart_crashed = restart_crashed
        self.hooks: dict[str, LiveHook] = {}
        self.gate = Gate(self.journal)
        self.approvals = Approvals()
        self.intercept_expression: str | None = None
        self.pipeline = Pipeline(
            self.journal, config.defaults, self._gated_hooks, entry=self.gate.enter_stage
        )
        self.commands: CommandChain | None = self._command_chain(config)
        self.plugin = self._make_plugin(config)
        self._retiring: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> Engine:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Start every enabled hook and handshake with all of them at once."""
        for spec in self.config.enabled_hooks:
            self.hooks[spec.name] = self._make_hook(spec)
        await asyncio.gather(*(hook.start() for hook in self.hooks.values()))
        if self.plugin is not None:
            await self.plugin.start()

    async def stop(self) -> None:
        self.gate.close()
        self.approvals.close()
        await self.pipeline.close()
        await asyncio.gather(*(hook.stop() for hook in self.hooks.values()), *self._retiring)
        if self.plugin is not None:
            await self.plugin.stop()
        if self.writer is not None:
            self.writer.close()
        self.journal.records.close()  # a read after this opens the file again

    def _make_hook(self, spec: HookSpec) -> LiveHook:
        if spec.kind == "manual":
            return ManualHook(spec, self.journal, self.approvals)
        return ProcessHook(spec, self.journal, self.config.defaults, restart=self.restart_crashed)

    def _make_plugin(self, config: Config) -> OpenClawPlugin | None:
        if config.plugin is None:
            return None
        return OpenClawPlugin(
            config.plugin, self.journal, PromptApprover(self.approvals), self.gate
        )

    def _gated_hooks(self) -> list[Hook]:
        return [GatedHook(hook, self.gate) for hook in self.hooks.values()]

    # ---- reload ----------------------------------------------------------------------------

    async def apply_config(
        self,
        config: Config,
        *,
        changed_hooks: Collection[str] = (),
        files: Collection[str] = (),
        trigger: str = "watch",
    ) -> Reload:
        """Follow a new config: start added hooks, stop removed ones, restart those whose spec
        changed or whose script is in `changed_hooks`, and leave every other process alone.
        A replacement is ready before it takes new calls; the old process finishes (or fails)
        the calls it already has while it is stopped in the background."""
        started = time.perf_counter()
        if config.plugin is not None:
            return await self._apply_plugin(config, files, trigger, started)
        if config.command_hooks or self.commands is not None:
            return self._apply_command_config(config, changed_hooks, files, trigger, started)
        wanted = {spec.name: spec for spec in config.enabled_hooks}
        added = [name for name in wanted if name not in self.hooks]
        removed = [name for name in self.hooks if name not in wanted]
        restarted = [
            name
            for name in wanted
            if name in self.hooks
            and (self.hooks[name].spec != wanted[name] or name in changed_hooks)
        ]
        unchanged = [name for name in wanted if name in self.hooks and name not in restarted]
        self.config = config
        self.pipeline.defaults = config.defaults
        for name in unchanged:
            self.hooks[name].follow(config.defaults)
        fresh = {name: self._make_hook(wanted[name]) for name in added + restarted}
        ready = await asyncio.gather(*(hook.start() for hook in fresh.values()))
        retired = [self.hooks[name] for name in removed + restarted]
        self.hooks = {name: fresh.get(name) or self.hooks[name] for name in wanted}
        for hook in retired:
            self._retire(hook)
        return self.journal.append(
            Reload(
                files=sorted(files),
                added=added,
                removed=removed,
                restarted=restarted,
                unchanged=unchanged,
                duration_ms=round((time.perf_counter() - started) * 1000, 3),
                trigger=trigger,
                failed=[name for name, up in zip(fresh, ready, strict=True) if not up],
            )
        )

    async def _apply_plugin(
        self, config: Config, files: Collection[str], trigger: str, started: float
    ) -> Reload:
        """An OpenClaw plugin's code lives in its Node process: a reload loads it into a new
        one, ready before the old one stops, as OpenClaw's `plugins reload` would."""
        old, self.config = self.plugin, config
        self.plugin = self._make_plugin(config)
        up = self.plugin is not None and await self.plugin.start()
        if old is not None:
            await old.stop()
        name = [config.plugin.id] if config.plugin else []
        return self.journal.append(
            Reload(
                files=sorted(files),
                restarted=name if old is not None else [],
                added=name if old is None else [],
                duration_ms=round((time.perf_counter() - started) * 1000, 3),
                trigger=trigger,
                failed=[] if up else name,
            )
        )

    def _apply_command_config(
        self,
        config: Config,
        changed_hooks: Collection[str],
        files: Collection[str],
        trigger: str,
        started: float,
    ) -> Reload:
        """Command hooks keep no process between calls: a new host is all a reload needs.
        Hooks whose spec or script changed count as restarted."""
        before = {hook.name: hook.spec for hook in self.command_hooks()}
        self.config = config
        self.commands = self._command_chain(config)
        after = {hook.name: hook.spec for hook in self.command_hooks()}
        changed = {name for name in after if name in before and before[name] != after[name]}
        restarted = sorted(changed | (set(changed_hooks) & before.keys() & after.keys()))
        return self.journal.append(
            Reload(
                files=sorted(files),
                added=sorted(after.keys() - before.keys()),
                removed=sorted(before.keys() - after.keys()),
                restarted=restarted,
                unchanged=sorted(after.keys() & before.keys() - set(restarted)),
                duration_ms=round((time.perf_counter() - started) * 1000, 3),
                trigger=trigger,
            )
        )

    def command_hooks(self) -> list[CommandHook]:
        return self.commands.hook_list() if self.commands is not None else []

    def _command_chain(self, config: Config) -> CommandChain | None:
        """The chain that runs `config`'s command hooks, its runs held at the intercept gate."""
        host = host_named(config.host)
        return host.command_chain(config, self.journal, self.approvals, self.gate)

    def reload_failed(self, error: str, *, files: Collection[str] = (), trigger: str) -> Reload:
        """A config that does not parse changes nothing; the journal says why."""
        return self.journal.append(
            Reload(files=sorted(files), unchanged=list(self.hooks), error=error, trigger=trigger)
        )

    def _retire(self, hook: LiveHook) -> None:
        task = asyncio.create_task(hook.stop())
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    # ---- sending by hand -------------------------------------------------------------------

    async def send_to_hook(
        self, hook_name: str, method: str, params: Any, *, source: str = "composer"
    ) -> Exchange:
        """One request to one hook, outside any pipeline semantics. For a command hook,
        `method` is the event and `params` its stdin context; for an OpenClaw plugin's handler,
        the hook's name and {"event", "ctx"}."""
        if self.plugin is not None:
            return await self.plugin.send_to_handler(hook_name, method, params, source=source)
        command = next(
            (h for h in self.command_hooks() if h.name == hook_name and h.spec.event == method),
            None,
        )
        if command is not None:
            gated = GatedCommandHook(command, self.gate, in_chain=False)
            exchange, _run = await gated.call(params, source=source)
            return exchange
        hook = GatedHook(self.hooks[hook_name], self.gate, in_chain=False)
        exchange = await hook.call(
            method, params, timeout_ms=self.timeout_for(method), source=source, turn=None
        )
        stage = STAGE_FOR_METHOD.get(method)
        if stage is not None and isinstance(params, dict):
            settle_answer(self.journal, stage, exchange, params)
        return exchange

    async def send_through_pipeline(
        self, method: str, params: dict[str, Any], *, source: str = "composer"
    ) -> StageResult | ApprovalResult | Fired | Merge:
        """A stage request through every hook that intercepts it, as the host would send it;
        for command hooks, the event fired through their host's rules; for an OpenClaw plugin,
        `params` is {"event", "ctx"} for the hook named `method`."""
        if self.plugin is not None:
            event, ctx = params.get("event", {}), params.get("ctx", {})
            return await self.plugin.fire(method, event, ctx, source=source)
        if self.commands is not None:
            return await self.commands.fire(method, params, source=source)
        stage = STAGE_FOR_METHOD[method]
        if stage == "approve_tool":
            return await self.pipeline.approve_tool(params, source=source, turn="")
        handler = getattr(self.pipeline, stage)
        result: StageResult = await handler(params, source=source, turn="")
        return result

    async def send_event(self, event: dict[str, Any], *, source: str = "composer") -> None:
        """A runtime event as the host emits it: to every observer that takes its kind."""
        await self.pipeline.emit_event(event, source=source)

    # ---- intercept -------------------------------------------------------------------------

    def set_intercept(self, expression: str | None) -> None:
        """Hold the calls that match a filter expression, at each stage's entry, or on their way
        to each hook after an `@hook` prefix; None or blank holds nothing new. A bad expression
        raises inspector.filter.FilterError (or InterceptTargetError) and keeps the previous one."""
        if expression is None or not expression.strip():
            self.set_intercept_predicate(None)
            return
        from inspector.filter import FilterError, compile_filter  # lazily: only intercepting

        at, rest = split_target(expression)
        try:
            predicate = compile_filter(rest) if rest else _everything
        except FilterError as error:  # count the column in what was typed, '@hook ' included
            offset = len(expression.rstrip()) - len(rest)
            raise FilterError(error.message, error.position + offset) from None
        self.set_intercept_predicate(predicate, expression.strip(), at=at)

    def set_intercept_predicate(
        self, predicate: Predicate | None, expression: str = "", *, at: str = AT_HOOK
    ) -> None:
        """Hold what `predicate` matches, `at` the stage's entry or each hook."""
        self.gate.predicate = predicate
        self.gate.at = at
        self.intercept_expression = expression or None

    @property
    def held(self) -> list[Held]:
        return self.gate.held

    def forward(self, seq: int, params: Any = None) -> bool:
        return self.gate.forward(seq, params)

    def drop(self, seq: int) -> bool:
        return self.gate.drop(seq)

    def forward_all(self) -> int:
        return self.gate.forward_all()

    def clear_intercept(self) -> int:
        self.intercept_expression = None
        return self.gate.clear()

    # ---- timeouts --------------------------------------------------------------------------

    def timeout_for(self, method: str) -> int:
        stage = STAGE_FOR_METHOD.get(method)
        if stage == "approve_tool":
            return self.config.defaults.approval_timeout_ms
        if stage is None:
            return self.config.defaults.handshake_timeout_ms
        return self.config.defaults.interceptor_timeout_ms


def _everything(_exchange: Exchange) -> bool:
    return True
