"""Codex PreCompact logger: one JSON line per compaction in $CODEX_TOOL_LOG (default: the temp
folder's codex-tool-log.jsonl), so you can see when Codex summarised the session's history. It
says nothing back, so the compaction goes on ({"continue": false} would keep it from running and
end the turn)."""

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
    "compaction": call.get("trigger"),
}
with open(os.environ.get("CODEX_TOOL_LOG", default), "a", encoding="utf-8") as log:
    log.write(json.dumps(entry) + "\n")
