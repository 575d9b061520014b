"""`hook-inspector check`: a conformance report per hook."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from inspector.cli.printer import describe, finding_line
from inspector.cli.session import config_or_demo
from inspector.config.model import HookSpec
from inspector.engine import Engine
from inspector.journal.journal import Journal
from inspector.journal.records import Exchange, Lifecycle, Noise, Record, Stderr
from inspector.protocol.stages import METHOD_FOR_STAGE, RUNTIME_EVENT, STAGES
from inspector.protocol.templates import template
from inspector.safe_text import json_dumps, one_line

EXIT_OK, EXIT_PROBLEMS = 0, 1


@dataclass
class HookReport:
    spec: HookSpec
    records: list[Record] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return any(isinstance(r, Lifecycle) and r.state == "ready" for r in self.records)

    @property
    def exchanges(self) -> list[Exchange]:
        return [r for r in self.records if isinstance(r, Exchange)]

    @property
    def problems(self) -> list[str]:
        found = [] if self.ready else ["never became ready"]
        found += [f"{e.method}: {e.status}" for e in self.exchanges if e.status != "ok"]
        found += [
            f"{finding.code}: {finding.message}"
            for record in self.records
            for finding in record.findings_list
            if finding.severity == "error"
        ]
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "hook": self.spec.name,
            "modes": self.spec.modes,
            "ok": not self.problems,
            "problems": self.problems,
            "records": [record.to_json() for record in self.records],
        }


def probes(spec: HookSpec) -> list[str]:
    """The methods a host would send this hook, one representative request each.
    A manual hook is a person, so there is nothing to probe."""
    if spec.kind == "manual":
        return []
    methods = [METHOD_FOR_STAGE[stage] for stage in STAGES if spec.intercepts(stage)]
    return methods + ([RUNTIME_EVENT] if spec.observe else [])


async def check_hooks(config_path: Path | None, *, as_json: bool) -> int:
    config = config_or_demo(config_path)
    engine = Engine(config, restart_crashed=False)
    async with engine:
        for spec in config.enabled_hooks:
            hook = engine.hooks[spec.name]
            for method in probes(spec):
                if method == RUNTIME_EVENT:
                    await hook.notify(method, template(method))
                else:
                    await engine.send_to_hook(spec.name, method, template(method), source="check")
    # stopping closed every hook's stdin and waited for it, so its last lines are in the journal
    reports = [_report(spec, engine.journal) for spec in config.enabled_hooks]
    if as_json:
        report = {
            "ok": all(not r.problems for r in reports),
            "hooks": [r.to_json() for r in reports],
        }
        print(json_dumps(report))
    else:
        _print(reports)
    return EXIT_PROBLEMS if any(report.problems for report in reports) else EXIT_OK


def _report(spec: HookSpec, journal: Journal) -> HookReport:
    report = HookReport(spec)
    report.records = [
        record
        for record in journal.records
        if isinstance(record, (Exchange, Lifecycle, Noise, Stderr)) and record.hook == spec.name
    ]
    return report


def _print(reports: list[HookReport]) -> None:
    console = Console(highlight=False, soft_wrap=True)
    for report in reports:
        verdict = (
            Text("PASS", style="bold green")
            if not report.problems
            else Text("FAIL", style="bold red")
        )
        console.print(
            Text.assemble(
                verdict,
                " ",
                (one_line(report.spec.name), "bold"),
                f"  modes: {', '.join(report.spec.modes)}",
            )
        )
        for record in report.records:
            if isinstance(record, Lifecycle) and record.state in (
                "starting",
                "stopping",
                "stopped",
            ):
                continue
            console.print(Text("  ").append_text(describe(record)))
            for finding in record.findings_list:
                console.print(finding_line(finding, record.host))
        for problem in report.problems:
            console.print(Text(f"  ✗ {one_line(problem)}", style="red"))
    failed = sum(1 for report in reports if report.problems)
    console.print(
        Text(
            f"{len(reports) - failed} of {len(reports)} hook(s) pass",
            style="bold red" if failed else "bold green",
        )
    )
