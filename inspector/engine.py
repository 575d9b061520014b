"""The facade over the core: everything the CLI and the TUI can do, a test can do here too.
The engine holds a journal, the intercept gate, the people's approvals, and one runtime that
runs the config's hooks by its host's rules; it never knows which host that is."""

from __future__ import annotations

import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.registry import host_named
from inspector.hosts.relayed_turns import SessionTurns
from inspector.hosts.runtime import Reapplied, Runtime
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter
from inspector.journal.records import Exchange, Reload
from inspector.pipeline.gate import AT_HOOK, Gate, Held, Predicate, split_target


class Engine:
    """Owns one session: its journal, its intercept `gate` (every call from a chain or the
    composer reaches a hook through it), the `approvals` people answer, and the `runtime` that
    runs the hooks."""

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
        self.journal = journal or Journal()
        self.journal.host = config.host
        self.writer = (
            JsonlWriter(journal_path).attach(self.journal, as_store=store_on_disk)
            if journal_path
            else None
        )
        self.restart_crashed = restart_crashed
        self.gate = Gate(self.journal)
        self.approvals = Approvals()
        self.intercept_expression: str | None = None
        self.runtime = self._runtime_for(config)
        self._hookless: dict[str, Runtime] = {}
        self.relayed_turns = SessionTurns()  # the turn each relayed call belongs to

    @property
    def config(self) -> Config:
        """The config the session's hooks run by (its runtime's: a reload replaces it)."""
        return self.runtime.config

    def own_runtime(self, host_name: str) -> Runtime | None:
        """The session's runtime if it runs `host_name`'s hooks, else None: a relay of another
        agent than the config's has no hooks of its host behind it."""
        return self.runtime if self.runtime.host_name == host_name else None

    def runtime_of(self, host_name: str) -> Runtime:
        """The session's runtime if it is `host_name`'s, else one of that host with no hooks, for
        a relay whose calls go through the chain's own gate (PicoClaw's: a call of another agent
        than the config's still meets the intercept and is journalled). OpenClaw has no runtime
        without its plugin folder: ValueError."""
        if (own := self.own_runtime(host_name)) is not None:
            return own
        if host_name not in self._hookless:
            self._hookless[host_name] = self._runtime_for(Config((), host=host_name))
        return self._hookless[host_name]

    def _runtime_for(self, config: Config) -> Runtime:
        host = host_named(config.host)
        return host.runtime(
            config, self.journal, self.approvals, self.gate, restart_crashed=self.restart_crashed
        )

    async def __aenter__(self) -> Engine:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Start every enabled hook (a process hook handshakes; all at once). One that does not
        come up says why in the journal."""
        await self.runtime.start()

    async def stop(self) -> None:
        self.gate.close()
        self.approvals.close()
        await self.runtime.stop()
        for hookless in self._hookless.values():
            await hookless.stop()
        if self.writer is not None:
            self.writer.close()
        self.journal.records.close()  # a read after this opens the file again

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
        changed or whose script is in `changed_hooks`, and leave every other hook alone. A
        config of another host replaces the runtime."""
        started = time.perf_counter()
        if config.host == self.runtime.host_name:
            changes = await self.runtime.apply(config, changed_hooks)
        else:
            changes = await self._switch_runtime(config)
        return self.journal.append(
            Reload(
                files=sorted(files),
                added=changes.added,
                removed=changes.removed,
                restarted=changes.restarted,
                unchanged=changes.unchanged,
                duration_ms=round((time.perf_counter() - started) * 1000, 3),
                trigger=trigger,
                failed=changes.failed,
            )
        )

    async def _switch_runtime(self, config: Config) -> Reapplied:
        """Another host's config: the old runtime stops first, so its hooks' last records still
        name its host, and the new one starts (a switch is rare; a gap in it costs nothing)."""
        old, before = self.runtime, self.runtime.hook_names()
        await old.stop()
        stale = self._hookless.pop(config.host, None)
        if stale is not None:
            await stale.stop()
        self.journal.host = config.host
        self.runtime = self._runtime_for(config)
        failed = await self.runtime.start()
        return Reapplied(added=self.runtime.hook_names(), removed=before, failed=failed)

    def reload_failed(self, error: str, *, files: Collection[str] = (), trigger: str) -> Reload:
        """A config that does not parse changes nothing; the journal says why."""
        unchanged = self.runtime.hook_names()
        return self.journal.append(
            Reload(files=sorted(files), unchanged=unchanged, error=error, trigger=trigger)
        )

    # ---- sending by hand -------------------------------------------------------------------

    async def send_to_hook(
        self, hook_name: str, method: str, params: Any, *, source: str = "composer"
    ) -> Exchange:
        """One request to one hook, outside the chain's rules. For a command hook, `method` is
        the event and `params` its stdin context; for an OpenClaw plugin's handler, the hook's
        name and {"event", "ctx"}."""
        return await self.runtime.send(hook_name, method, params, source=source)

    async def send_through_pipeline(
        self, method: str, params: dict[str, Any], *, source: str = "composer"
    ) -> object:
        """A request through every hook that takes it, as the host would send it: a PicoClaw
        stage (or a runtime event, to every observer of its kind), a command host's event, an
        OpenClaw hook with {"event", "ctx"}. What comes back is the host's own result."""
        return await self.runtime.fire(method, params, source=source)

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


def _everything(_exchange: Exchange) -> bool:
    return True
