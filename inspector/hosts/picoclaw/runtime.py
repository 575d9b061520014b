"""PicoClaw's runtime: long-lived process hooks (and manual ones, a person at the inspector)
started for the session, handshaken once, and called through PicoClaw's pipeline. A reload
restarts only the hooks whose spec or script changed; a replacement is ready before it takes
calls, and the old process finishes what it has while it stops in the background."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Collection
from typing import Any

from inspector.config.model import Config, HookSpec
from inspector.hooks.approvals import Approvals
from inspector.hosts.picoclaw import templates
from inspector.hosts.picoclaw.answers import settle_answer
from inspector.hosts.picoclaw.catalogue import METHODS
from inspector.hosts.picoclaw.chain import Pipeline
from inspector.hosts.picoclaw.decode import typed_params
from inspector.hosts.picoclaw.gojson.decode import GoDecodeError
from inspector.hosts.picoclaw.manual import ManualHook
from inspector.hosts.picoclaw.process import ProcessHook
from inspector.hosts.picoclaw.turn import TurnRunner
from inspector.hosts.probe import HookReport
from inspector.hosts.runtime import ComposerOffer, Reapplied, Unreplayable
from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_OK, Exchange, Lifecycle, Noise, Record, Stderr
from inspector.jsonrpc.stages import METHOD_FOR_STAGE, RUNTIME_EVENT, STAGE_FOR_METHOD, STAGES
from inspector.pipeline.gate import Gate, GatedHook
from inspector.pipeline.hook import Hook, LiveHook
from inspector.safe_text import one_line

REQUEST_METHODS = [name for name, spec in METHODS.items() if spec.kind == "request"]
# A runtime event goes to every observer that takes its kind, as the host sends it.
OFFERED_METHODS = [*REQUEST_METHODS, RUNTIME_EVENT]
CHAIN_METHODS = (*STAGE_FOR_METHOD, RUNTIME_EVENT)
HELLO_FOR_REPLAY = (
    '{"jsonrpc":"2.0","id":1,"method":"hook.hello",'
    '"params":{"name":"replay","version":1,"modes":[]}}'
)


def probes(spec: HookSpec) -> list[str]:
    """The methods PicoClaw would send this hook, one representative request each.
    A manual hook is a person, so there is nothing to probe."""
    if spec.kind == "manual":
        return []
    methods = [METHOD_FOR_STAGE[stage] for stage in STAGES if spec.intercepts(stage)]
    return methods + ([RUNTIME_EVENT] if spec.observe else [])


class PicoClawRuntime:
    def __init__(
        self,
        config: Config,
        journal: Journal,
        approvals: Approvals,
        gate: Gate,
        *,
        restart_crashed: bool = True,
    ) -> None:
        self.config = config
        self.journal = journal
        self.approvals = approvals
        self.gate = gate
        self.restart_crashed = restart_crashed
        self.hooks: dict[str, LiveHook] = {}
        self.pipeline = Pipeline(
            journal, config.defaults, self._gated_hooks, entry=gate.enter_stage
        )
        self._retiring: set[asyncio.Task[None]] = set()

    @property
    def host_name(self) -> str:
        return self.config.host

    async def start(self) -> list[str]:
        """Start every enabled hook and handshake with all of them at once."""
        for spec in self.config.enabled_hooks:
            self.hooks[spec.name] = self._make_hook(spec)
        ready = await asyncio.gather(*(hook.start() for hook in self.hooks.values()))
        return [name for name, up in zip(self.hooks, ready, strict=True) if not up]

    async def stop(self) -> None:
        await self.pipeline.close()
        await asyncio.gather(*(hook.stop() for hook in self.hooks.values()), *self._retiring)

    def _make_hook(self, spec: HookSpec) -> LiveHook:
        if spec.kind == "manual":
            return ManualHook(spec, self.journal, self.approvals)
        return ProcessHook(spec, self.journal, self.config.defaults, restart=self.restart_crashed)

    def _gated_hooks(self) -> list[Hook]:
        return [GatedHook(hook, self.gate) for hook in self.hooks.values()]

    async def apply(self, config: Config, changed_hooks: Collection[str]) -> Reapplied:
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
        failed = [name for name, up in zip(fresh, ready, strict=True) if not up]
        return Reapplied(added, removed, restarted, unchanged, failed)

    def _retire(self, hook: LiveHook) -> None:
        task = asyncio.create_task(hook.stop())
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    def hook_names(self) -> list[str]:
        return list(self.hooks)

    def composer(self) -> ComposerOffer:
        return composer_offer(sorted(self.hooks))

    async def send(self, hook: str, method: str, params: Any, *, source: str) -> Exchange:
        gated = GatedHook(self.hooks[hook], self.gate, in_chain=False)
        exchange = await gated.call(
            method, params, timeout_ms=self.timeout_for(method), source=source, turn=None
        )
        stage = STAGE_FOR_METHOD.get(method)
        if stage is not None and isinstance(params, dict):
            settle_answer(self.journal, stage, exchange, params)
        return exchange

    async def fire(self, method: str, params: dict[str, Any], *, source: str) -> object:
        """A stage request through every hook that intercepts it; a runtime event to every
        observer that takes its kind."""
        if method == RUNTIME_EVENT:
            await self.pipeline.emit_event(params, source=source)
            return None
        stage = STAGE_FOR_METHOD[method]
        if stage == "approve_tool":
            return await self.pipeline.approve_tool(params, source=source, turn="")
        handler = getattr(self.pipeline, stage)
        return await handler(params, source=source, turn="")

    async def settle(self) -> None:
        await self.pipeline.drain_events()

    def turn_runner(self) -> TurnRunner:
        return TurnRunner(self.pipeline)

    def timeout_for(self, method: str) -> int:
        defaults = self.config.defaults
        stage = STAGE_FOR_METHOD.get(method)
        if stage == "approve_tool":
            return defaults.approval_timeout_ms
        if stage is None:
            return defaults.handshake_timeout_ms
        return defaults.interceptor_timeout_ms

    def unreplayable(self, recorded: Exchange) -> Unreplayable | None:
        if recorded.by_command:  # another host's run: no process hook answers its event
            note = f"no command hook {recorded.hook!r} on {recorded.method} in the config"
            return Unreplayable("missing hook", note)
        hook = self.hooks.get(recorded.hook)
        if hook is None:
            return Unreplayable("missing hook", f"no hook {recorded.hook!r} in the config")
        if hook.spec.kind == "manual":
            return Unreplayable("skipped", f"{recorded.hook} is a manual hook: a person answers it")
        return None

    def one_liner(self, exchange: Exchange) -> str | None:
        """A command that sends the hello and this request to the hook, and prints its answers."""
        hook = self.hooks.get(exchange.hook)
        if hook is None or not hook.spec.command or exchange.raw_request is None:
            return None
        argv = " ".join(shlex.quote(part) for part in hook.spec.command)
        prefix = f"cd {shlex.quote(hook.spec.dir)} && " if hook.spec.dir else ""
        hello, request = shlex.quote(HELLO_FOR_REPLAY), shlex.quote(exchange.raw_request)
        return f"{prefix}printf '%s\\n' {hello} {request} | {argv}"

    # ---- check -----------------------------------------------------------------------------

    async def probe(self, source: str) -> None:
        """One representative request per method each hook intercepts, and an observer one
        runtime event."""
        for spec in self.config.enabled_hooks:
            hook = self.hooks[spec.name]
            for method in probes(spec):
                if method == RUNTIME_EVENT:
                    await hook.notify(method, templates.template(method))
                else:
                    await self.send(spec.name, method, templates.template(method), source=source)

    def reports(self) -> list[HookReport]:
        """Read after the session stopped: stopping closed every hook's stdin and waited for it,
        so its last lines are recorded."""
        return [self._report(spec) for spec in self.config.enabled_hooks]

    def _report(self, spec: HookSpec) -> HookReport:
        records: list[Record] = [
            record
            for record in self.journal.records
            if isinstance(record, (Exchange, Lifecycle, Noise, Stderr)) and record.hook == spec.name
        ]
        ready = any(isinstance(r, Lifecycle) and r.state == "ready" for r in records)
        return HookReport(
            spec.name,
            self.journal.host,
            spec.modes,
            "modes",
            probed=probes(spec),
            records=records,
            failed=[r for r in records if isinstance(r, Exchange) and r.status != STATUS_OK],
            never_ready=not ready,
        )


def composer_offer(hooks: list[str]) -> ComposerOffer:
    """Every request method and a runtime event, PicoClaw's sample params for each, and params
    PicoClaw's structs could not hold refused."""
    return ComposerOffer(
        hooks=hooks,
        methods=OFFERED_METHODS,
        template=templates.template,
        chain_methods=CHAIN_METHODS,
        refuses=_refuses,
        request="params object",
    )


def _refuses(hook: str | None, method: str, params: dict[str, Any]) -> str | None:
    if method == RUNTIME_EVENT and hook is not None:
        return "a runtime event goes to every observer of its kind: choose whole pipeline"
    stage = STAGE_FOR_METHOD.get(method)
    if stage is None:
        return None
    try:
        typed_params(stage, params)
    except GoDecodeError as error:
        return f"PicoClaw's structs cannot hold these params: {one_line(str(error))}"
    return None
