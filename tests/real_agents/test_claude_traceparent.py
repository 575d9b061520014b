"""The real Claude Code CLI's trace context, and hook-inspector's spans joined to its trace.

What a command hook gets (both releases, read from their programs and seen here): Claude Code
sets TRACEPARENT for its hooks only with its tracing on and propagation allowed, that is
CLAUDE_CODE_ENABLE_TELEMETRY=1, OTEL_TRACES_EXPORTER=otlp, CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1,
and either the Anthropic API itself or CLAUDE_CODE_PROPAGATE_TRACEPARENT=1 (these runs use a
fake API, so they set it). The span it names is the prompt's `claude_code.interaction`, the
same for every hook of the prompt, PreToolUse included (not its `claude_code.tool`). A
TRACEPARENT and TRACESTATE in Claude Code's own environment reach its hooks as they are when its
tracing is off; with it on, its interaction span is their child and the hooks get that span,
TRACESTATE as it was.

Then a real `claude -p` whose PreToolUse runs the relay to a real `hook-inspector serve --otlp`,
both exporting to one OTLP receiver: hook-inspector's turn is in Claude Code's trace, under its
interaction span."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from claude_cli import ClaudeCli
from claude_fixtures import claude_cli, project  # noqa: F401 (fixtures used by name)
from fake_anthropic import FakeAnthropic, Reply, bash
from recorded_hooks import read_calls, recorder, recording_settings, write_settings

from inspector.hosts.install_relay import relay_command
from tests.support.otlp_receiver import Received, ReceivedSpan, otlp_receiver

HOOK_INSPECTOR = Path(sys.executable).parent / "hook-inspector"
START_TIMEOUT_S = 60.0
RELAY_TIMEOUT_S = 30
EVENTS = ("UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")
INHERITED = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
INHERITED_STATE = "congo=t61rcWkgMzE"


def tracing(url: str) -> dict[str, str]:
    """Claude Code's settings for its traces to `url`, and for its hooks' TRACEPARENT."""
    return {
        "CLAUDE_CODE_ENABLE_TELEMETRY": "1",
        "CLAUDE_CODE_ENHANCED_TELEMETRY_BETA": "1",
        "CLAUDE_CODE_PROPAGATE_TRACEPARENT": "1",  # not needed against the Anthropic API
        "OTEL_TRACES_EXPORTER": "otlp",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        "OTEL_EXPORTER_OTLP_ENDPOINT": url,
        "OTEL_METRICS_EXPORTER": "none",
        "OTEL_LOGS_EXPORTER": "none",
    }


@pytest.fixture(autouse=True)
def no_trace_context_of_our_own(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TRACEPARENT", "TRACESTATE"):  # Claude Code inherits the test's environment
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def socket_path() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="claude-tp-", dir="/tmp"))  # AF_UNIX paths are short
    yield folder / "inspector" / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


def one_bash_call(cli: ClaudeCli, project: Path, home: Path, env: dict[str, str]) -> None:
    model = [Reply(tool_calls=(bash("echo hi", "toolu_0001"),)), Reply("Done.")]
    with FakeAnthropic(model) as api:
        run = cli.run(project, "Say hi.", api_url=api.url, home=home, env=env)
    assert (run.exit_code, run.result["subtype"]) == (0, "success"), run.stderr
    assert api.unscripted == 0


def hooks_trace_context(
    cli: ClaudeCli, project: Path, home: Path, env: dict[str, str]
) -> list[tuple[str, str | None, str | None]]:
    """(event, TRACEPARENT, TRACESTATE) of every hook call of one run with `env` added."""
    log = project.parent / "calls.jsonl"
    write_settings(project, recording_settings(recorder(log), EVENTS))
    one_bash_call(cli, project, home, env)
    return [
        (call.event, call.env.get("TRACEPARENT"), call.env.get("TRACESTATE"))
        for call in read_calls(log)
    ]


def received_one(received: Received, name: str, timeout_s: float = 30.0) -> None:
    """Wait until a span named `name` has arrived (a run's last spans follow its end)."""
    give_up = time.monotonic() + timeout_s
    while not spans_named(received, name):
        assert time.monotonic() < give_up, f"no {name} span arrived"
        time.sleep(0.05)


def spans_named(received: Received, name: str) -> list[ReceivedSpan]:
    with received.lock:
        return [span for span in received.spans if span.name == name]


def test_without_its_tracing_claude_code_gives_hooks_no_traceparent(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    calls = hooks_trace_context(claude_cli, project, home, {})
    assert [event for event, _, _ in calls] == list(EVENTS)
    assert {(parent, state) for _, parent, state in calls} == {(None, None)}


def test_tracing_without_propagation_allowed_gives_hooks_no_traceparent(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    with otlp_receiver() as (url, _):
        settings = tracing(url)
        del settings["CLAUDE_CODE_PROPAGATE_TRACEPARENT"]  # and the API is not Anthropic's
        calls = hooks_trace_context(claude_cli, project, home, settings)
    assert {(parent, state) for _, parent, state in calls} == {(None, None)}


def test_a_trace_context_claude_code_inherits_reaches_its_hooks_as_it_is(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    inherited = {"TRACEPARENT": INHERITED, "TRACESTATE": INHERITED_STATE}
    calls = hooks_trace_context(claude_cli, project, home, inherited)
    assert {(parent, state) for _, parent, state in calls} == {(INHERITED, INHERITED_STATE)}


def test_with_its_tracing_every_hook_gets_the_prompts_interaction_span(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    with otlp_receiver() as (url, received):
        inherited = {"TRACEPARENT": INHERITED, "TRACESTATE": INHERITED_STATE}
        calls = hooks_trace_context(claude_cli, project, home, {**tracing(url), **inherited})
        received_one(received, "claude_code.interaction")
    (interaction,) = spans_named(received, "claude_code.interaction")
    (tool,) = spans_named(received, "claude_code.tool")
    assert interaction.trace_id == INHERITED.split("-")[1]  # Claude Code's trace joined ours
    assert interaction.parent_id == INHERITED.split("-")[2]
    given = f"00-{interaction.trace_id}-{interaction.span_id}-01"
    assert calls == [(event, given, INHERITED_STATE) for event in EVENTS]
    assert tool.parent_id == interaction.span_id  # the tool's span is not the hooks' parent


@contextmanager
def serving_otlp(folder: Path, socket_path: Path, url: str) -> Iterator[Path]:
    """`hook-inspector serve --otlp URL` with one Claude Code PreToolUse hook that allows Bash,
    until the block ends (its last spans are sent as it stops); yields its journal's path."""
    allow = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    hook = {"kind": "command", "host": "claude", "event": "PreToolUse", "matcher": "Bash"}
    config = folder / "inspector.yaml"
    config.write_text(
        json.dumps({"hooks": {"allow": {**hook, "command": f"echo '{json.dumps(allow)}'"}}})
    )
    journal = folder / "journal.jsonl"
    argv = [str(HOOK_INSPECTOR), "serve", str(config), "--socket", str(socket_path)]
    argv += ["--journal", str(journal), "--otlp", url]
    with (folder / "serve.out").open("wb") as out:
        serve = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    try:
        give_up = time.monotonic() + START_TIMEOUT_S
        while not socket_path.is_socket():
            assert serve.poll() is None, f"serve ended before listening (exit {serve.returncode})"
            assert time.monotonic() < give_up, "serve did not start listening"
            time.sleep(0.05)
        yield journal
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=30)


def test_hook_inspectors_turn_is_in_claude_codes_trace_under_its_interaction_span(
    claude_cli: ClaudeCli, project: Path, home: Path, socket_path: Path
) -> None:
    relay = relay_command("claude", RELAY_TIMEOUT_S, socket_path)
    handler = {"type": "command", "command": relay, "timeout": RELAY_TIMEOUT_S}
    write_settings(project, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}})
    with otlp_receiver() as (url, received):
        with serving_otlp(project.parent, socket_path, url) as journal:
            one_bash_call(claude_cli, project, home, tracing(url))
        received_one(received, "claude_code.interaction")
        received_one(received, "claude PreToolUse")
    (interaction,) = spans_named(received, "claude_code.interaction")
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    relayed = {
        r["traceparent"] for r in records if r["type"] == "exchange" and r["hook"] == "claude"
    }
    assert relayed == {f"00-{interaction.trace_id}-{interaction.span_id}-01"}
    ours = [span for span in received.spans if span.resource["service.name"] == "hook-inspector"]
    assert {span.trace_id for span in ours} == {interaction.trace_id}
    (turn,) = [span for span in ours if span.name.startswith("turn ")]
    assert turn.parent_id == interaction.span_id
    (exchange,) = spans_named(received, "claude PreToolUse")
    assert exchange.attributes["gen_ai.tool.call.id"] == "toolu_0001"
    (tool,) = spans_named(received, "claude_code.tool")  # the same call in Claude Code's spans
    assert tool.attributes["gen_ai.tool.call.id"] == "toolu_0001"
    assert tool.trace_id == exchange.trace_id
