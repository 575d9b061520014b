"""bench/scale.py builds its saved sessions in the journal's own shapes. No timing is asserted."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.journal import store
from inspector.journal.index_files import read_index
from inspector.journal.jsonl import load_journal
from inspector.journal.records import Exchange
from tests.bench import scale


def test_a_written_session_opens_as_numbered_distinct_exchanges(tmp_path: Path) -> None:
    journal = load_journal(scale.write_session(tmp_path / "s.jsonl", 3 * scale.TEMPLATES))
    exchanges = list(journal.of_type(Exchange))
    assert len(exchanges) == len(journal) == 3 * scale.TEMPLATES
    for seq, exchange in enumerate(exchanges, 1):
        assert exchange.seq == exchange.rpc_id == seq
        assert exchange.request is not None and exchange.request["id"] == seq
        assert f'"id":{seq},' in (exchange.raw_request or "").replace(" ", "")
        assert exchange.host == "picoclaw"
    times = [exchange.ts for exchange in exchanges]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert len({exchange.hook for exchange in exchanges}) > 1


def test_the_live_child_reports_memory_before_and_after() -> None:
    figures = scale.live_child(500)
    assert 0 < figures["before"] <= figures["after"]


def test_the_live_ui_child_keeps_only_the_newest_records_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "KEEP", 100)
    figures = asyncio.run(scale._live_ui(3_000, tmp_path))
    assert 0 < figures["before"] <= figures["after"]
    assert figures["in_memory"] <= 100 + 2_000  # at most the newest, and one batch unwritten


def test_a_flood_of_refusals_holds_a_few_records_not_one_each() -> None:
    assert scale.refusals_kb(2_000) < 50  # a record each would hold about 480 KB


def test_the_index_child_indexes_a_session_written_without_one(tmp_path: Path) -> None:
    path = scale.write_session(tmp_path / "s.jsonl", 2 * scale.TEMPLATES)
    assert read_index(path) is None
    assert scale.index_child(path)["index_s"] > 0
    saved = read_index(path)
    assert saved is not None and len(saved.seqs) == 2 * scale.TEMPLATES
