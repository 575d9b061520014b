"""The result of replaying a recorded session against the current hooks: what changed."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from inspector.drivers.replay import ReplayItem, ReplayReport
from inspector.safe_text import one_line, printable, shown

OUTCOME_STYLE = {
    "same": "green",
    "different": "bold red",
    "missing hook": "yellow",
    "skipped": "dim",
}


class ReplayReportScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    ReplayReportScreen { align: center middle; }
    ReplayReportScreen > Vertical { width: 90%; height: 85%; border: thick $primary;
                                    background: $surface; padding: 0 1; }
    ReplayReportScreen #summary { padding: 0 0 1 0; }
    """
    BINDINGS = [Binding("escape,q", "dismiss", "Close", priority=True, id="replay.close")]

    def __init__(self, title: str, report: ReplayReport) -> None:
        super().__init__()
        self._title = title
        self._report = report

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(shown(self._title))
            verdict = "same answers" if self._report.ok else "answers changed"
            style = "bold green" if self._report.ok else "bold red"
            yield Static(Text.assemble((verdict, style), ": ", self._report.summary), id="summary")
            with VerticalScroll():
                yield Static(report_text(self._report))
        yield Footer()


def report_text(report: ReplayReport) -> Text:
    """Every request that did not come back the same, with a diff of the two answers."""
    text = Text()
    changed = [item for item in report.items if item.outcome not in ("same", "skipped")]
    if not changed:
        return Text("Every replayed request got the answer it got before.", style="green")
    for item in changed:
        text.append_text(_item(item))
    return text


def _item(item: ReplayItem) -> Text:
    text = Text.assemble(
        (f"#{item.seq} ", "dim"),
        (one_line(item.hook), "bold"),
        f" {one_line(item.method)}: ",
        (item.outcome, OUTCOME_STYLE[item.outcome]),
    )
    if item.note:
        text.append(f"  {one_line(item.note)}", style="dim")
    text.append("\n")
    for line in item.diff.splitlines():
        style = "green" if line.startswith("+") else "red" if line.startswith("-") else "dim"
        text.append(f"  {printable(line)}\n", style=style)
    return text
