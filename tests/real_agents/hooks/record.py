"""A Claude Code command hook that records every call and may answer for `rm -rf`.

    record.py LOG [ANSWER]

Appends one JSON line to LOG per call: the raw stdin, the environment and the working folder.
On PreToolUse for a command containing `rm -rf` it answers with ANSWER:

- `exit-2`: refuses by exiting 2 with the reason on stderr;
- `deny`:   refuses with `permissionDecision: deny` and the reason;
- `allow`:  permits with `permissionDecision: allow`.

Otherwise it says nothing and exits 0.
"""

from __future__ import annotations

import json
import os
import sys

REASON = "rm -rf is not allowed in this project"
ALLOWED = "rm -rf is fine in this project"


def main() -> int:
    log, answer = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    stdin = sys.stdin.read()
    with open(log, "a", encoding="utf-8") as out:
        out.write(json.dumps({"stdin": stdin, "env": dict(os.environ), "cwd": os.getcwd()}) + "\n")
    event = json.loads(stdin)
    command = str(event.get("tool_input", {}).get("command", ""))
    if event["hook_event_name"] != "PreToolUse" or "rm -rf" not in command:
        return 0
    if answer == "exit-2":
        print(REASON, file=sys.stderr)
        return 2
    if answer in ("deny", "allow"):
        reason = REASON if answer == "deny" else ALLOWED
        decision = {
            "hookEventName": "PreToolUse",
            "permissionDecision": answer,
            "permissionDecisionReason": reason,
        }
        print(json.dumps({"hookSpecificOutput": decision}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
