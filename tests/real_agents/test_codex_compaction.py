"""Auto-compaction in a real `codex exec` run, driven by the fake model reporting a token usage
past the project's model_auto_compact_token_limit, against hook-inspector's emulation of the same
run: the events in order and every hook payload key by key (the known differences are
codex_gaps.py), and a continue: false on PreCompact or PostCompact ending the turn alike; and the
compaction at the start of a turn, seen through `codex exec resume`."""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path

import codex_gaps as gaps
import pytest
from codex_cli import CodexCli
from codex_emulation import emulate, scenario_like, turns_like
from codex_fixtures import codex_cli, codex_project  # noqa: F401 (fixtures used by name)
from fake_responses import FakeResponses, Reply, exec_command
from recorded_hooks import HookCall, read_calls, recorder

from inspector.hosts.codex.events import EVENTS

PROMPT = "Tidy up the project."
LIMIT = 1000
VOLATILE = ("session_id", "turn_id")  # each run makes them anew
STOPPED = {"continue": False, "stopReason": "keep the whole history"}
# The model's tool call reports a usage past the limit, so Codex compacts before it goes on: the
# next request is the summary's (SUMMARY answers it), then the turn resumes.
SUMMARY = Reply("Summary: listed the files.")
SCRIPT = [
    Reply(tool_calls=(exec_command("echo listed", "call_0001"),), tokens=LIMIT * 50),
    SUMMARY,
    Reply("Done."),
]


def _hooks(project: Path, log: Path, stopping: str = "") -> None:
    """Record every event; the `stopping` event's hook also answers continue: false."""

    def handler(event: str) -> dict[str, str]:
        said = f"; echo {shlex.quote(json.dumps(STOPPED))}" if event == stopping else ""
        return {"type": "command", "command": recorder(log) + said}

    hooks = {event: [{"hooks": [handler(event)]}] for event in EVENTS}
    (project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    (project / ".codex" / "config.toml").write_text(f"model_auto_compact_token_limit = {LIMIT}\n")


def _real_then_emulated(
    cli: CodexCli, project: Path, home: Path, log: Path
) -> tuple[list[HookCall], list[HookCall], int]:
    with FakeResponses(SCRIPT) as api:
        run = cli.run(project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True)
    real, requests = read_calls(log), len(api.requests)
    log.unlink()
    replies = [reply for reply in SCRIPT if reply is not SUMMARY]
    scenario = scenario_like(PROMPT, replies, {"call_0001": "listed\n"})
    asyncio.run(emulate(project, scenario))
    assert run.exit_code == (0 if run.completed else 1), run.stderr
    return real, read_calls(log), requests


def _differing(emulated: list[HookCall], real: list[HookCall]) -> set[str]:
    differing = set()
    for ours, theirs in zip(emulated, real, strict=True):
        assert list(ours.payload) == list(theirs.payload), ours.event
        for key, value in theirs.payload.items():
            if key not in VOLATILE and ours.payload[key] != value:
                differing.add(key)
    return differing


def test_a_compaction_fires_its_hooks_as_in_codex_payload_by_payload(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    _hooks(codex_project, log)
    real, emulated, requests = _real_then_emulated(codex_cli, codex_project, home, log)

    events = [call.event for call in real]
    assert events[4:7] == ["PreCompact", "PostCompact", "SessionStart"] and requests == 3
    assert [call.event for call in emulated] == events
    assert [call.payload.get("trigger") for call in real[4:6]] == ["auto", "auto"]
    expected = (
        set(gaps.TRANSCRIPT_PATH.keys)
        if gaps.differs(codex_cli.version, gaps.TRANSCRIPT_PATH)
        else set()
    )
    assert _differing(emulated, real) == expected


@pytest.mark.parametrize("stopping", ["PreCompact", "PostCompact"])
def test_continue_false_on_a_compaction_event_ends_the_turn_as_in_codex(
    codex_cli: CodexCli, codex_project: Path, home: Path, stopping: str
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    _hooks(codex_project, log, stopping)
    real, emulated, requests = _real_then_emulated(codex_cli, codex_project, home, log)

    events = [call.event for call in real]
    assert events[-2:] == ["Interrupt", "SessionEnd"] and "Stop" not in events
    assert requests == (1 if stopping == "PreCompact" else 2)  # PreCompact's stop: no summary
    assert [call.event for call in emulated] == events
    _differing(emulated, real)


def test_session_start_after_a_compaction_gives_the_model_its_context_as_in_codex(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    said = "import json, sys; print('context from ' + json.load(sys.stdin)['source'])"
    handler = {"type": "command", "command": f"python3 -c {shlex.quote(said)}"}
    hooks = {"SessionStart": [{"hooks": [handler]}]}
    (codex_project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    (codex_project / ".codex" / "config.toml").write_text(
        f"model_auto_compact_token_limit = {LIMIT}\n"
    )
    with FakeResponses(SCRIPT) as api:
        codex_cli.run(codex_project, PROMPT, api_url=api.url, home=home, bypass_hook_trust=True)
    first, after = (
        [text for text in api.texts(request, "developer") if text.startswith("context from")]
        for request in (0, 2)
    )

    replies = [reply for reply in SCRIPT if reply is not SUMMARY]
    outcome = asyncio.run(emulate(codex_project, scenario_like(PROMPT, replies)))
    assert outcome.context == first + after == ["context from startup", "context from compact"]


def test_a_final_answer_over_the_limit_compacts_before_the_next_turn_as_in_codex(
    codex_cli: CodexCli, codex_project: Path, home: Path
) -> None:
    log = codex_project.parent / "hooks.jsonl"
    _hooks(codex_project, log)
    first, second = [Reply("Looked.", tokens=LIMIT * 50)], [Reply("Done.")]
    with FakeResponses(first) as api:
        codex_cli.run(
            codex_project, "Look around.", api_url=api.url, home=home, bypass_hook_trust=True
        )
    with FakeResponses([SUMMARY, *second]) as api:
        resumed = codex_cli.run(
            codex_project,
            "Go on.",
            api_url=api.url,
            home=home,
            bypass_hook_trust=True,
            options=["resume", "--last"],
        )
    assert resumed.completed, resumed.stderr
    real = read_calls(log)
    log.unlink()
    asyncio.run(emulate(codex_project, turns_like(("Look around.", first), ("Go on.", second))))
    emulated = read_calls(log)

    # one session here, two processes there: the first run's SessionEnd and the resumed run's
    # SessionStart (source resume) have no counterpart
    ended, resumed_start = real[3], real[6]
    assert (ended.event, resumed_start.payload.get("source")) == ("SessionEnd", "resume")
    real = real[:3] + real[4:6] + real[7:]
    assert [call.event for call in real][3:7] == [
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "UserPromptSubmit",
    ]
    assert [call.event for call in emulated] == [call.event for call in real]
    expected = (
        set(gaps.TRANSCRIPT_PATH.keys)
        if gaps.differs(codex_cli.version, gaps.TRANSCRIPT_PATH)
        else set()
    )
    assert _differing(emulated, real) == expected
