"""The spans of a real run, sent to a real OpenTelemetry backend (Arize Phoenix, run offline
here) and read back through its query API: the backend holds the trace as the journal has it."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from inspector.journal.records import Exchange
from tests.otel.phoenix import PhoenixUnavailable, installed, phoenix_running, spans_of
from tests.otel.session_run import run_session, saved_records

pytestmark = pytest.mark.xdist_group("real_agents")  # one heavy install and server at a time
READ_BACK_TIMEOUT_S = 60


@pytest.fixture(scope="session")
def phoenix() -> Path:
    try:
        return installed()
    except (PhoenixUnavailable, subprocess.TimeoutExpired, OSError) as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Arize Phoenix is needed in CI: {error}", pytrace=False)
        pytest.skip(f"Arize Phoenix is not available: {error}")


def test_phoenix_holds_the_runs_trace_as_the_journal_has_it(phoenix: Path, tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    with phoenix_running(phoenix, tmp_path) as url:
        ran = run_session(journal, "--otlp", url)
        assert ran.returncode == 0, ran.stderr
        sent = re.search(r"(\d+) span\(s\) sent to", ran.stderr)
        assert sent and "not taken" not in ran.stderr, ran.stderr
        deadline = time.monotonic() + READ_BACK_TIMEOUT_S
        while len(spans := spans_of(url)) < int(sent.group(1)):
            assert time.monotonic() < deadline, f"{len(spans)} of {sent.group(1)} spans stored"
            time.sleep(0.5)
    by_id = {span["context"]["span_id"]: span for span in spans}
    by_seq = {
        span["attributes"]["hook_inspector.seq"]: span
        for span in spans
        if "rpc.method" in span["attributes"]
    }
    exchanges = [r for r in saved_records(journal) if isinstance(r, Exchange)]
    assert sorted(by_seq) == sorted(e.seq for e in exchanges)
    for exchange in exchanges:
        span = by_seq[exchange.seq]
        assert span["attributes"]["hook_inspector.hook"] == exchange.hook
        assert (span["status_code"] == "ERROR") == (exchange.status != "ok")
        if exchange.turn:  # exchange -> stage -> turn, all in the turn's trace
            stage = by_id[span["parent_id"]]
            turn = by_id[stage["parent_id"]]
            assert turn["name"] == f"turn {exchange.turn}" and turn["parent_id"] is None
            trace = span["context"]["trace_id"]
            assert stage["context"]["trace_id"] == turn["context"]["trace_id"] == trace
