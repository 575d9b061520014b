"""A user's own `http` handlers under the real `claude -p` (2.1.332), against a hook server on
127.0.0.1, and host mode's emulation of the same handler on the same answer: whether the Bash
call ran, what the model was told when it did not, and what Claude Code reported of the hook.
Each case was first read from the CLI's program (issue 26, item 2); this keeps them true."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from claude_cli import ClaudeCli
from claude_fixtures import claude_cli, only, project  # noqa: F401 (fixtures used by name)
from fake_anthropic import FakeAnthropic, Reply, bash
from recorded_hooks import write_settings

from inspector.hooks.approvals import Approvals
from inspector.hosts.claude.chain import ClaudeHooks
from inspector.hosts.claude.config import read_claude
from inspector.journal.journal import Journal
from tests.support.http_hook_server import Answer, hook_server

pytestmark = only("2.1.332")

DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "not here",
    }
}
# (answer, the handler's own keys, whether the call runs, what Claude Code says of the hook)
CASES: dict[str, tuple[Answer, dict[str, Any], bool, str]] = {
    "a 2xx deny": (Answer(200, DENY), {}, False, ""),
    "an empty 2xx": (Answer(200, ""), {}, True, ""),
    "a 5xx with a deny body": (Answer(500, DENY), {}, True, "HTTP 500 from URL"),
    "a 4xx with a deny body": (Answer(404, DENY), {}, True, "HTTP 404 from URL"),
    "a 2xx that is not JSON": (
        Answer(200, "looks fine"),
        {},
        True,
        "HTTP hook must return JSON, but got non-JSON response body: looks fine",
    ),
    "a 5xx with onFailure block": (Answer(500, ""), {"onFailure": "block"}, False, ""),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_the_emulation_reads_an_http_answer_as_the_real_cli_does(
    claude_cli: ClaudeCli,
    project: Path,
    home: Path,
    case: str,
) -> None:
    answer, keys, runs, said = CASES[case]
    marker = project / "made.txt"
    with hook_server() as server:
        url = server.answer("/hook", answer)
        handler = {"type": "http", "url": url, "timeout": 10, **keys}
        write_settings(
            project, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}
        )
        model = [Reply(tool_calls=(bash(f"touch {marker}", "toolu_0001"),)), Reply("Done.")]
        with FakeAnthropic(model) as api:
            run = claude_cli.run(project, "Make the file.", api_url=api.url, home=home)
        real_ran = marker.exists()
        [told] = api.tool_results()
        [response] = [m for m in run.messages if m.get("subtype") == "hook_response"]

        settings = read_claude(project)
        hooks = ClaudeHooks(
            settings.config.command_hooks, Journal(), Approvals(), project_dir=project
        )
        hooks.approvals.unattended = True
        event = json.loads(server.seen[0].body)
        outcome = await hooks.fire("PreToolUse", event, source="test")

    assert real_ran is runs and outcome.blocked is not runs
    if said:
        assert response["stderr"] == said.replace("URL", url)
        [run_of_hook] = outcome.runs
        assert run_of_hook.answer.reason == said.replace("URL", url)
    if not runs:
        # 2.1.332 puts "PreToolUse:Bash hook error: " before a block's reason; a deny's reason
        # reaches the model as the hook gave it
        assert told["content"].endswith(outcome.reason), (told["content"], outcome.reason)
