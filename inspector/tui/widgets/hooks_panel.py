"""The hooks panel: one row per hook with its state and counters; trouble stands out."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.widgets import DataTable

from inspector.config.model import CommandHookSpec, Config, HookSpec
from inspector.hosts.registry import host_named
from inspector.journal.hook_row import HookRow, RunFailed, not_ok
from inspector.journal.hook_rows import HookRows
from inspector.journal.journal import Journal
from inspector.safe_text import shown

# A saved session with more records than this is folded into rows in a thread, a moment after
# the first screen (the fold would hold the interpreter while the screen is drawn), so the lists
# show without waiting for the panel (about 0.7 s for a million exchanges).
FOLD_BESIDE = 50_000
FOLD_AFTER_S = 0.5
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
    "connected": "green",
}

Spec = HookSpec | CommandHookSpec


class HooksPanel(DataTable[Text]):
    """A handful of rows folded from the journal (HookRows), so a saved session shows what it
    showed live; the config, when one is loaded, adds what no record carries (priority or
    level, a hook that never ran). DataTable is fine at this size."""

    HELP = """\
## Hooks

One row per hook: its state (ready, starting, restarting, exited, failed), process id, the
`modes` it announced in `hook.hello` (a command hook's event), its priority (j-cli and Claude
Code: its level), calls made, failures (timeouts, errors, crashes), the median latency of its
successful calls and how often it was restarted after a crash, and when a saved config or
script last reloaded it. j-cli hooks also show how often the chain skipped them and their
total run time. A hook that crashed or failed its handshake is shown in red. Live agents
connected through `hook-inspector relay` are listed too, as `relay:<name>`.

Everything but the priority comes from the journal, so `hook-inspector open FILE` shows the
panel as it was; the priority of a saved session's hooks is not recorded and stays blank.
"""

    DEFAULT_CSS = """
    HooksPanel { height: auto; max-height: 8; }
    """

    def __init__(
        self,
        journal: Journal,
        config: Callable[[], Config],
        run_failed: RunFailed = not_ok,
        **kwargs: object,
    ) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **kwargs)  # type: ignore[arg-type]
        self._journal = journal
        self._config = config
        self._run_failed = run_failed  # the host's: a Claude Code exit 2 that blocks is no failure
        self._folded: HookRows | None = None
        self._shown_for: tuple[int, Config] | None = None  # (fold version, config) on screen

    def on_mount(self) -> None:
        self.add_columns(*COLUMNS)
        self._fold(first_screen=True)

    def _fold(self, first_screen: bool) -> None:
        records = self._journal.records
        if len(records) > FOLD_BESIDE and records.saved is not None:
            # a long saved session: the lists are on the screen before the panel is counted.
            # The delay runs from the first screen drawn, not from here: mounting the lists of a
            # million records can take longer than it, and the fold's thread then competes with
            # drawing that screen for the interpreter (it took 0.5 s longer to come up).
            if first_screen:
                self.call_after_refresh(
                    self.set_timer, FOLD_AFTER_S, self._fold_beside, name="hooks-panel-fold"
                )
            else:
                self._fold_beside()
            return
        self._folded = HookRows(self._journal, self._run_failed)
        self.refresh_rows()

    def grown(self, folded: HookRows) -> None:
        """The rows folded so far from a saved session being read, in the reader's thread
        (opening.py): shown instead."""
        if self._folded is not None:
            self._folded.close()
        self._folded, self._shown_for = folded, None
        self.refresh_rows()

    def reread(self) -> None:
        """The journal's records were replaced (a saved session, now read through the index
        just made of it): counted again; the rows on screen stay until then."""
        if self._folded is not None:
            self._folded.close()
            self._folded = None
        self._shown_for = None
        self._fold(first_screen=False)

    @work(thread=True, exit_on_error=False, group="hooks-panel")
    def _fold_beside(self) -> None:
        folded = HookRows(self._journal, self._run_failed)
        self.app.call_from_thread(self._show_folded, folded)

    def _show_folded(self, folded: HookRows) -> None:
        if not self.is_attached:
            folded.close()
            return
        self._folded = folded
        self.refresh_rows()

    def on_unmount(self) -> None:
        if self._folded is not None:
            self._folded.close()

    def refresh_rows(self) -> None:
        """Repaint when a record or the config changed since the last time; else do nothing."""
        folded, config = self._folded, self._config()
        if folded is None or self._shown_for == (folded.version, config):
            return
        self._shown_for = (folded.version, config)
        rows = self._rows(folded, config)
        if [key for key, _cells in rows] != [key.value for key in self.rows]:
            self.clear()
            for key, cells in rows:
                self.add_row(*cells, key=key)
            return
        for key, cells in rows:
            for column, cell in zip(self.columns, cells, strict=False):
                self.update_cell(key, column, cell, update_width=True)

    def _rows(self, folded: HookRows, config: Config) -> list[tuple[str, tuple[Text, ...]]]:
        """The configured hooks by priority, then hooks only the journal knows (all of them in
        a saved session) by name, then relays in the order they connected."""
        configured: tuple[Spec, ...] = (*config.enabled_hooks, *config.command_hooks)
        specs = {_key_of(spec): spec for spec in configured}
        seen = {(row.name, row.event): row for row in folded.hooks()}
        by_priority = sorted(specs, key=lambda key: (specs[key].priority, key))
        keys = by_priority + sorted(seen.keys() - specs.keys())
        names = Counter(name for name, _event in keys)
        rows = []
        for key in keys:
            spec = specs.get(key)
            row = seen.get(key) or _unseen(key, spec)
            rows.append(self._row(row, spec, names[row.name] > 1, folded.reloaded_at(row.name)))
        return _keyed(rows + [_relay_row(relay) for relay in folded.relays()])

    def _row(
        self, row: HookRow, spec: Spec | None, shared_name: bool, reloaded: float | None
    ) -> tuple[Text, ...]:
        """One hook. A command hook shows its event where a process hook shows its modes,
        and j-cli's own counters (skipped, total time) where that host keeps them."""
        median = row.median_ms
        trouble = row.state in ("failed", "exited") or row.failures > 0
        label = f"{row.name} · {row.event}" if shared_name and row.event else row.name
        host = host_named(row.host or getattr(spec, "host", ""))
        counts_skips = host.counts_skips and bool(row.event)
        return (
            shown(label, "bold red" if trouble else "bold"),
            shown(row.state or "-", STATE_STYLE.get(row.state, "")),
            Text(str(row.pid) if row.pid else "-", style="dim"),
            shown(row.event or _modes(row, spec)),
            shown(_priority(spec)),
            Text(str(row.calls)),
            Text(str(row.failures), style="red" if row.failures else ""),
            Text(f"{median:.1f} ms" if median is not None else "-"),
            Text(str(row.restarts), style="yellow" if row.restarts else ""),
            Text(_clock(reloaded), style="dim"),
            Text(str(row.skipped) if counts_skips else "-"),
            Text(f"{row.total_ms:.0f} ms" if counts_skips else "-"),
        )


def _keyed(rows: list[tuple[Text, ...]]) -> list[tuple[str, tuple[Text, ...]]]:
    """Each row under its label, which a row that reads like an earlier one (a hook named
    `relay:x` beside the relay x, names cut short on screen) extends by its position."""
    seen: set[str] = set()
    keyed = []
    for position, cells in enumerate(rows):
        key = cells[0].plain
        if key in seen:
            key = f"{key}\0{position}"
        seen.add(key)
        keyed.append((key, cells))
    return keyed


def _relay_row(relay: HookRow) -> tuple[Text, ...]:
    """A live agent behind `hook-inspector relay`: not a hook of ours, but a source to watch."""
    median = relay.median_ms
    cells = (
        shown(f"relay:{relay.name}", "bold"),
        shown(relay.state or "-", STATE_STYLE.get(relay.state, "dim")),
        Text(str(relay.pid) if relay.pid else "-", style="dim"),
        shown(",".join(relay.modes)),
        Text(""),
        Text(str(relay.calls) if relay.calls else ""),
        Text(str(relay.failures) if relay.failures else "", style="red"),
        Text(f"{median:.1f} ms" if median is not None else ""),
    )
    return (*cells, *(Text("") for _ in COLUMNS[len(cells) :]))


def _key_of(spec: Spec) -> tuple[str, str]:
    return (spec.name, spec.event if isinstance(spec, CommandHookSpec) else "")


def _unseen(key: tuple[str, str], spec: Spec | None) -> HookRow:
    """A configured hook with no record yet."""
    name, event = key
    if isinstance(spec, CommandHookSpec):
        return HookRow.command(name, event, spec.host)
    return HookRow(name)


def _modes(row: HookRow, spec: Spec | None) -> str:
    """What the hook announced in its hello; else (a manual hook sends none) what its config
    asks for."""
    if row.modes:
        return ",".join(row.modes)
    if isinstance(spec, HookSpec):
        return ",".join(spec.modes) or spec.kind
    return ""


def _priority(spec: Spec | None) -> str:
    if spec is None:
        return ""
    return spec.level if isinstance(spec, CommandHookSpec) else str(spec.priority)


def _clock(ts: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(ts)) if ts else "-"
