"""A hook's W3C trace context through the command relay: a real relay process started with
TRACEPARENT and TRACESTATE in its environment (as Claude Code starts it with its tracing on)
hands them to the inspector with the event; the exchange's record keeps them, and the
inspector's own hooks for the event get them as the host would have given them, and their
records keep them too. The relayed call and the inspector's hook runs for it are one stage's
spans, though the relayed call is answered after the stage is decided."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.bridge.listener import ListenOptions, listen_for_relays
from inspector.config.model import Config
from inspector.engine import Engine
from inspector.journal.records import Exchange
from inspector.otel.plan import PlannedSpan
from inspector.otel.planner import SpanPlanner
from tests.support.claude import spec
from tests.support.command_relay import HookRun, pre_tool_use, run_relay

TRACEPARENT = "00-7bef2c59af986320659b7066e586c240-a3870269de31dddd-01"
TRACESTATE = "vendor=abc"


@pytest.fixture
def socket_path() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="tprelay-", dir="/tmp"))  # AF_UNIX paths are short
    yield folder / "inspector" / "relay.sock"
    shutil.rmtree(folder, ignore_errors=True)


async def _relayed(
    engine: Engine, socket_path: Path, env: dict[str, str], planner: SpanPlanner | None = None
) -> tuple[HookRun, list[PlannedSpan]]:
    """A Bash PreToolUse relayed to `engine` by a relay started with `env`, and what `planner`
    plans of the journal meanwhile, as --otlp does."""
    planned: list[PlannedSpan] = []
    if planner is not None:
        engine.journal.subscribe(lambda record, new: planned.extend(planner.take(record, new)))
    listener = await listen_for_relays(engine, ListenOptions(socket_path=socket_path))
    try:
        return await run_relay(socket_path, pre_tool_use("ls"), env=env), planned
    finally:
        await listener.close()


async def test_the_relay_carries_the_hooks_trace_context_to_the_record_and_the_hooks(
    socket_path: Path, tmp_path: Path
) -> None:
    says = spec('echo "$TRACEPARENT|$TRACESTATE|${UNRELATED-unset}" >&2', name="says")
    config = Config(hooks=(says,), host="claude", workdir=tmp_path)
    trace_env = {"TRACEPARENT": TRACEPARENT, "TRACESTATE": TRACESTATE, "UNRELATED": "x"}
    async with Engine(config) as engine:
        run, _ = await _relayed(engine, socket_path, trace_env)
    assert run.exit_code == 0
    exchanges = [r for r in engine.journal.records if isinstance(r, Exchange)]
    (relayed,) = [r for r in exchanges if r.hook == "claude"]
    assert (relayed.traceparent, relayed.tracestate) == (TRACEPARENT, TRACESTATE)
    (hook_run,) = [r for r in exchanges if r.hook == "says"]
    assert hook_run.stderr == f"{TRACEPARENT}|{TRACESTATE}|unset\n"
    assert (hook_run.traceparent, hook_run.tracestate) == (TRACEPARENT, TRACESTATE)


async def test_a_relay_started_without_a_trace_context_leaves_the_record_without_one(
    socket_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("TRACEPARENT", "TRACESTATE"):  # the relay inherits the test's environment
        monkeypatch.delenv(name, raising=False)
    config = Config(hooks=(spec("true", name="quiet"),), host="claude", workdir=tmp_path)
    async with Engine(config) as engine:
        await _relayed(engine, socket_path, {})
    (relayed,) = [
        r for r in engine.journal.records if isinstance(r, Exchange) and r.hook == "claude"
    ]
    assert (relayed.traceparent, relayed.tracestate) == (None, None)


@pytest.mark.parametrize("trace_env", [{"TRACEPARENT": TRACEPARENT}, {}], ids=["traced", "plain"])
async def test_a_relayed_call_and_the_hook_runs_for_it_are_one_stage(
    socket_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, trace_env: dict[str, str]
) -> None:
    for name in ("TRACEPARENT", "TRACESTATE"):
        monkeypatch.delenv(name, raising=False)
    config = Config(hooks=(spec("true", name="guard"),), host="claude", workdir=tmp_path)
    planner = SpanPlanner()
    async with Engine(config) as engine:
        run, spans = await _relayed(engine, socket_path, trace_env, planner)
    assert run.exit_code == 0
    spans += planner.finish()
    (turn,) = [span for span in spans if span.parent is None]
    (stage,) = [span for span in spans if span.parent == turn.key]
    assert stage.name == "PreToolUse Bash"  # the stage's decision, its tool
    calls = {span.name: span.parent for span in spans if span.key.startswith("exchange:")}
    assert calls == {"claude PreToolUse": stage.key, "guard PreToolUse": stage.key}
