"""Where spans go, and how that place is said on screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.journal.journal import Journal
from inspector.journal.records import STATUS_OK, Exchange
from inspector.otel.endpoint import OtlpOptions, shown_url, traces_url
from inspector.otel.exporter import LiveSpans
from tests.otel.session_run import hook_inspector, run_session
from tests.support.otlp_receiver import otlp_receiver

TOKEN = "planted-token-31337"


@pytest.mark.parametrize(
    ("given", "url"),
    [
        ("http://collector:4318", "http://collector:4318/v1/traces"),
        ("http://collector:4318/", "http://collector:4318/v1/traces"),
        ("https://c.example?api_key=k", "https://c.example/v1/traces?api_key=k"),
        ("https://c.example/?api_key=k", "https://c.example/v1/traces?api_key=k"),
        ("https://c.example/otlp/v1/traces?k=1", "https://c.example/otlp/v1/traces?k=1"),
    ],
)
def test_a_base_url_gets_the_traces_path_before_its_query(given: str, url: str) -> None:
    assert traces_url(given, environ={}) == url
    assert traces_url(None, environ={"OTEL_EXPORTER_OTLP_ENDPOINT": given}) == url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"https://team:{TOKEN}@c.example/v1/traces", "https://c.example/v1/traces"),
        (f"https://c.example:4318/v1/traces?api_key={TOKEN}", "https://c.example:4318/v1/traces"),
        (f"https://{TOKEN}@c.example/v1/traces#{TOKEN}", "https://c.example/v1/traces"),
        ("http://localhost:4318/v1/traces", "http://localhost:4318/v1/traces"),
    ],
)
def test_the_url_said_on_screen_has_no_credentials_or_query(url: str, shown: str) -> None:
    assert shown_url(url) == shown


def test_what_live_spans_say_names_the_collector_without_its_credentials() -> None:
    url = f"http://team:{TOKEN}@127.0.0.1:9/v1/traces?api_key={TOKEN}"
    warnings: list[str] = []
    spans = LiveSpans(OtlpOptions(url), warn=warnings.append)
    spans._not_taken()  # what the queue calls when the collector does not take a batch
    journal = Journal()
    spans.attach(journal)
    journal.append(Exchange(hook="h", method="hook.hello", status=STATUS_OK, duration_ms=1))
    said = spans.close()
    assert warnings and "http://127.0.0.1:9/v1/traces did not take" in warnings[0]
    assert "sent to http://127.0.0.1:9/v1/traces" in said
    assert not any(TOKEN in line for line in [*warnings, said])


def test_export_names_the_collector_without_its_credentials(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    assert run_session(journal).returncode == 0
    with otlp_receiver() as (url, _received):
        pass  # nothing listens there now
    with_token = url.replace("://", f"://team:{TOKEN}@") + f"?api_key={TOKEN}"
    sent = hook_inspector("export", journal, "--otlp", with_token)
    assert sent.returncode == 1
    assert f"sent to {url}/v1/traces;" in sent.stderr
    assert TOKEN not in sent.stderr
