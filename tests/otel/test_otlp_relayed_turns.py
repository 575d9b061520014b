"""`serve --otlp` with a live Claude Code: each prompt of the relayed session is a trace of its
own (the turn its events' prompt_id names), with the relayed calls and the inspector's hook runs
for them in it, not one trace for the whole session; each relayed call in its decided stage."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.otel.serving import serving
from tests.support.bridge_client import short_socket_path
from tests.support.claude_prompts import claude_prompt
from tests.support.command_relay import run_relay
from tests.support.otlp_receiver import otlp_receiver


@pytest.fixture
def socket_path() -> Iterator[Path]:
    with short_socket_path() as path:
        yield path


def claude_project(folder: Path) -> Path:
    """A project whose Claude Code settings run one quiet hook on every tool call."""
    settings = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}
    (folder / ".claude").mkdir(parents=True)
    (folder / ".claude" / "settings.json").write_text(json.dumps(settings))
    return folder


async def test_two_relayed_prompts_are_two_traces(
    socket_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("TRACEPARENT", "TRACESTATE"):  # no host span to join: the turns alone
        monkeypatch.delenv(name, raising=False)
    project = claude_project(tmp_path / "project")
    prompts = [str(uuid.uuid4()), str(uuid.uuid4())]
    with otlp_receiver() as (url, received):
        async with serving(project, socket_path, url) as stderr:
            for event in [*claude_prompt(prompts[0]), *claude_prompt(prompts[1])]:
                run = await run_relay(socket_path, event)
                assert run.exit_code == 0, run.stderr
    [said] = stderr
    assert f"span(s) sent to {url}/v1/traces" in said, said
    turns = {
        span.attributes["hook_inspector.turn"]: span.trace_id
        for span in received.spans
        if span.name.startswith("turn ")
    }
    assert set(turns) == set(prompts)
    assert turns[prompts[0]] != turns[prompts[1]]
    for prompt in prompts:
        calls = [
            span
            for span in received.spans
            if span.trace_id == turns[prompt] and "rpc.method" in span.attributes
        ]
        relayed = [s for s in calls if s.attributes["hook_inspector.hook"] == "claude"]
        assert sorted(s.attributes["rpc.method"] for s in relayed) == [
            "PreToolUse",
            "Stop",
            "UserPromptSubmit",
        ]
        hook_runs = [s for s in calls if s.attributes["hook_inspector.hook"] != "claude"]
        assert [s.attributes["rpc.method"] for s in hook_runs] == ["PreToolUse"]
        # the relayed call is in its decided stage with the hook run for it, not a stage of its own
        (tool_call,) = [s for s in relayed if s.attributes["rpc.method"] == "PreToolUse"]
        (stage,) = [s for s in received.spans if s.span_id == tool_call.parent_id]
        assert stage.name == "PreToolUse Bash" and "hook_inspector.verdict" in stage.attributes
        assert [s.parent_id for s in hook_runs] == [stage.span_id]
