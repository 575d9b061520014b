"""bench/scale.py builds its saved sessions in the journal's own shapes. No timing is asserted."""

from __future__ import annotations

from pathlib import Path

from bench import scale
from inspector.journal.jsonl import load_journal
from inspector.journal.records import Exchange


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


def test_a_flood_of_refusals_holds_a_few_records_not_one_each() -> None:
    assert scale.refusals_kb(2_000) < 50  # a record each would hold about 480 KB
