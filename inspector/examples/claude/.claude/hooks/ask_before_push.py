"""PreToolUse guard for Bash: ask the user before any git push."""

import json
import re
import sys

call = json.load(sys.stdin)
command = str(call.get("tool_input", {}).get("command", ""))
if re.search(r"\bgit\s+(?:-\S+\s+)*push\b", command):
    answer = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "ask",
        "permissionDecisionReason": f"{command!r} publishes commits: confirm first.",
    }
    print(json.dumps({"hookSpecificOutput": answer}))
