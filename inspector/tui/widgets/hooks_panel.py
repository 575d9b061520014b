"""The hooks panel: one row per hook with its state and counters; trouble stands out."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable

from rich.text import Text
from textual.widgets import DataTable

from inspector.config.model import CommandHookSpec
from inspector.hooks.command_hook import CommandHook
from inspector.hooks.stats import HookStats
from inspector.journal.journal import Journal
from inspector.journal.records import Lifecycle, Record, Reload
from inspector.pipeline.pipeline import Hook
from inspector.safe_text import shown

RELAY_STATES = frozenset({"connected", "disconnected", "refused"})
COLUMNS = (
    "hook",
    "state",
    "pid",
    "modes",
    "prio",
    "calls",
    "fail",
    "median",
    "restarts",
    "reloaded",
    "skipped",
    "total",
)
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
was restarted after a crash, and when a saved config or script last reloaded it. A hook that
crashed or failed its handshake is shown in red. Live agents connected through
`hook-inspector relay` are listed too, as `relay:<name>`.
"""

    DEFAULT_CSS = """
    HooksPanel { height: auto; max-height: 8; }
    """

    def __init__(
        self, hooks: Callable[[], Iterable[Hook]], journal: Journal, **kwargs: object
    ) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **kwargs)  # type: ignore[arg-type]
        self._hooks = hooks
        self._journal = journal
        self._reloaded: dict[str, float] = {}  # hook name -> when a reload last (re)started it
        self._relays: dict[str, Lifecycle] = {}  # live agents: label -> their latest state
        self._unsubscribe: Callable[[], None] | None = None

    def on_mount(self) -> None:
        self.add_columns(*COLUMNS)
        self._unsubscribe = self._journal.subscribe(self._on_record)
        self.refresh_rows()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def _on_record(self, record: Record, new: bool) -> None:
        if new and isinstance(record, Reload) and not record.error:
            for name in record.added + record.restarted:
                self._reloaded[name] = record.ts
            self.refresh_rows()
        elif new and isinstance(record, Lifecycle) and record.state in RELAY_STATES:
            self._relays[record.hook] = record
            self.refresh_rows()

    def refresh_rows(self) -> None:
        hooks = sorted(self._hooks(), key=_order)
        names = Counter(hook.name for hook in hooks)
        rows = [self._row(hook, names[hook.name] > 1) for hook in hooks]
        rows += [_relay_row(state) for state in self._relays.values()]
        if [row[0].plain for row in rows] != [str(key.value) for key in self.rows]:
            self.clear()
            for row in rows:
                self.add_row(*row, key=row[0].plain)
            return
        for row in rows:
            for column, cell in zip(self.columns, row, strict=False):
                self.update_cell(row[0].plain, column, cell, update_width=True)

    def _row(self, hook: Hook | CommandHook, shared_name: bool) -> tuple[Text, ...]:
        """One hook. A command hook shows its event where a process hook shows its modes,
        and its host's own counters (j-cli's skipped and total time) where it keeps any."""
        state = getattr(hook, "state", "ready")
        stats: HookStats = getattr(hook, "stats", HookStats())
        pid = getattr(hook, "pid", None)
        median = stats.median_ms
        trouble = state in ("failed", "exited") or stats.failures > 0
        spec = hook.spec
        label = (
            f"{hook.name} · {spec.event}"
            if shared_name and isinstance(spec, CommandHookSpec)
            else hook.name
        )
        metrics = getattr(hook, "metrics", None)
        return (
            shown(label, "bold red" if trouble else "bold"),
            shown(state, STATE_STYLE.get(state, "")),
            Text(str(pid) if pid else "-", style="dim"),
            shown(
                spec.event
                if isinstance(spec, CommandHookSpec)
                else ",".join(spec.modes) or spec.kind
            ),
            shown(spec.level if isinstance(spec, CommandHookSpec) else str(spec.priority)),
            Text(str(metrics.executions if metrics else stats.calls)),
            Text(str(stats.failures), style="red" if stats.failures else ""),
            Text(f"{median:.1f} ms" if median is not None else "-"),
            Text(str(stats.restarts), style="yellow" if stats.restarts else ""),
            Text(_clock(self._reloaded.get(hook.name)), style="dim"),
            Text(str(metrics.skipped) if metrics else "-"),
            Text(f"{metrics.total_duration_ms:.0f} ms" if metrics else "-"),
        )


def _relay_row(state: Lifecycle) -> tuple[Text, ...]:
    """A live agent behind `hook-inspector relay`: not a hook of ours, but a source to watch."""
    style = "green" if state.state == "connected" else "dim"
    cells = [shown(f"relay:{state.hook}", "bold"), shown(state.state, style)]
    cells.append(Text(str(state.pid) if state.pid else "-", style="dim"))
    return (*cells, *(Text("") for _ in COLUMNS[3:]))


def _clock(ts: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(ts)) if ts else "-"


def _order(hook: Hook | CommandHook) -> tuple[int, str]:
    return (hook.spec.priority, hook.name)
