"""PostToolUse logger: one JSON line per tool call in $CLAUDE_TOOL_LOG (default: the temp
folder's claude-tool-log.jsonl). Says nothing to Claude."""

import json
import os
import sys
import tempfile
import time

call = json.load(sys.stdin)
default = os.path.join(tempfile.gettempdir(), "claude-tool-log.jsonl")
entry = {
    "ts": time.time(),
    "session": call.get("session_id"),
    "tool": call.get("tool_name"),
    "input": call.get("tool_input"),
    "response": call.get("tool_response"),
}
with open(os.environ.get("CLAUDE_TOOL_LOG", default), "a", encoding="utf-8") as log:
    log.write(json.dumps(entry) + "\n")
