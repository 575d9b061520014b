"""Live headless output: every record as it finishes, for people (Rich) or programs (JSON lines)."""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

from rich.console import Console
from rich.text import Text

from inspector.cli.output import BackgroundOutput
from inspector.hosts.registry import NATIVE, host_label
from inspector.journal.journal import Journal
from inspector.journal.jsonl import is_final
from inspector.journal.records import (
    Decision,
    Event,
    Exchange,
    Finding,
    Lifecycle,
    Noise,
    Record,
    Reload,
    Stderr,
)
from inspector.safe_text import json_dumps, one_line

# How many printed records are remembered, so that a later change to one does not print it
# again; a record changed after this many newer ones were printed is printed once more.
PRINTED_KEPT = 100_000
# Records finished within this long are printed together, after it: a relayed call's answer goes
# out before its records are laid out, not after.
PRINT_AFTER_S = 0.005
FINDING_INDENT = 10  # a finding's lines start under its record's text, after the time
MIN_WRAP = 40  # however narrow the terminal, a wrapped text has this many columns
SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "warn": "yellow", "info": "cyan"}
STATUS_STYLE = {"ok": "green", "timeout": "bold red", "exited": "bold red", "not_sent": "red"}
VERDICT_STYLE = {
    "denied": "bold red",
    "deny_tool": "bold red",
    "abort_turn": "bold red",
    "hard_abort": "bold red",
    "approved": "green",
    "respond": "magenta",
    "skipped": "yellow",
    "discarded": "yellow",
}


class Printer:
    """Subscribes to a journal and prints each record once, when it is final. Printing waits
    PRINT_AFTER_S, so the pipeline's verdict on an answer is included and the work stays off
    the path of a call. The loop only queues the lines: laying them out and writing them is the
    output thread's."""

    def __init__(self, journal: Journal, *, as_json: bool, out: TextIO | None = None) -> None:
        self.as_json = as_json
        out = out or sys.stdout
        self.console = Console(file=out, highlight=False, soft_wrap=True)
        self.output: BackgroundOutput[str | list[Text]] = BackgroundOutput(out, self._render)
        self._printed: set[int] = set()
        self._waiting: dict[int, Record] = {}
        self._start: float | None = None
        self._drain_soon: asyncio.TimerHandle | None = None
        self._unsubscribe = journal.subscribe(self._on_record)

    async def aclose(self) -> None:
        """Print what is left and wait until it is written (or the reader is gone)."""
        self._unsubscribe()
        self._drain()
        await self.output.aclose()

    def _on_record(self, record: Record, new: bool) -> None:
        if record.seq in self._printed or not is_final(record):
            return
        self._waiting[record.seq] = record
        if self._drain_soon is not None:
            return
        try:
            self._drain_soon = asyncio.get_running_loop().call_later(PRINT_AFTER_S, self._drain)
        except RuntimeError:
            self._drain()

    def _drain(self) -> None:
        if self._drain_soon is not None:
            self._drain_soon.cancel()
            self._drain_soon = None
        waiting, self._waiting = self._waiting, {}
        for seq, record in sorted(waiting.items()):
            if seq not in self._printed:
                self._printed.add(seq)
                self._print(record)
        if len(self._printed) > 2 * PRINTED_KEPT:  # a week-long serve: forget the oldest
            self._printed = set(sorted(self._printed)[-PRINTED_KEPT:])

    def _print(self, record: Record) -> None:
        if self.as_json:
            self.output.put(json_dumps(record.to_json(), default=str) + "\n")
            return
        if self._start is None:
            self._start = record.ts
        # a record may have begun a moment before the first one printed: 0.000, never -0.000
        line = Text(f"{max(0.0, record.ts - self._start):8.3f}s ", style="dim")
        line.append_text(describe(record))
        findings = [finding_line(finding, record.host) for finding in record.findings_list]
        self.output.put([line, *findings])

    def _render(self, item: str | list[Text]) -> str:
        """A record's line, as long as it is, then its findings wrapped under it."""
        if isinstance(item, str):
            return item
        line, *findings = item
        with self.console.capture() as capture:
            self.console.print(line)
            for finding in findings:
                print_wrapped(self.console, finding, FINDING_INDENT)
        return capture.get()


def describe(record: Record) -> Text:
    if isinstance(record, Exchange):
        return _exchange(record)
    if isinstance(record, Event):
        text = Text("event ", style="blue")
        text.append(one_line(record.kind), style=SEVERITY_STYLE.get(record.severity, ""))
        if record.delivered:
            text.append(f"  → {one_line(', '.join(record.delivered))}", style="dim")
        return text
    if isinstance(record, Stderr):
        return Text.assemble(
            (one_line(record.hook), "bold"), (" stderr ", "dim"), one_line(record.line)
        )
    if isinstance(record, Noise):
        return Text.assemble(
            (one_line(record.hook), "bold"), (" stdout noise ", "yellow"), one_line(record.line)
        )
    if isinstance(record, Lifecycle):
        state = (one_line(record.state), _state_style(record.state))
        text = Text.assemble((one_line(record.hook), "bold"), " ", state)
        if record.pid:
            text.append(f" pid {record.pid}", style="dim")
        if record.detail:
            text.append(f"  {one_line(record.detail)}")
        return text
    if isinstance(record, Decision):
        return _decision(record)
    if isinstance(record, Reload):
        return _reload(record)
    return Text(record.type)


def _reload(record: Reload) -> Text:
    if record.error:
        return Text.assemble(("reload failed ", "bold red"), one_line(record.error))
    text = Text("reload ", style="bold magenta")
    text.append(one_line(record.changes) or "nothing restarted")
    text.append(f"  unchanged {len(record.unchanged)}  {record.duration_ms:.0f} ms", style="dim")
    return text


def _exchange(record: Exchange) -> Text:
    text = Text.assemble((one_line(record.hook), "bold"), " → ", (one_line(record.method), "cyan"))
    if record.rpc_id:
        text.append(f" #{record.rpc_id}", style="dim")
    if record.action:
        text.append(f"  {one_line(record.action)}", style=VERDICT_STYLE.get(record.action, ""))
    text.append(f"  {one_line(record.status)}", style=STATUS_STYLE.get(record.status, "red"))
    if record.duration_ms is not None:
        text.append(f"  {record.duration_ms:.1f} ms", style="dim")
    if record.error:
        text.append(f"  {one_line(record.error)}", style="red")
    return text


def _decision(record: Decision) -> Text:
    text = Text.assemble(("decision ", "dim"), (one_line(record.stage), "cyan"), ": ")
    text.append(one_line(record.verdict), style=VERDICT_STYLE.get(record.verdict, "green"))
    if record.tool:
        text.append(f" {one_line(record.tool)}")
    if record.by:
        text.append(f" by {one_line(record.by)}", style="bold")
    if record.reason:
        text.append(f" — {one_line(record.reason)}")
    return text


def finding_line(finding: Finding, host: str = NATIVE.name) -> Text:
    """A finding whole, for print_wrapped: never cut."""
    text = Text()
    label = f"[{one_line(finding.severity)}] {one_line(finding.code)}"
    text.append(label, style=SEVERITY_STYLE.get(finding.severity, ""))
    text.append(f" {one_line(finding.message, None)}")
    if finding.host_does:
        does = f"  ({one_line(host_label(host))}: {one_line(finding.host_does, None)})"
        text.append(does, style="dim")
    return text


def print_wrapped(console: Console, text: Text, indent: int) -> None:
    """`text` whole, its words wrapped at the console's width under `indent` spaces."""
    for line in text.wrap(console, max(MIN_WRAP, console.width - indent)):
        line.rstrip()
        console.print(Text(" " * indent).append_text(line), soft_wrap=True)


def _state_style(state: str) -> str:
    if state in ("ready", "connected"):
        return "green"
    if state in ("failed", "exited", "refused"):
        return "bold red"
    return "yellow"
