"""The hooks panel: one row per hook with its state and counters; trouble stands out."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.text import Text
from textual.widgets import DataTable

from inspector.hooks.stats import HookStats
from inspector.pipeline.pipeline import Hook

COLUMNS = ("hook", "state", "pid", "modes", "prio", "calls", "fail", "median", "restarts")
STATE_STYLE = {
    "ready": "green",
    "starting": "yellow",
    "restarting": "yellow",
    "stopping": "dim",
    "stopped": "dim",
    "failed": "bold red",
    "exited": "bold red",
}


class HooksPanel(DataTable[Text]):
    """A handful of rows, refreshed from the hooks' own counters; DataTable is fine at this size."""

    HELP = """\
## Hooks

One row per configured hook: its state (ready, starting, restarting, exited, failed),
process id, the `modes` it announced in `hook.hello`, its priority, calls made, failures
(timeouts, errors, crashes), the median latency of its successful calls and how often it
was restarted. A hook that crashed or failed its handshake is shown in red.
"""

    DEFAULT_CSS = """
    HooksPanel { height: auto; max-height: 8; }
    """

    def __init__(self, hooks: Callable[[], Iterable[Hook]], **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **kwargs)  # type: ignore[arg-type]
        self._hooks = hooks

    def on_mount(self) -> None:
        self.add_columns(*COLUMNS)
        self.refresh_rows()

    def refresh_rows(self) -> None:
        rows = [self._row(hook) for hook in sorted(self._hooks(), key=_order)]
        if [row[0].plain for row in rows] != [str(key.value) for key in self.rows]:
            self.clear()
            for row in rows:
                self.add_row(*row, key=row[0].plain)
            return
        for row in rows:
            for column, cell in zip(self.columns, row, strict=False):
                self.update_cell(row[0].plain, column, cell)

    def _row(self, hook: Hook) -> tuple[Text, ...]:
        state = getattr(hook, "state", "ready")
        stats: HookStats = getattr(hook, "stats", HookStats())
        pid = getattr(hook, "pid", None)
        median = stats.median_ms
        trouble = state in ("failed", "exited") or stats.failures > 0
        return (
            Text(hook.name, style="bold red" if trouble else "bold"),
            Text(state, style=STATE_STYLE.get(state, "")),
            Text(str(pid) if pid else "-", style="dim"),
            Text(",".join(hook.spec.modes) or hook.spec.kind),
            Text(str(hook.spec.priority)),
            Text(str(stats.calls)),
            Text(str(stats.failures), style="red" if stats.failures else ""),
            Text(f"{median:.1f} ms" if median is not None else "-"),
            Text(str(stats.restarts), style="yellow" if stats.restarts else ""),
        )


def _order(hook: Hook) -> tuple[int, str]:
    return (hook.spec.priority, hook.name)
