"""BeforeTool guard for run_shell_command: deny a recursive forced remove (rm -rf, rm -fr,
rm -r -f, ...). Gemini CLI tells the model `Tool execution blocked: REASON`."""

import json
import re
import sys

RECURSIVE = re.compile(r"^-(?:\w*r\w*|-recursive)$", re.IGNORECASE)
FORCE = re.compile(r"^-(?:\w*f\w*|-force)$")

call = json.load(sys.stdin)
command = str(call.get("tool_input", {}).get("command", ""))
for words in (part.split() for part in re.split(r"[;&|]+", command)):
    flags = [word for word in words[1:] if word.startswith("-")]
    if words[:1] == ["rm"] and any(map(RECURSIVE.match, flags)) and any(map(FORCE.match, flags)):
        reason = f"rm -rf is not allowed here ({command!r}); remove specific files instead."
        print(json.dumps({"decision": "deny", "reason": reason}))
        break
