"""`check`: run every hook once per thing it subscribes to, the way its host would, and judge
each run by that host's rules. Nothing here knows a host: the engine says which hooks exist,
the host builds the stdin context of each event and reads each run (with its own findings).

A PicoClaw process hook gets one representative request per method it intercepts, and an
observer one runtime event. A command hook (j-cli, Claude Code) runs once per event it listens
to, in a host of its own: in the full chain an earlier j-cli hook's stop or skip would keep it
from running, and Claude Code runs identical commands once."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from inspector.config.model import CommandHookSpec, Config, HookSpec
from inspector.engine import Engine
from inspector.hosts.host import CommandChain
from inspector.hosts.openclaw.host_mode import OpenClawPlugin
from inspector.hosts.openclaw.host_mode_samples import sample
from inspector.hosts.picoclaw.templates import template
from inspector.hosts.registry import host_named
from inspector.journal.journal import Journal
from inspector.journal.records import (
    STATUS_NOT_SENT,
    STATUS_OK,
    Event,
    Exchange,
    Lifecycle,
    Noise,
    Record,
    Stderr,
)
from inspector.protocol.stages import METHOD_FOR_STAGE, RUNTIME_EVENT, STAGES

SOURCE = "check"
_NAME_LIST = re.compile(r"[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*")  # Bash, Edit|Write


@dataclass
class HookReport:
    """One hook's runs and what its host made of them."""

    name: str
    host: str
    modes: list[str]  # PicoClaw: the modes of its hello; a command hook: its events
    modes_are: str  # what `modes` holds, in words: "modes" or "events"
    probed: list[str] = field(default_factory=list)  # the methods or events it was sent
    not_probed: dict[str, str] = field(default_factory=dict)  # event: why it never ran
    records: list[Record] = field(default_factory=list)
    failed: list[Exchange] = field(default_factory=list)  # runs its host counts as failures
    never_ready: bool = False

    @property
    def problems(self) -> list[str]:
        found = ["never became ready"] if self.never_ready else []
        found += [_failure(exchange) for exchange in self.failed]
        found += [
            f"{finding.code}: {finding.message}"
            for record in self.records
            for finding in record.findings_list
            if finding.severity == "error"
        ]
        return found

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "hook": self.name,
            "host": self.host,
            "modes": self.modes,
            "probed": self.probed,
            "not_probed": self.not_probed,
            "ok": self.ok,
            "problems": self.problems,
            "records": [record.to_json() for record in self.records],
        }


def probes(spec: HookSpec) -> list[str]:
    """The methods PicoClaw would send this hook, one representative request each.
    A manual hook is a person, so there is nothing to probe."""
    if spec.kind == "manual":
        return []
    methods = [METHOD_FOR_STAGE[stage] for stage in STAGES if spec.intercepts(stage)]
    return methods + ([RUNTIME_EVENT] if spec.observe else [])


async def check(config: Config) -> list[HookReport]:
    """Every enabled hook of `config`, probed and judged, in config order."""
    engine = Engine(config, restart_crashed=False)
    engine.approvals.unattended = True  # nobody answers a Claude Code `ask`: it is denied
    async with engine:
        for spec in config.enabled_hooks:
            await _probe_process_hook(engine, spec)
        command_reports = [
            await _probe_command_hook(engine, specs) for specs in _by_hook(engine).values()
        ]
        if engine.plugin is not None:
            command_reports.append(await _probe_plugin(engine, engine.plugin))
    # stopping closed every process hook's stdin and waited for it: its last lines are recorded
    process_reports = [_process_report(spec, engine.journal) for spec in config.enabled_hooks]
    return process_reports + command_reports


async def _probe_process_hook(engine: Engine, spec: HookSpec) -> None:
    hook = engine.hooks[spec.name]
    for method in probes(spec):
        if method == RUNTIME_EVENT:
            await hook.notify(method, template(method))
        else:
            await engine.send_to_hook(spec.name, method, template(method), source=SOURCE)


def _process_report(spec: HookSpec, journal: Journal) -> HookReport:
    records: list[Record] = [
        record
        for record in journal.records
        if isinstance(record, (Exchange, Lifecycle, Noise, Stderr)) and record.hook == spec.name
    ]
    ready = any(isinstance(r, Lifecycle) and r.state == "ready" for r in records)
    return HookReport(
        spec.name,
        journal.host,
        spec.modes,
        "modes",
        probed=probes(spec),
        records=records,
        failed=[r for r in records if isinstance(r, Exchange) and r.status != STATUS_OK],
        never_ready=not ready,
    )


def _by_hook(engine: Engine) -> dict[str, list[CommandHookSpec]]:
    """The engine's command hooks by name: a j-cli hook may listen to several events."""
    specs: dict[str, list[CommandHookSpec]] = {}
    for hook in engine.command_hooks():
        specs.setdefault(hook.name, []).append(hook.spec)
    return specs


async def _probe_command_hook(engine: Engine, specs: list[CommandHookSpec]) -> HookReport:
    name = specs[0].name
    only_these = replace(engine.config, hooks=tuple(specs))
    host = host_named(only_these.host).command_chain(only_these, engine.journal, engine.approvals)
    report = HookReport(name, engine.journal.host, [spec.event for spec in specs], "events")
    for spec in specs:
        start = len(engine.journal.records)
        await _fire(host, spec.event, spec)
        runs = [
            record
            for record in engine.journal.records[start:]
            if isinstance(record, Exchange) and record.hook == name
        ]
        if runs:
            report.probed.append(spec.event)
        else:
            report.not_probed[spec.event] = "its filter takes none of the sample tools"
        report.records += runs
        report.failed += [run for run in runs if host is not None and host.run_failed(run)]
    return report


async def _probe_plugin(engine: Engine, plugin: OpenClawPlugin) -> HookReport:
    """An OpenClaw plugin: each hook it registered, fired once with a sample event."""
    report = HookReport(plugin.plugin.id, engine.journal.host, plugin.hook_names, "hooks")
    for hook_name in plugin.hook_names:
        event, ctx = sample(hook_name)
        await plugin.fire(hook_name, event, ctx, source=SOURCE)
        report.probed.append(hook_name)
    report.records = [
        record
        for record in engine.journal.records
        if isinstance(record, (Exchange, Event, Lifecycle, Stderr))
        and record.host == engine.journal.host
    ]
    report.failed = [
        record
        for record in report.records
        if isinstance(record, Exchange) and record.status not in (STATUS_OK, STATUS_NOT_SENT)
    ]
    report.never_ready = not any(
        isinstance(record, Lifecycle) and record.state == "ready" for record in report.records
    )
    return report


async def _fire(host: CommandChain | None, event: str, spec: CommandHookSpec) -> None:
    if host is not None:
        await host.fire(event, _fitting(host.context_template(event), spec), source=SOURCE)


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


def _failure(exchange: Exchange) -> str:
    detail = f" ({exchange.error})" if exchange.error else ""
    return f"{exchange.method}: {exchange.status}{detail}"
