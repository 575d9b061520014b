"""`export FILE --otlp URL`: a saved session's spans, at its own timestamps, to a collector."""

from __future__ import annotations

from pathlib import Path

from inspector.journal.records import Exchange
from tests.otel.session_run import PLANTED, hook_inspector, run_session, saved_records
from tests.support.otlp_receiver import otlp_receiver


def test_a_saved_session_is_sent_with_its_original_timestamps(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    assert run_session(journal).returncode == 0  # recorded offline: no --otlp
    exchanges = [r for r in saved_records(journal) if isinstance(r, Exchange)]
    with otlp_receiver() as (url, received):
        sent = hook_inspector("export", journal, "--otlp", url)
    assert sent.returncode == 0, sent.stderr
    assert f"{len(received.spans)} span(s) of {journal} sent to {url}/v1/traces" in sent.stderr
    starts = {
        s.attributes["hook_inspector.seq"]: s.start_ns
        for s in received.spans
        if "rpc.method" in s.attributes
    }
    assert starts == {e.seq: round(e.ts * 1e9) for e in exchanges}
    assert not any(PLANTED.encode() in body for body in received.bodies)


def test_export_to_no_collector_says_so_and_fails(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    assert run_session(journal).returncode == 0
    with otlp_receiver() as (url, _received):
        pass  # nothing listens there now
    sent = hook_inspector("export", journal, "--otlp", url)
    assert sent.returncode == 1
    assert "not taken by the collector (Connection refused)" in sent.stderr
    assert "Traceback" not in sent.stderr


def test_export_wants_an_output_or_a_collector(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    journal.write_text("")
    refused = hook_inspector("export", journal)
    assert refused.returncode == 2 and "give -o OUT, --otlp URL or both" in refused.stderr
