"""What happens to a tool call besides its hooks' answers, real and emulated side by side: what
`claude -p` does with a call no hook and no rule allows (the permission layer in full is
test_claude_emulation_permission_layer.py's), with an `updatedInput` its tool's schema refuses,
and which input the hooks see. The emulation's known differences are claude_gaps.py's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import claude_gaps as gaps
from claude_cli import ClaudeCli
from claude_fixtures import claude_cli, project  # noqa: F401 (fixtures used by name)
from emulation import emulate
from fake_anthropic import Reply, ToolCall, bash
from recorded_hooks import read_calls, recorder, recording_settings, write_settings
from test_claude_emulation_semantics import both, logs, one_turn
from test_claude_real import RISKY, play

from inspector.hosts.claude.versions import claude_version


def test_what_no_hook_or_rule_allows_claude_p_refuses(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    real_log, emulated_log = logs(project)
    events = ("PreToolUse", "PermissionRequest")
    write_settings(project, recording_settings(recorder(real_log), events))
    write = ToolCall(
        "Write", {"file_path": str(project / "written.txt"), "content": "x"}, "toolu_0002"
    )
    script = [Reply("Two changes.", (bash("touch made.txt", "toolu_0001"), write)), Reply("Done.")]
    _, api = play(claude_cli, project, home, script, allowed_tools=())
    assert [told["is_error"] for told in api.tool_results()] == [True, True]
    assert not (project / "made.txt").exists() and not (project / "written.txt").exists()

    settings = recording_settings(recorder(emulated_log), events)
    outcome = asyncio.run(
        emulate(project, settings, one_turn(script), version=claude_cli.version, allowed_tools=())
    )
    assert [use.told for use in outcome.tool_uses] == [
        told["content"] for told in api.tool_results()
    ]
    assert not any(use.ran for use in outcome.tool_uses)
    real = sorted(call.event for call in read_calls(real_log))
    emulated = sorted(call.event for call in read_calls(emulated_log))
    assert emulated == real
    fires = claude_version(claude_cli.version).permission_request_in_p
    asked = ["PermissionRequest", "PermissionRequest"] if fires else []
    assert real == [*asked, "PreToolUse", "PreToolUse"]


def test_an_updated_input_the_tools_schema_refuses_is_refused(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    script = [Reply(tool_calls=(bash(RISKY, "toolu_0001"),)), Reply("Understood.")]
    api, real, outcome, _ = both(claude_cli, project, home, "bad-rewrite", script)
    [told] = api.tool_results()
    assert told["is_error"] and "updatedInput that failed schema validation" in told["content"]
    assert real[0] == "PreToolUse" and "PostToolUse" not in real
    [use] = outcome.tool_uses
    refused_alike = not use.ran and use.feedback == told["content"]
    assert refused_alike is not gaps.differs(claude_cli.version, gaps.SCHEMA_CHECK), use


def test_the_hooks_see_the_tool_input_with_its_schemas_defaults(
    claude_cli: ClaudeCli, project: Path, home: Path
) -> None:
    file = project / "notes.txt"
    file.write_text("draft\n")
    real_log, emulated_log = logs(project)
    write_settings(project, recording_settings(recorder(real_log), ("PreToolUse",)))
    edit = {"file_path": str(file), "old_string": "draft", "new_string": "final"}
    script = [
        Reply(tool_calls=(ToolCall("Read", {"file_path": str(file)}, "toolu_0001"),)),
        Reply(tool_calls=(ToolCall("Edit", edit, "toolu_0002"),)),
        Reply("Done."),
    ]
    play(claude_cli, project, home, script, allowed_tools=("Read", "Edit"))
    assert file.read_text() == "final\n"

    settings = recording_settings(recorder(emulated_log), ("PreToolUse",))
    asyncio.run(emulate(project, settings, one_turn(script), version=claude_cli.version))
    [real] = [call for call in read_calls(real_log) if call.payload["tool_name"] == "Edit"]
    [emulated] = [call for call in read_calls(emulated_log) if call.payload["tool_name"] == "Edit"]
    real_input, emulated_input = real.payload["tool_input"], emulated.payload["tool_input"]
    assert {key: real_input[key] for key in edit} == edit
    differing = {
        key
        for key in real_input.keys() | emulated_input.keys()
        if real_input.get(key) != emulated_input.get(key)
    }
    assert differing == gaps.keys(claude_cli.version, gaps.TOOL_INPUT_DEFAULTS)
