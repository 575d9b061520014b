"""A handler's `if`: a permission rule the tool call must match for the hook to run, matched as
Claude Code matches its permission rules (seen in 2.1.197 and 2.1.332: `Bash(rm *)` runs for a
part of `echo x && rm -rf b`, `Read(./r.txt)` for that file only, `Write` for every Write, and a
hook with `if` on an event without a tool never runs)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from inspector.hooks.approvals import Approvals
from inspector.hosts.claude.chain import ClaudeHooks
from inspector.hosts.claude.config import read_claude
from inspector.journal.journal import Journal
from inspector.scenario import parse_scenario

CONDITIONS = ("Bash(touch:*)", "Bash(rm *)", "Write", "Read(./r.txt)", "Bash(ls)")
SCENARIO = parse_scenario(
    """
session: s
turns:
  - user: go
    rounds:
      - content: on it
        tool_calls:
          - {tool: Bash, arguments: {command: "touch a.txt"}}
          - {tool: Bash, arguments: {command: "echo x && rm -rf b"}}
          - {tool: Bash, arguments: {command: "ls"}}
          - {tool: Write, arguments: {file_path: "w.txt", content: "x"}}
          - {tool: Read, arguments: {file_path: "r.txt"}}
          - {tool: Read, arguments: {file_path: "q.txt"}}
      - content: done
"""
)


def recorder(log: Path, condition: str) -> dict[str, str]:
    line = f"printf '%s\\n' {shlex.quote(condition)} >> {shlex.quote(str(log))}"
    return {"type": "command", "command": line, "if": condition}


async def test_a_hook_runs_only_for_the_calls_its_if_rule_matches(tmp_path: Path) -> None:
    project, log = tmp_path / "project", tmp_path / "ran.log"
    (project / ".claude").mkdir(parents=True)
    settings = {
        "hooks": {
            "PreToolUse": [{"hooks": [recorder(log, condition) for condition in CONDITIONS]}],
            "UserPromptSubmit": [{"hooks": [recorder(log, "Bash")]}],
        }
    }
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    read = read_claude(project)
    assert not [w for w in read.warnings if w.key and w.key.endswith(".if")]  # applied now
    approvals = Approvals()
    approvals.unattended = True
    hooks = ClaudeHooks(read.config.command_hooks, Journal(), approvals, project_dir=project)
    await hooks.turn_runner().run(SCENARIO)
    assert log.read_text().splitlines() == [
        "Bash(touch:*)",
        "Bash(rm *)",
        "Bash(ls)",
        "Write",
        "Read(./r.txt)",
    ]
