"""The hooks panel's rows, folded from journal records: by hand, live against saved, and over a
journal the real `hook-inspector run` wrote."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from inspector.journal import hook_rows
from inspector.journal.hook_row import LATENCY_WINDOW, HookRow
from inspector.journal.hook_rows import HookRows
from inspector.journal.journal import Journal
from inspector.journal.jsonl import load_journal
from inspector.journal.records import (
    STATUS_INVALID,
    STATUS_OK,
    STATUS_PENDING,
    STATUS_TIMEOUT,
    Decision,
    Exchange,
    Lifecycle,
    Record,
    Reload,
)
from inspector.journal.saved import open_journal
from tests.support.saved_sessions import reopened


def call(hook: str, status: str = STATUS_OK, ms: float | None = 1.0, **fields: Any) -> Exchange:
    fields.setdefault("method", "hook.before_tool")
    return Exchange(hook=hook, status=status, duration_ms=ms, **fields)


def hello(hook: str, modes: list[str], **fields: Any) -> Exchange:
    params = {"name": hook, "version": 1, "modes": modes}
    request = {"jsonrpc": "2.0", "id": 1, "method": "hook.hello", "params": params}
    return Exchange(hook=hook, method="hook.hello", request=request, status=STATUS_OK, **fields)


def state(hook: str, name: str, pid: int | None = None) -> Lifecycle:
    return Lifecycle(hook=hook, state=name, pid=pid)


def folded(*records: Record) -> dict[str, HookRow]:
    """The rows of a journal that already holds `records` (a saved session being opened); the
    same when it is saved and opened again through its index (folded from its columns)."""
    journal = Journal()
    for record in records:
        journal.append(record)
    rows = by_name(HookRows(journal))
    with tempfile.TemporaryDirectory() as folder:
        assert by_name(HookRows(reopened(journal, Path(folder)))) == rows
    return rows


def by_name(rows: HookRows) -> dict[str, HookRow]:
    return {row.name: row for row in [*rows.hooks(), *rows.relays()]}


def seen(row: HookRow) -> tuple[Any, ...]:
    return (row.state, row.pid, row.modes, row.calls, row.failures, row.restarts, row.median_ms)


# ---- by hand ----------------------------------------------------------------------------------


def test_a_crashed_hook_that_came_back_shows_its_new_process_and_one_restart() -> None:
    rows = folded(
        state("guard", "starting", 10),
        hello("guard", ["tool", "approve"], duration_ms=3.0),
        state("guard", "ready", 10),
        call("guard", "exited", ms=2.0),
        state("guard", "exited", 10),
        state("guard", "restarting", 10),
        state("guard", "starting", 11),
        state("guard", "ready", 11),
        call("guard", ms=5.0),
        call("guard", STATUS_TIMEOUT, ms=500.0),
    )
    assert seen(rows["guard"]) == ("ready", 11, ("tool", "approve"), 4, 2, 1, 4.0)


def test_a_reload_that_replaced_a_hook_keeps_the_new_one_and_ignores_the_old_ones_stop() -> None:
    reload = Reload(ts=1_700_000_000.0, restarted=["guard", "human"])
    rows = folded(
        state("guard", "starting", 10),
        state("guard", "ready", 10),
        state("human", "ready"),  # a manual hook: no process, no pid
        state("guard", "starting", 20),
        state("guard", "ready", 20),
        state("human", "ready"),
        reload,
        state("guard", "stopping", 10),
        state("human", "stopped"),
        state("guard", "stopped", 10),
    )
    assert (rows["guard"].state, rows["guard"].pid) == ("ready", 20)
    assert rows["human"].state == "ready"
    journal = Journal()
    journal.append(reload)
    assert HookRows(journal).reloaded_at("guard") == reload.ts


def test_a_hook_stopped_after_a_reload_shows_stopped() -> None:
    rows = folded(
        state("guard", "starting", 20),
        state("guard", "ready", 20),
        Reload(restarted=["guard"]),
        state("guard", "stopped", 10),  # the replaced process
        state("guard", "stopping", 20),
        state("guard", "stopped", 20),
    )
    assert (rows["guard"].state, rows["guard"].pid) == ("stopped", 20)


def test_a_removed_hook_leaves_the_rows_until_a_reload_adds_it_again() -> None:
    journal = Journal()
    rows = HookRows(journal)
    journal.append(state("guard", "ready", 10))
    journal.append(Reload(removed=["guard"]))
    journal.append(state("guard", "stopped", 10))
    assert rows.hooks() == []
    journal.append(state("guard", "starting", 30))
    journal.append(state("guard", "ready", 30))
    journal.append(Reload(added=["guard"]))
    assert [(row.name, row.state, row.pid) for row in rows.hooks()] == [("guard", "ready", 30)]


def test_a_call_counts_when_it_ends_and_is_recounted_when_the_host_judges_it_again() -> None:
    journal = Journal()
    rows = HookRows(journal)
    exchange = journal.append(
        Exchange(hook="a", method="pre_tool_execution", status=STATUS_PENDING, host="jcli")
    )
    (row,) = rows.hooks()
    assert (row.event, row.state, row.calls) == ("pre_tool_execution", "ready", 0)
    journal.amend(exchange, status=STATUS_OK, duration_ms=40.0)
    assert (row.calls, row.failures, row.median_ms, row.total_ms) == (1, 0, 40.0, 40.0)
    journal.amend(exchange, status=STATUS_INVALID)  # j-cli could not read the answer
    journal.amend(exchange, status=STATUS_INVALID)
    assert (row.calls, row.failures, row.median_ms, row.total_ms) == (1, 1, None, 40.0)


def test_the_calls_remembered_for_a_recount_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hook_rows, "COUNTED_KEPT", 10)
    journal = Journal()
    rows = HookRows(journal)
    calls = [journal.append(call("a")) for _ in range(100)]
    journal.amend(calls[-1], status=STATUS_INVALID)  # recent: taken back and counted again
    (row,) = rows.hooks()
    assert (row.calls, row.failures) == (100, 1)
    assert len(rows._counted) <= 20


def test_jcli_skips_come_from_its_chain_decisions_per_event() -> None:
    never = call("a", "not_sent", ms=None, action="skipped", method="post_tool_execution")
    skip = {"hook": "a", "action": "skipped (filter)", "status": "skipped"}
    odd = {"hook": 5, "action": "skipped", "status": "skipped"}  # hand-edited: not a hook name
    ran = {"hook": "b", "action": "no change", "status": "ok"}
    journal = Journal("jcli")
    journal.append(never)
    journal.append(Decision(stage="pre_tool_execution", chain=[skip, ran]))
    journal.append(Decision(stage="pre_tool_execution", chain=[skip, odd]))
    rows = {(row.name, row.event): row for row in HookRows(journal).hooks()}
    with tempfile.TemporaryDirectory() as folder:
        assert HookRows(reopened(journal, Path(folder))).hooks() == list(rows.values())
    counts = {key: (row.skipped, row.calls, row.failures) for key, row in rows.items()}
    # never run: no call and no failure; a hook that ran is no row until its exchange is
    assert counts == {
        ("a", "post_tool_execution"): (0, 0, 0),
        ("a", "pre_tool_execution"): (2, 0, 0),
    }


def test_a_relayed_agent_is_a_row_of_its_own_and_its_calls_are_not_a_hooks() -> None:
    relayed: dict[str, Any] = {"source": "relay:picoclaw"}
    rows = folded(
        Lifecycle(hook="picoclaw", state="connected", pid=77),
        hello("picoclaw", ["approve"], **relayed),
        call("picoclaw", **relayed),
        call("guard", **relayed),  # the relayed call, asked of a hook of ours
        Lifecycle(hook="picoclaw", state="disconnected", pid=77),
    )
    relay = rows["picoclaw"]
    assert relay.relay and (relay.state, relay.pid, relay.modes) == (
        "disconnected",
        77,
        ("approve",),
    )
    assert relay.calls == 2 and rows["guard"].calls == 1 and not rows["guard"].relay


def test_records_after_the_fold_began_are_folded_once_each() -> None:
    journal = Journal()
    journal.append(call("a"))
    rows = HookRows(journal)
    version = rows.version
    journal.append(call("a", STATUS_TIMEOUT))
    assert [(row.calls, row.failures) for row in rows.hooks()] == [(2, 1)]
    assert rows.version != version
    rows.close()
    journal.append(call("a"))
    assert rows.hooks()[0].calls == 2


def test_the_median_live_is_the_median_of_the_saved_session_past_the_window() -> None:
    """Calls that end in another order than they started, more of them than the window holds:
    live they are counted as they end, a saved session counts them in journal order."""
    journal = Journal()
    live = HookRows(journal)
    calls = [journal.append(call("a", STATUS_PENDING, ms=None)) for _ in range(3 * LATENCY_WINDOW)]
    for index, exchange in sorted(enumerate(calls), key=lambda pair: -pair[0]):
        journal.amend(exchange, status=STATUS_OK, duration_ms=float(index))
    saved = Journal()
    for exchange in calls:
        saved.adopt(exchange)
    median = HookRows(saved).hooks()[0].median_ms
    assert live.hooks()[0].median_ms == median == 2.5 * LATENCY_WINDOW - 0.5
    with tempfile.TemporaryDirectory() as folder:
        assert HookRows(reopened(journal, Path(folder))).hooks() == live.hooks()


# ---- a journal the real command wrote ---------------------------------------------------------


def test_a_journal_written_by_hook_inspector_run_folds_into_the_demo_hooks(tmp_path: Path) -> None:
    path = tmp_path / "demo.jsonl"
    subprocess.run(
        [sys.executable, "-m", "inspector", "run", "--journal", str(path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    journal = load_journal(path)
    rows = {row.name: row for row in HookRows(journal).hooks()}
    assert HookRows(open_journal(path)).hooks() == list(rows.values())  # through its index
    assert set(rows) == {"redactor", "weather", "review_gate", "event_logger"}
    started = {r.hook: r.pid for r in journal.of_type(Lifecycle) if r.state == "starting"}
    finished = [e for e in journal.exchanges() if e.status != STATUS_PENDING]
    for name, row in rows.items():
        assert (row.state, row.pid, row.restarts) == ("stopped", started[name], 0)
        assert row.calls == sum(e.hook == name for e in finished) and row.failures == 0
        assert row.median_ms is not None and row.median_ms > 0
    assert {name: row.modes for name, row in rows.items()} == {
        "redactor": ("tool",),
        "weather": ("llm", "tool"),
        "review_gate": ("approve",),
        "event_logger": ("observe",),
    }
    assert rows["review_gate"].calls == 3  # its hello and two approvals
