"""Codex PostToolUse logger: one JSON line per command that ran in $CODEX_TOOL_LOG (default: the
temp folder's codex-tool-log.jsonl). It says nothing back, so Codex goes on as if it were not
there."""

import json
import os
import sys
import tempfile
import time

call = json.load(sys.stdin)
default = os.path.join(tempfile.gettempdir(), "codex-tool-log.jsonl")
entry = {
    "ts": time.time(),
    "session": call.get("session_id"),
    "turn": call.get("turn_id"),
    "tool": call.get("tool_name"),
    "input": call.get("tool_input"),
    "response": call.get("tool_response"),
}
with open(os.environ.get("CODEX_TOOL_LOG", default), "a", encoding="utf-8") as log:
    log.write(json.dumps(entry) + "\n")
