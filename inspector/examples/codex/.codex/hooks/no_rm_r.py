"""Codex PreToolUse guard for the shell (Bash): refuse a recursive remove (rm -r, rm -rf, rm -R,
rm --recursive). Codex already refuses rm -f style commands on its own; this covers the rest."""

import json
import re
import sys

RECURSIVE = re.compile(r"^-(?:\w*r\w*|-recursive)$", re.IGNORECASE)

call = json.load(sys.stdin)
command = str(call.get("tool_input", {}).get("command", ""))
for words in (part.split() for part in re.split(r"[;&|]+", command)):
    flags = [word for word in words[1:] if word.startswith("-")]
    if words[:1] == ["rm"] and any(map(RECURSIVE.match, flags)):
        answer = {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": f"recursive rm is not allowed here ({command!r});"
            " remove specific files instead.",
        }
        print(json.dumps({"hookSpecificOutput": answer}))
        break
