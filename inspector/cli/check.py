"""`hook-inspector check`: a conformance report per hook, printed for people or as JSON."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from inspector.cli.otlp import close_spans
from inspector.cli.printer import FINDING_INDENT, describe, finding_line, print_wrapped
from inspector.cli.session import config_or_demo
from inspector.drivers.check import check
from inspector.hosts.probe import HookReport
from inspector.hosts.registry import host_label
from inspector.journal.records import Lifecycle
from inspector.safe_text import json_dumps, one_line

if TYPE_CHECKING:
    from inspector.otel.exporter import LiveSpans

EXIT_OK, EXIT_PROBLEMS = 0, 1
_QUIET_STATES = ("starting", "stopping", "stopped")


async def check_hooks(
    config_path: Path | None, *, as_json: bool, spans: LiveSpans | None = None
) -> int:
    try:
        reports = await check(config_or_demo(config_path), spans.attach if spans else None)
    finally:
        close_spans(spans)
    if as_json:
        report = {"ok": all(r.ok for r in reports), "hooks": [r.to_json() for r in reports]}
        print(json_dumps(report))
    else:
        _print(reports)
    return EXIT_OK if all(report.ok for report in reports) else EXIT_PROBLEMS


def _print(reports: list[HookReport]) -> None:
    console = Console(highlight=False, soft_wrap=True)
    for report in reports:
        console.print(_heading(report))
        for record in report.records:
            if isinstance(record, Lifecycle) and record.state in _QUIET_STATES:
                continue
            console.print(Text("  ").append_text(describe(record)))
            for finding in record.findings_list:
                print_wrapped(console, finding_line(finding, record.host), FINDING_INDENT)
        for event, why in report.not_probed.items():
            console.print(Text(f"  not probed: {one_line(event)} ({why})", style="yellow"))
        for problem in report.problems:
            print_wrapped(console, Text(f"✗ {one_line(problem, None)}", style="red"), 2)
    failed = sum(1 for report in reports if not report.ok)
    console.print(
        Text(
            f"{len(reports) - failed} of {len(reports)} hook(s) pass",
            style="bold red" if failed else "bold green",
        )
    )


def _heading(report: HookReport) -> Text:
    verdict = Text("PASS", style="bold green") if report.ok else Text("FAIL", style="bold red")
    probed = ", ".join(report.probed) or "nothing"
    return Text.assemble(
        verdict,
        " ",
        (one_line(report.name), "bold"),
        f"  {host_label(report.host)}  {report.modes_are}: {one_line(', '.join(report.modes))}",
        f"  probed: {one_line(probed)}",
    )
