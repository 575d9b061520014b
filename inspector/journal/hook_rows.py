"""One row per hook, folded from the journal one record at a time: the hooks panel's content,
the same live and when a saved session is opened later.

Lifecycle records give a hook's state, pid and restarts; its exchanges give calls, failures and
latency (and PicoClaw's hello request the modes it announced); reloads say when it was last
(re)started from a saved config or script; j-cli's chain decisions say when it was skipped.
A live agent behind `hook-inspector relay` is a row too: its relay's lifecycle and the calls it
relayed (source `relay:<label>`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from inspector.journal.hook_row import HookRow, RunFailed, not_ok
from inspector.journal.hook_rows_saved import fold_saved
from inspector.journal.journal import Journal
from inspector.journal.jsonl import UNFINISHED
from inspector.journal.records import Decision, Exchange, Lifecycle, Record, Reload
from inspector.jsonrpc.stages import HELLO

# How many counted calls are remembered, so that a later change to one counts it again rather
# than twice; a call changed after this many newer ones were counted is counted once more.
COUNTED_KEPT = 10_000
RELAY_STATES = frozenset({"connected", "disconnected", "refused"})  # a relay's, never a hook's
RELAY_SOURCE = "relay:"
# j-cli: the status a chain decision gives a hook it did not run (disabled, or its filter did not
# match), and the action of the exchange recorded for a filter that can never match.
SKIPPED = "skipped"
STARTING, STOPPING, STOPPED, RESTARTING = "starting", "stopping", "stopped", "restarting"


class HookRows:
    """Follows a journal: every record is folded in once, as it arrives (records already in the
    journal first), so a refresh costs the rows, never the journal. `version` changes whenever
    a row may have."""

    def __init__(self, journal: Journal, run_failed: RunFailed = not_ok) -> None:
        self.version = 0
        self.run_failed = run_failed
        self._hooks: dict[tuple[str, str], HookRow] = {}  # (name, event) -> row
        self._relays: dict[str, HookRow] = {}  # relay label -> row
        self._counted: dict[int, tuple[HookRow, bool, float | None]] = {}  # exchange seq -> tally
        self._reloaded: dict[str, float] = {}  # hook name -> when a reload last (re)started it
        self._removed: set[str] = set()  # hooks a reload removed (until one adds them again)
        self._folds: dict[type[Record], Callable[[Any, bool], None]] = {
            Exchange: self._exchange,
            Lifecycle: self._lifecycle,
            Reload: self._reload,
            Decision: self._decision,
        }
        records = journal.records
        if records.saved is not None and records.columns.known == len(records):
            fold_saved(self, records)  # a saved session: from the index, not every record
        else:  # a block at a time, past the store's cache of records read back (another thread's)
            for _position, record in records.each(list(range(len(records)))):
                self.fold(record, True)
        self._unsubscribe = journal.subscribe(self.fold)

    def copy(self) -> HookRows:
        """The rows as they are now, to be read while these fold on in another thread (a saved
        session being read: opening.py): a copy that follows no journal."""
        copied = HookRows(Journal(), self.run_failed)
        copied.version = self.version
        copied._hooks = {key: _copied(row) for key, row in self._hooks.items()}
        copied._relays = {label: _copied(row) for label, row in self._relays.items()}
        copied._reloaded, copied._removed = dict(self._reloaded), set(self._removed)
        return copied

    def close(self) -> None:
        self._unsubscribe()

    def hooks(self) -> list[HookRow]:
        """The hooks in the order they first appeared, less those a reload removed."""
        return [row for row in self._hooks.values() if row.name not in self._removed]

    def relays(self) -> list[HookRow]:
        return list(self._relays.values())

    def reloaded_at(self, name: str) -> float | None:
        return self._reloaded.get(name)

    def fold(self, record: Record, new: bool) -> None:
        folder = self._folds.get(type(record))
        if folder is not None:
            folder(record, new)
            self.version += 1

    # ---- per record type ---------------------------------------------------------------------

    def row_of(self, hook: str, method: str, host: str, source: str) -> HookRow:
        """The row an exchange of this hook counts in."""
        if source == RELAY_SOURCE + hook:
            return self._relay(hook)
        if not method.startswith("hook."):  # a command hook's run (Exchange.by_command)
            return self._command(hook, method, host)
        return self._hook(hook, host)

    def _exchange(self, exchange: Exchange, new: bool) -> None:
        if exchange.stage_entry:  # a call held before any hook: no hook's work
            return
        row = self.row_of(exchange.hook, exchange.method, exchange.host, exchange.source)
        if new and exchange.method == HELLO:
            self.announced(row, exchange.params)
        before = self._counted.pop(exchange.seq, None)
        finished = exchange.status not in UNFINISHED and exchange.action != SKIPPED
        tally = (not self.run_failed(exchange), exchange.duration_ms)
        if before is not None and finished and before[1:] == tally:
            self._counted[exchange.seq] = before
            return
        if before is not None:
            before[0].tally(exchange.seq, before[1], before[2], -1)
        if finished:
            row.tally(exchange.seq, *tally, 1)
            self._counted[exchange.seq] = (row, *tally)
            if len(self._counted) > 2 * COUNTED_KEPT:  # a week-long session: forget the oldest
                oldest = sorted(self._counted)[:-COUNTED_KEPT]
                for seq in oldest:
                    del self._counted[seq]

    def _lifecycle(self, record: Lifecycle, new: bool) -> None:
        if record.state in RELAY_STATES:
            relay = self._relay(record.hook)
            relay.state, relay.pid = record.state, record.pid
            return
        row = self._hook(record.hook, record.host)
        if record.state == STARTING:
            row.pid = record.pid
        elif row.retiring and record.state in (STOPPING, STOPPED):
            if record.state == STOPPED:
                row.retiring -= 1
            return
        elif None not in (record.pid, row.pid) and record.pid != row.pid:
            return  # a process of this hook that a newer one replaced
        if record.state == RESTARTING:
            row.restarts += 1
        row.state = record.state
        row.pid = record.pid if record.pid is not None else row.pid

    def _reload(self, record: Reload, new: bool) -> None:
        if record.error or not new:
            return
        for name in record.added + record.restarted:
            self._reloaded[name] = record.ts
        self._removed.difference_update(record.added)
        self._removed.update(record.removed)
        for name in record.restarted + record.removed:
            row = self._hooks.get((name, ""))
            if row is not None:
                row.retiring += 1

    def _decision(self, record: Decision, new: bool) -> None:
        if not new:
            return
        for entry in record.chain:
            name = entry.get("hook")
            if entry.get("status") == SKIPPED and isinstance(name, str):
                self.skip(name, record.stage, record.host)

    def announced(self, row: HookRow, params: Any) -> None:
        """The modes a PicoClaw hook's hello request announced."""
        row.modes = _announced_modes(params)

    def skip(self, name: str, stage: str, host: str, times: int = 1) -> None:
        """A j-cli chain did not run this hook."""
        self._command(name, stage, host).skipped += times

    # ---- rows ----------------------------------------------------------------------------------

    def _hook(self, name: str, host: str) -> HookRow:
        row = self._hooks.get((name, ""))
        if row is None:
            row = self._hooks[name, ""] = HookRow(name, host=host)
        return row

    def _command(self, name: str, event: str, host: str) -> HookRow:
        row = self._hooks.get((name, event))
        if row is None:
            row = self._hooks[name, event] = HookRow.command(name, event, host)
        return row

    def _relay(self, label: str) -> HookRow:
        row = self._relays.get(label)
        if row is None:
            row = self._relays[label] = HookRow(label, relay=True)
        return row


def _copied(row: HookRow) -> HookRow:
    return replace(row, latencies=list(row.latencies))


def _announced_modes(params: Any) -> tuple[str, ...]:
    modes = params.get("modes", []) if isinstance(params, dict) else []
    return tuple(mode for mode in modes if isinstance(mode, str)) if isinstance(modes, list) else ()
