"""A Claude Code session's spans: its command hooks' runs as exchange spans, each tool call's
`tool_use_id` as `gen_ai.tool.call.id`, so they join Claude Code's own telemetry."""

from __future__ import annotations

from pathlib import Path

from inspector.journal.records import Exchange
from tests.otel.session_run import hook_inspector, saved_records
from tests.support.otlp_receiver import otlp_receiver
from tests.support.paths import EXAMPLES


def test_claude_codes_tool_use_id_is_the_spans_tool_call_id(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    with otlp_receiver() as (url, received):
        ran = hook_inspector("run", EXAMPLES / "claude", "--journal", journal, "--otlp", url)
    assert ran.returncode == 0, ran.stderr
    spans = {
        s.attributes["hook_inspector.seq"]: s
        for s in received.spans
        if "rpc.method" in s.attributes
    }
    tool_runs = [
        r for r in saved_records(journal) if isinstance(r, Exchange) and r.tool and r.request
    ]
    assert tool_runs
    for run in tool_runs:
        attributes = spans[run.seq].attributes
        assert attributes["hook_inspector.host"] == "claude"
        assert attributes["rpc.method"] == run.method and "jsonrpc.request.id" not in attributes
        assert attributes["gen_ai.tool.name"] == run.tool
        assert attributes["gen_ai.tool.call.id"] == run.request["tool_use_id"]
