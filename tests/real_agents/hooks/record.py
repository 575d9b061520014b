"""A Claude Code command hook that records every call and may answer for `rm -rf`.

    record.py LOG [ANSWER]

Appends one JSON line to LOG per call: the raw stdin, the environment and the working folder.
On PreToolUse for a command containing `rm -rf` it answers with ANSWER:

- `exit-2`: refuses by exiting 2 with the reason on stderr;
- `deny`:   refuses with `permissionDecision: deny` and the reason;
- `allow`:  permits with `permissionDecision: allow`;
- `ask`:    asks with `permissionDecision: ask` and the reason;
- `stop`:   answers `continue: false` with the reason as stopReason;
- `no-event-name`: refuses with a hookSpecificOutput that lacks hookEventName;
- `rewrite`: answers updatedInput alone (no decision), the command made `touch rewritten.txt`;
- `bad-rewrite`: answers updatedInput alone whose command is a number, which Bash's schema refuses.

With ANSWER `permit` it answers PermissionRequest instead: allow for a command naming `allowme`,
deny (with a message) for one naming `denyme`. With ANSWER `block-stop` it blocks every Stop
instead, with the reason, and with `exit-2-stop` the first Stop by exiting 2. With `post-exit-2`,
`post-block` or `post-context` it answers the PostToolUse of an `rm -rf` command instead (exit 2;
decision block; additionalContext), with the reason. Otherwise it says nothing and exits 0.
"""

from __future__ import annotations

import json
import os
import sys

REASON = "rm -rf is not allowed in this project"
ALLOWED = "rm -rf is fine in this project"
REWRITTEN = "touch rewritten.txt"
DENIED = {"behavior": "deny", "message": "the permission hook says no"}


def main() -> int:
    log, answer = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    stdin = sys.stdin.read()
    with open(log, "a", encoding="utf-8") as out:
        out.write(json.dumps({"stdin": stdin, "env": dict(os.environ), "cwd": os.getcwd()}) + "\n")
    event = json.loads(stdin)
    name = event["hook_event_name"]
    if name == "Stop":
        return _stop(answer, event)
    command = str(event.get("tool_input", {}).get("command", ""))
    if name == "PermissionRequest" and answer == "permit":
        return _permission(command)
    if "rm -rf" not in command:
        return 0
    if name == "PostToolUse":
        return _after(answer)
    if name != "PreToolUse":
        return 0
    if answer == "exit-2":
        print(REASON, file=sys.stderr)
        return 2
    if answer in ("deny", "allow", "ask", "no-event-name"):
        decision = {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny" if answer == "no-event-name" else answer,
            "permissionDecisionReason": ALLOWED if answer == "allow" else REASON,
        }
        if answer == "no-event-name":
            del decision["hookEventName"]
        print(json.dumps({"hookSpecificOutput": decision}))
    elif answer == "stop":
        print(json.dumps({"continue": False, "stopReason": REASON}))
    elif answer == "rewrite":
        rewritten = {"hookEventName": "PreToolUse", "updatedInput": {"command": REWRITTEN}}
        print(json.dumps({"hookSpecificOutput": rewritten}))
    elif answer == "bad-rewrite":
        rewritten = {"hookEventName": "PreToolUse", "updatedInput": {"command": 42}}
        print(json.dumps({"hookSpecificOutput": rewritten}))
    return 0


def _permission(command: str) -> int:
    """Answer the permission dialog: allow a command naming allowme, deny one naming denyme."""
    for word, decision in (("allowme", {"behavior": "allow"}), ("denyme", DENIED)):
        if word in command:
            specific = {"hookEventName": "PermissionRequest", "decision": decision}
            print(json.dumps({"hookSpecificOutput": specific}))
    return 0


def _stop(answer: str, event: dict[str, object]) -> int:
    if answer == "block-stop":
        print(json.dumps({"decision": "block", "reason": REASON}))
    if answer == "exit-2-stop" and not event["stop_hook_active"]:
        print(REASON, file=sys.stderr)
        return 2
    return 0


def _after(answer: str) -> int:
    if answer == "post-exit-2":
        print(REASON, file=sys.stderr)
        return 2
    if answer == "post-block":
        print(json.dumps({"decision": "block", "reason": REASON}))
    if answer == "post-context":
        context = {"hookEventName": "PostToolUse", "additionalContext": REASON}
        print(json.dumps({"hookSpecificOutput": context}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
