"""Each host reads the turn of a call its live agent relays (Host.relayed_turns), from what the
agent itself sends: Claude Code's prompt_id (as the real CLI's recorded calls carry it), Codex's
turn_id, OpenClaw's runId, PicoClaw's meta.TurnID; Gemini CLI and j-cli name none, so a turn
runs from a prompt's event to the next, per session."""

from __future__ import annotations

import json
from typing import Any

from inspector.hosts.codex.templates import CodexSession
from inspector.hosts.openclaw.templates import sample
from inspector.hosts.picoclaw.templates import meta, tool_call_request
from inspector.hosts.registry import host_named
from tests.support.paths import TESTS

RECORDED = TESTS / "real_agents/data/claude-code-2.1.332/hook-calls.json"
SESSION = "5d3c1b2a-0000-4000-8000-000000000001"
OTHER_SESSION = "9e8f7a6b-0000-4000-8000-000000000002"


def turns_of(host: str, payloads: list[dict[str, Any]]) -> list[str | None]:
    reader = host_named(host).relayed_turns()
    return [reader.turn_of(payload) for payload in payloads]


def test_claude_codes_turn_is_the_prompt_its_events_name_from_the_first_prompt_on() -> None:
    calls = json.loads(RECORDED.read_text())["calls"]
    read = turns_of("claude", [call["payload"] for call in calls])
    turns = dict(zip([call["event"] for call in calls], read, strict=True))
    assert turns.pop("SessionStart") is None
    assert set(turns.values()) == {"<prompt_id>"}


def test_codexs_turn_is_its_turn_id_and_its_session_events_are_in_none() -> None:
    session = CodexSession(SESSION, "/work/project")
    first = session.payload("UserPromptSubmit", {"prompt": "hi"})
    session.new_turn()
    second = session.payload("PreToolUse", {"tool_name": "Bash"})
    start = session.payload("SessionStart", {"source": "startup"})
    assert turns_of("codex", [first, second, start]) == [first["turn_id"], second["turn_id"], None]
    assert first["turn_id"] != second["turn_id"]


def test_openclaws_turn_is_the_agent_run_its_ctx_or_its_event_names() -> None:
    event, ctx = sample("before_tool_call")
    end, _ctx = sample("agent_end")
    calls = [
        {"event": event, "ctx": ctx | {"runId": "run-1"}},
        {"event": end | {"runId": "run-2"}, "ctx": {}},
        {"event": {"from": "x", "content": "hi"}, "ctx": {"channelId": "c"}},
    ]
    assert turns_of("openclaw", calls) == ["run-1", "run-2", None]


def test_picoclaws_turn_is_its_meta_turn_id_and_a_side_question_is_in_none() -> None:
    def request(turn_id: str) -> dict[str, Any]:
        params = tool_call_request(meta("turn.tool.before", turn_id=turn_id), None, "exec", None)
        return {"jsonrpc": "2.0", "id": 1, "method": "hook.before_tool", "params": params}

    assert turns_of("picoclaw", [request("turn-7"), request("")]) == ["turn-7", None]


def gemini(event: str, session: str = SESSION, **fields: Any) -> dict[str, Any]:
    return {"session_id": session, "hook_event_name": event, **fields}


def test_a_gemini_cli_turn_runs_from_one_before_agent_to_the_next_per_session() -> None:
    payloads = [
        gemini("SessionStart", source="startup"),
        gemini("BeforeAgent", prompt="one"),
        gemini("BeforeAgent", prompt="one"),  # a second hook of the same event: the same turn
        gemini("BeforeTool", tool_name="ls"),
        gemini("BeforeAgent", OTHER_SESSION, prompt="elsewhere"),
        gemini("BeforeAgent", prompt="two"),
        gemini("AfterAgent", OTHER_SESSION),
        {"hook_event_name": "BeforeAgent"},  # no session: no turn to name
    ]
    assert turns_of("gemini", payloads) == [
        None,
        "5d3c1b2a/turn-1",
        "5d3c1b2a/turn-1",
        "5d3c1b2a/turn-1",
        "9e8f7a6b/turn-1",
        "5d3c1b2a/turn-2",
        "9e8f7a6b/turn-1",
        None,
    ]


def test_a_jcli_turn_starts_at_a_sent_message_or_a_one_shot_sessions_start() -> None:
    def event(name: str, session: str = SESSION, **fields: Any) -> dict[str, Any]:
        return {"event": name, "session_id": session, "cwd": "/p", **fields}

    payloads = [
        event("session_start", model=None),  # the chat app's, before any message: no turn yet
        event("pre_send_message", user_input="one"),
        event("pre_tool_execution", tool_name="Bash"),
        event("pre_send_message", user_input="two"),
        event("session_start", OTHER_SESSION, model="m"),  # `j chat "..."`: a session a turn
        event("stop", OTHER_SESSION),
    ]
    assert turns_of("jcli", payloads) == [
        None,
        "5d3c1b2a/turn-1",
        "5d3c1b2a/turn-1",
        "5d3c1b2a/turn-2",
        "9e8f7a6b/turn-1",
        "9e8f7a6b/turn-1",
    ]
