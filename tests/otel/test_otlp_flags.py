"""--otlp on every command that runs hooks, and what it says when it cannot be used: the
optional packages missing, a bad URL, no collector there. None of these is a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.otel.session_run import CONFIG, hook_inspector, run_session
from tests.support.otlp_receiver import otlp_receiver
from tests.support.paths import ROOT


def test_without_the_extra_otlp_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in list(sys.modules):
        if name.startswith("opentelemetry"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "opentelemetry", None)  # import opentelemetry fails
    assert main(["run", str(CONFIG), "--otlp", "http://127.0.0.1:4318"]) == 2
    error = capsys.readouterr().err
    assert "pip install 'hook-inspector[otel]'" in error and "Traceback" not in error


def test_a_url_that_is_no_collectors_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(CONFIG), "--otlp", "localhost:4318"]) == 2
    assert "--otlp wants an http:// or https:// URL" in capsys.readouterr().err


def test_a_missing_collector_is_one_line_and_the_run_goes_on(tmp_path: Path) -> None:
    with otlp_receiver() as (url, _received):
        pass  # the port is free again: nothing listens there now
    ran = run_session(tmp_path / "journal.jsonl", "--otlp", url)
    assert ran.returncode == 0
    lines = [line for line in ran.stderr.splitlines() if url in line]
    assert len(lines) == 1 and "not taken by the collector (Connection refused)" in lines[0]
    assert "Traceback" not in ran.stderr and "opentelemetry" not in ran.stderr


def test_the_environments_endpoint_and_headers_are_used(tmp_path: Path) -> None:
    with otlp_receiver() as (url, received):
        command = [sys.executable, "-m", "inspector", "check", str(CONFIG), "--json", "--otlp"]
        env = {
            "PATH": "/usr/bin:/bin",
            "OTEL_EXPORTER_OTLP_ENDPOINT": url,
            "OTEL_EXPORTER_OTLP_HEADERS": "x-team-key=planted-key,x-other=2",
        }
        ran = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=120
        )
    assert f"span(s) sent to {url}/v1/traces" in ran.stderr, ran.stderr
    methods = {s.attributes.get("rpc.method") for s in received.spans}
    assert {"hook.hello", "hook.before_llm", "hook.approve_tool"} <= methods  # check's probes
    assert received.headers and all(h["x-team-key"] == "planted-key" for h in received.headers)


def test_the_help_imports_no_opentelemetry() -> None:
    ran = hook_inspector("--help")
    shown = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "inspector", "run", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0 and "--otlp" in shown.stdout
    assert "opentelemetry" not in shown.stderr
