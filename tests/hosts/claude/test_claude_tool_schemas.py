"""Claude Code parses a tool call's input with its tool's schema: the hooks and the tool see its
defaults, and a hook's updatedInput the schema refuses is refused, in each release's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.hosts.claude.versions import claude_version
from inspector.scenario import Scenario, parse_scenario
from tests.support.claude import claude_hooks, decision, reply, spec

EDIT = {"file_path": "/p/notes.txt", "old_string": "draft", "new_string": "final"}
ONE_CALL = """
session: s
turns:
  - user: "go"
    rounds:
      - tool_calls:
          - tool: {tool}
            arguments: {arguments}
      - content: "done"
"""
SCHEMA_WORDS = (
    "PreToolUse hook for Bash returned updatedInput that failed schema validation: Bash failed "
    "due to the following issue:\nThe parameter `command` type is expected as `string` but "
    "provided as `number`"
)
NOTE_2_1_332 = "\nThe tool input from the model was valid; the hook's rewrite of it was not."


def one_call(tool: str, arguments: dict[str, object]) -> Scenario:
    return parse_scenario(ONE_CALL.format(tool=tool, arguments=json.dumps(arguments)))


async def test_the_hooks_and_the_tool_see_edits_replace_all_default(tmp_path: Path) -> None:
    record = tmp_path / "pre.jsonl"
    hook = spec(f"CLAUDE_HOOK_RECORD={record} {reply(0)}", "PreToolUse", name="record")
    hooks = claude_hooks(hook, project_dir=tmp_path)
    [outcome] = await hooks.turn_runner().run(one_call("Edit", EDIT))
    [seen] = [json.loads(line) for line in record.read_text().splitlines()]
    assert seen["tool_input"] == {**EDIT, "replace_all": False}
    [use] = outcome.tool_uses
    assert use.ran and use.tool_input == {**EDIT, "replace_all": False}


@pytest.mark.parametrize(("version", "note"), [("2.1.197", ""), ("2.1.332", NOTE_2_1_332)])
async def test_an_updated_input_the_schema_refuses_is_refused_in_the_versions_words(
    tmp_path: Path, version: str, note: str
) -> None:
    rewrite = spec(reply(0, decision("allow", updatedInput={"command": 42})), matcher="Bash")
    record = tmp_path / "post.jsonl"
    post = spec(f"CLAUDE_HOOK_RECORD={record} {reply(0)}", "PostToolUse", name="post")
    hooks = claude_hooks(rewrite, post, project_dir=tmp_path, version=claude_version(version))
    [outcome] = await hooks.turn_runner().run(one_call("Bash", {"command": "ls"}))
    [use] = outcome.tool_uses
    assert (use.ran, use.is_error, use.feedback) == (False, True, SCHEMA_WORDS + note)
    assert not record.exists()
