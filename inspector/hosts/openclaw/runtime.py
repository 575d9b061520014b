"""OpenClaw's runtime: the plugin folder loaded into a Node harness, whose registered handlers
the session fires by OpenClaw's order and merge. A reload loads the plugin into a new harness,
ready before the old one stops, as OpenClaw's `plugins reload` would."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from inspector.config.model import Config
from inspector.hooks.approvals import Approvals
from inspector.hosts.openclaw.approvals import PromptApprover
from inspector.hosts.openclaw.chain import OpenClawPlugin, run_failed
from inspector.hosts.openclaw.templates import sample
from inspector.hosts.openclaw.turn import OpenClawTurnRunner
from inspector.hosts.probe import HookReport
from inspector.hosts.runtime import ComposerOffer, Reapplied, Unreplayable
from inspector.journal.journal import Journal
from inspector.journal.records import (
    Event,
    Exchange,
    Lifecycle,
    Stderr,
)
from inspector.pipeline.gate import Gate


class OpenClawRuntime:
    def __init__(self, config: Config, journal: Journal, approvals: Approvals, gate: Gate) -> None:
        self.config = config
        self.journal = journal
        self.approvals = approvals
        self.gate = gate
        self.plugin = self._load(config)
        self._reports: list[HookReport] = []

    def _load(self, config: Config) -> OpenClawPlugin:
        if config.plugin is None:
            raise ValueError("an OpenClaw session needs a plugin folder")
        return OpenClawPlugin(
            config.plugin, self.journal, PromptApprover(self.approvals), self.gate
        )

    @property
    def host_name(self) -> str:
        return self.config.host

    async def start(self) -> list[str]:
        return [] if await self.plugin.start() else [self.plugin.plugin.id]

    async def stop(self) -> None:
        await self.plugin.stop()

    async def apply(self, config: Config, changed_hooks: Collection[str]) -> Reapplied:
        old, self.config = self.plugin, config
        self.plugin = self._load(config)
        up = await self.plugin.start()
        await old.stop()
        name = [self.plugin.plugin.id]
        return Reapplied(restarted=name, failed=[] if up else name)

    def hook_names(self) -> list[str]:
        """The plugin, by its id: a reload starts, restarts or keeps it whole."""
        return [self.plugin.plugin.id]

    def composer(self) -> ComposerOffer:
        """An OpenClaw hook's {"event", "ctx"}, to one handler or to all of the hook's."""
        return ComposerOffer(
            hooks=self.plugin.handler_names(),
            methods=self.plugin.hook_names,
            template=self.plugin.template,
            chain_methods=self.plugin.hook_names,
            refuses=lambda _handler, _hook, _request: None,
            request='{"event", "ctx"} object',
        )

    async def send(self, hook: str, method: str, params: Any, *, source: str) -> Exchange:
        """`hook` names a handler, `method` the OpenClaw hook, `params` its {"event", "ctx"}."""
        return await self.plugin.send_to_handler(hook, method, params, source=source)

    async def fire(self, method: str, params: dict[str, Any], *, source: str) -> object:
        event, ctx = params.get("event", {}), params.get("ctx", {})
        return await self.plugin.fire(method, event, ctx, source=source)

    async def settle(self) -> None:
        return None  # every handler's call is awaited by the hook that fired it

    def turn_runner(self) -> OpenClawTurnRunner:
        return OpenClawTurnRunner(self.plugin)

    def unreplayable(self, recorded: Exchange) -> Unreplayable | None:
        if self.plugin.has_handler(recorded.hook, recorded.method):
            return None
        note = f"no handler {recorded.hook!r} for {recorded.method} in the plugin"
        return Unreplayable("missing hook", note)

    def one_liner(self, exchange: Exchange) -> str | None:
        return None  # a handler is a function inside the plugin, not a command

    # ---- check -----------------------------------------------------------------------------

    async def probe(self, source: str) -> None:
        """Each hook the plugin registered, fired once with a sample event: one report for the
        plugin, since its handlers share one process."""
        plugin = self.plugin
        report = HookReport(plugin.plugin.id, self.journal.host, plugin.hook_names, "hooks")
        for hook_name in plugin.hook_names:
            event, ctx = sample(hook_name)
            await plugin.fire(hook_name, event, ctx, source=source)
            report.probed.append(hook_name)
        report.records = [
            record
            for record in self.journal.records
            if isinstance(record, (Exchange, Event, Lifecycle, Stderr))
            and record.host == self.journal.host
        ]
        report.failed = [r for r in report.records if isinstance(r, Exchange) and run_failed(r)]
        report.never_ready = not any(
            isinstance(record, Lifecycle) and record.state == "ready" for record in report.records
        )
        self._reports = [report]

    def reports(self) -> list[HookReport]:
        return self._reports
