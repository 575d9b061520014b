"""What a hook writes itself, here a Claude Code hook's deny reason, goes to the collector through
export's redaction, as the bodies do: a secret in it never leaves the machine. (A hook's error
message is test_otlp_run's, from tests/otel/session/refuser.py.)"""

from __future__ import annotations

import json
from pathlib import Path

from inspector.journal.records import Decision
from tests.otel.session_run import PLANTED, hook_inspector, saved_records
from tests.support.otlp_receiver import otlp_receiver

DENIES = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": f"refused: token={PLANTED}",
    }
}
HOOK = f"print({json.dumps(json.dumps(DENIES))})\n"
SCENARIO = """\
name: A hook that says a secret
session: hook-text
turns:
  - user: "List the folder."
    rounds:
      - tool_calls:
          - tool: Bash
            arguments: {command: "ls", description: "List the folder"}
      - content: "Done."
"""


def claude_project(folder: Path) -> Path:
    hooks = folder / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "deny.py").write_text(HOOK)
    handlers = [
        {"type": "command", "command": 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/deny.py'}
    ]
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}]}}
    (folder / ".claude" / "settings.json").write_text(json.dumps(settings))
    (folder / "scenario.yaml").write_text(SCENARIO)
    return folder


def test_a_secret_in_a_hooks_deny_reason_never_reaches_the_collector(tmp_path: Path) -> None:
    project = claude_project(tmp_path / "project")
    journal = tmp_path / "journal.jsonl"
    with otlp_receiver() as (url, received):
        ran = hook_inspector("run", project, "--journal", journal, "--otlp", url)
    assert ran.returncode == 0, ran.stderr
    records = saved_records(journal)
    # the journal holds it where the hooks put it: the redaction is the test
    assert any(isinstance(r, Decision) and PLANTED in (r.reason or "") for r in records)
    assert received.spans and not any(PLANTED.encode() in body for body in received.bodies)
    reasons = [s.attributes.get("hook_inspector.reason", "") for s in received.spans]
    assert "refused: token=[REDACTED]" in reasons
