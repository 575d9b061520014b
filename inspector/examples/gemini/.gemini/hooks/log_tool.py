"""AfterTool logger: one JSON line per tool call in $GEMINI_TOOL_LOG (default: the temp folder's
gemini-tool-log.jsonl). It says nothing back, so Gemini CLI gives the model the result as it was."""

import json
import os
import sys
import tempfile
import time

call = json.load(sys.stdin)
default = os.path.join(tempfile.gettempdir(), "gemini-tool-log.jsonl")
entry = {
    "ts": time.time(),
    "session": call.get("session_id"),
    "tool": call.get("tool_name"),
    "input": call.get("tool_input"),
    "response": call.get("tool_response"),
}
with open(os.environ.get("GEMINI_TOOL_LOG", default), "a", encoding="utf-8") as log:
    log.write(json.dumps(entry) + "\n")
